"""Metrics for the unsupported class (the positive class) and bootstrap intervals.

Conventions: y_true / y_pred are booleans, True = unsupported; `scores` grow
with the belief that a response is unsupported (1 - minimum entailment). A
metric that is undefined (precision with no positive predictions, AUROC with
one class) is None.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

HEADLINE = ("balanced_accuracy", "recall", "precision", "f1", "auroc")


@dataclass(frozen=True)
class Confusion:
    tp: int  # unsupported, flagged
    fp: int  # supported, flagged
    tn: int  # supported, passed
    fn: int  # unsupported, passed

    @property
    def n(self) -> int:
        return self.tp + self.fp + self.tn + self.fn


def confusion(y_true, y_pred) -> Confusion:
    t, p = np.asarray(y_true, bool), np.asarray(y_pred, bool)
    return Confusion(int((t & p).sum()), int((~t & p).sum()), int((~t & ~p).sum()), int((t & ~p).sum()))


def _ratio(a: float, b: float) -> float | None:
    return a / b if b else None


def rates(c: Confusion) -> dict[str, float | None]:
    recall = _ratio(c.tp, c.tp + c.fn)
    specificity = _ratio(c.tn, c.tn + c.fp)
    precision = _ratio(c.tp, c.tp + c.fp)
    balanced = (recall + specificity) / 2 if recall is not None and specificity is not None else None
    if precision and recall:
        f1 = 2 * precision * recall / (precision + recall)
    else:
        f1 = 0.0 if recall is not None else None
    return {"balanced_accuracy": balanced, "recall": recall, "precision": precision, "f1": f1,
            "specificity": specificity}


def rankdata(values: np.ndarray) -> np.ndarray:
    """Ranks from 1, ties get their average rank."""
    _, inverse, counts = np.unique(values, return_inverse=True, return_counts=True)
    ends = np.cumsum(counts)
    return ((ends - counts + ends + 1) / 2.0)[inverse]


def auroc(y_true, scores) -> float | None:
    """Area under the ROC curve via the Mann-Whitney U statistic (ties count one half)."""
    t = np.asarray(y_true, bool)
    s = np.asarray(scores, np.float64)
    pos, neg = int(t.sum()), int((~t).sum())
    if not pos or not neg:
        return None
    ranks = rankdata(s)
    return float((ranks[t].sum() - pos * (pos + 1) / 2) / (pos * neg))


def binary_metrics(y_true, y_pred, scores) -> dict:
    c = confusion(y_true, y_pred)
    out = {"n": c.n, "unsupported": c.tp + c.fn, **rates(c), "auroc": auroc(y_true, scores),
           "confusion": asdict(c)}
    return out


def bootstrap_draws(y_true, y_pred, scores=None, resamples: int = 1000, seed: int = 0) -> dict[str, list[float]]:
    """Each headline metric over `resamples` resamples of the responses, undefined values dropped; AUROC only
    with `scores`. Interval and standard error (evaluation/redecide/calibrate.py) come from the same draws."""
    t, p = np.asarray(y_true, bool), np.asarray(y_pred, bool)
    s = None if scores is None else np.asarray(scores, np.float64)
    n = len(t)
    rng = np.random.default_rng(seed)
    draws: dict[str, list[float]] = {m: [] for m in HEADLINE}
    for _ in range(resamples):
        idx = rng.integers(0, n, n)
        values = rates(confusion(t[idx], p[idx]))
        values["auroc"] = None if s is None else auroc(t[idx], s[idx])
        for m in HEADLINE:
            if values[m] is not None:
                draws[m].append(values[m])
    return draws


def bootstrap(y_true, y_pred, scores, resamples: int = 1000, seed: int = 0,
              level: float = 0.95) -> dict[str, list[float] | None]:
    """Percentile intervals of the headline metrics over resamples of the responses.

    Why not scipy.stats.bootstrap: here every metric (AUROC included) comes from the same
    draw and undefined values are dropped per metric; scipy's takes one statistic, defaults
    to BCa and draws differently, so the recorded intervals would move.
    """
    if len(y_true) == 0:
        return {m: None for m in HEADLINE}
    draws = bootstrap_draws(y_true, y_pred, scores, resamples, seed)
    alpha = (1 - level) / 2
    return {m: ([float(np.quantile(v, alpha)), float(np.quantile(v, 1 - alpha))] if len(v) >= resamples // 2
                else None) for m, v in draws.items()}


def three_way(gold: list[str], predicted: list[str], labels: tuple[str, ...]) -> dict:
    """Confusion matrix (rows gold, columns predicted), accuracy and macro F1."""
    index = {label: i for i, label in enumerate(labels)}
    matrix = np.zeros((len(labels), len(labels)), dtype=int)
    for g, p in zip(gold, predicted):
        matrix[index[g], index[p]] += 1
    f1s = []
    for i in range(len(labels)):
        tp = matrix[i, i]
        precision = _ratio(tp, matrix[:, i].sum())
        recall = _ratio(tp, matrix[i, :].sum())
        f1s.append(2 * precision * recall / (precision + recall) if precision and recall else 0.0)
    n = int(matrix.sum())
    return {"n": n, "labels": list(labels), "matrix": matrix.tolist(),
            "accuracy": float(np.trace(matrix) / n) if n else None, "macro_f1": float(np.mean(f1s)) if n else None}
