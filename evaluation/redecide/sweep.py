"""Threshold sweep: re-decide every stored claim over a grid of thresholds, no model calls."""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace

import numpy as np

from groundwatch.evaluation.metrics import confusion, rates
from groundwatch.evaluation.scored import Scored, Variant, predict
from groundwatch.evaluation.tables import render
from groundwatch.scorers.verdicts.thresholds import MODES, Thresholds

# Up to 0.99: balanced accuracy (supported or not) seldom tells contradiction thresholds apart, and the
# calibration rule then takes the quietest, so the grid must reach a τc at which CONTRADICTED means it.
TAU_CONTRADICTION = (0.5, 0.7, 0.9, 0.95, 0.99)
PIVOTS = (0.4, 0.5, 0.6)


def tau_entailment_grid(fine: bool) -> list[float]:
    step = 0.025 if fine else 0.05
    return [round(0.30 + step * i, 3) for i in range(int(round(0.65 / step)) + 1)]


def grid(base: Thresholds, fine: bool = False) -> list[Thresholds]:
    """Static and the three weighted modes; pivots are varied only in the fine (calibration) grid."""
    out = []
    for mode in MODES:
        pivots = PIVOTS if fine and mode in ("tiered", "sigmoid") else (base.pivot,)
        for pivot in pivots:
            for tau_e in tau_entailment_grid(fine):
                for tau_c in TAU_CONTRADICTION:
                    out.append(replace(base, tau_entailment=tau_e, tau_contradiction=tau_c, mode=mode, pivot=pivot))
    return out


@dataclass(frozen=True)
class Row:
    mode: str
    tau_entailment: float
    tau_contradiction: float
    pivot: float
    balanced_accuracy: float | None
    recall: float | None
    precision: float | None
    f1: float | None
    flagged: float  # share of responses called unsupported

    @property
    def thresholds(self) -> Thresholds:
        return Thresholds(self.tau_entailment, self.tau_contradiction, self.mode, pivot=self.pivot)

    def as_dict(self) -> dict:
        return asdict(self)


def decisions(scored: list[Scored], thresholds: Thresholds, free_checks: bool = True,
              pairs: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Gold and predicted "unsupported" of every response scored without an error."""
    variant = Variant(thresholds, free_checks, pairs)
    ok = [s for s in scored if s.error is None]
    y_true = np.array([s.item.unsupported for s in ok], bool)
    y_pred = np.array([predict(s, variant).unsupported for s in ok], bool)
    return y_true, y_pred


def evaluate(scored: list[Scored], thresholds: Thresholds, free_checks: bool = True, pairs: bool = True) -> Row:
    y_true, y_pred = decisions(scored, thresholds, free_checks, pairs)
    r = rates(confusion(y_true, y_pred))
    return Row(thresholds.mode, thresholds.tau_entailment, thresholds.tau_contradiction, thresholds.pivot,
               r["balanced_accuracy"], r["recall"], r["precision"], r["f1"],
               float(y_pred.mean()) if len(y_pred) else 0.0)


def sweep(scored: list[Scored], thresholds: list[Thresholds], **variant) -> list[Row]:
    return [evaluate(scored, t, **variant) for t in thresholds]


def _metrics(r: Row) -> tuple:
    return r.precision, r.recall, r.balanced_accuracy, r.f1, r.flagged


def table(rows: list[Row]) -> str:
    """One line per row; neighbours that differ only in tau_c and score the same share a line ("0.50-0.70")."""
    merged: list[tuple[Row, str]] = []
    for r in rows:
        last = merged[-1][0] if merged else None
        if (last and (last.mode, last.tau_entailment, last.pivot) == (r.mode, r.tau_entailment, r.pivot)
                and _metrics(last) == _metrics(r)):
            merged[-1] = (last, f"{last.tau_contradiction:.2f}-{r.tau_contradiction:.2f}")
        else:
            merged.append((r, f"{r.tau_contradiction:.2f}"))
    headers = ["mode", "tau_e", "tau_c", "pivot", "precision(unsup)", "recall(unsup)", "bal.acc", "F1", "flagged"]
    return render(headers, [[r.mode, r.tau_entailment, tau_c, r.pivot if r.mode in ("tiered", "sigmoid") else None,
                             *_metrics(r)] for r, tau_c in merged])
