"""The threshold rule and the combiner side by side, pooled and per data set, with bootstrap intervals."""

from __future__ import annotations

from dataclasses import replace

from groundwatch.evaluation.metrics import binary_metrics, bootstrap
from groundwatch.evaluation.report import arrays
from groundwatch.evaluation.scored import Scored, Variant
from groundwatch.evaluation.tables import render

COLUMNS = ("balanced_accuracy", "recall", "precision", "auroc")


def _row(group: str, rule: str, scored: list[Scored], variant: Variant, resamples: int, seed: int) -> dict:
    y_true, y_pred, scores = arrays(scored, variant)
    m = binary_metrics(y_true, y_pred, scores)
    interval = bootstrap(y_true, y_pred, scores, resamples, seed)
    return {"group": group, "rule": rule, "n": m["n"], "unsupported": m["unsupported"],
            **{k: m[k] for k in COLUMNS}, "interval_95": {k: interval[k] for k in COLUMNS},
            "confusion": m["confusion"]}


def rule_rows(scored: list[Scored], variant: Variant, combiner, resamples: int = 1000, seed: int = 0) -> list[dict]:
    """For each set (and all together when there are several): the threshold rule, then the combiner."""
    ok = [s for s in scored if s.error is None]
    sets = sorted({s.item.set_name for s in ok})
    groups = [(f"set:{name}", [s for s in ok if s.item.set_name == name]) for name in sets]
    if len(sets) > 1:
        groups.append(("pooled", ok))
    threshold = replace(variant, combiner=None)
    with_combiner = replace(variant, combiner=combiner)
    rows = []
    for group, members in groups:
        rows.append(_row(group, "threshold", members, threshold, resamples, seed))
        rows.append(_row(group, "combiner", members, with_combiner, resamples, seed))
    return rows


def _cell(row: dict, metric: str) -> str:
    value, interval = row[metric], row["interval_95"][metric]
    if value is None:
        return "-"
    return f"{value:.3f} [{interval[0]:.3f}, {interval[1]:.3f}]" if interval else f"{value:.3f}"


def rules_table(rows: list[dict]) -> str:
    return render(["group", "rule", "n (unsup.)", "bal.acc [95%]", "recall(unsup) [95%]", "precision(unsup)",
                   "AUROC"],
                  [[r["group"], r["rule"], f"{r['n']} ({r['unsupported']})", _cell(r, "balanced_accuracy"),
                    _cell(r, "recall"), None if r["precision"] is None else round(r["precision"], 3),
                    None if r["auroc"] is None else round(r["auroc"], 3)] for r in rows])
