"""Evidence windows re-decided from saved scores: top_k x pair_top, per data set.

A run scored at the largest top_k / pair_top holds every premise a smaller
setting would score (evaluation/scored.py `premises`), so the whole grid is
re-decided with no model call. Chunk size and overlap change the premises
themselves and need a scoring run each; compare their tables side by side.

Per setting: balanced accuracy at the given thresholds and AUROC on each set,
and the mean over sets of balanced accuracy at the one static tau_e (shared by
all sets) that maximises it, so a window that moves the entailment scale is not
judged at thresholds tuned for another.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from groundwatch.evaluation.metrics import auroc, confusion, rates
from groundwatch.evaluation.report import arrays
from groundwatch.evaluation.scored import Scored, Variant
from groundwatch.evaluation.tables import render
from groundwatch.scorers.verdicts.thresholds import Thresholds


def _nanmean(values) -> float:
    """Mean of the defined values; NaN when none is (as np.nanmean, without its RuntimeWarning)."""
    a = np.asarray(values, dtype=float)
    a = a[~np.isnan(a)]
    return float(a.mean()) if a.size else float("nan")


TAU_GRID = tuple(round(0.30 + 0.025 * i, 3) for i in range(27))  # 0.30 .. 0.95


def parse_grid(text: str) -> tuple[list[int], list[int]]:
    """`2,4,6,8:0,2,3,4` -> top_k values, pair_top values."""
    try:
        ks, ps = text.split(":")
        return [int(v) for v in ks.split(",")], [int(v) for v in ps.split(",")]
    except ValueError:
        raise ValueError(f"window grid {text!r}: expected TOP_KS:PAIR_TOPS, e.g. 2,4,6,8:0,2,3,4") from None


def _bal(y_true, y_pred) -> float:
    value = rates(confusion(y_true, y_pred))["balanced_accuracy"]
    return float("nan") if value is None else value


def window_rows(scored: list[Scored], base: Thresholds, top_ks: list[int], pair_tops: list[int],
                free_checks: bool = True) -> list[dict]:
    ok = [s for s in scored if s.error is None]
    groups = {name: [s for s in ok if s.item.set_name == name] for name in sorted({s.item.set_name for s in ok})}
    rows = []
    for k in top_ks:
        for p in pair_tops:
            if p > k or p == 1:
                continue  # pairs join the first min(k, p) chunks; p 1 joins nothing
            variant = Variant(base, free_checks=free_checks, top_k=k, pair_top=p)
            row = {"top_k": k, "pair_top": p, "sets": {}}
            for name, members in groups.items():
                y_true, y_pred, scores = arrays(members, variant)
                row["sets"][name] = {"n": len(members), "balanced_accuracy": _bal(y_true, y_pred),
                                     "auroc": auroc(y_true, scores)}
            tuned = []
            for tau in TAU_GRID:
                static = replace(variant, thresholds=replace(base, tau_entailment=tau, mode="static"))
                tuned.append((_nanmean([_bal(*arrays(m, static)[:2]) for m in groups.values()]), tau))
            best, tau = max(tuned, key=lambda t: (t[0], -abs(t[1] - base.tau_entailment)))
            row["mean_balanced_accuracy"] = float(_nanmean([v["balanced_accuracy"] for v in row["sets"].values()]))
            row["mean_auroc"] = float(_nanmean([v["auroc"] if v["auroc"] is not None else np.nan
                                                  for v in row["sets"].values()]))
            row["tuned"] = {"tau_entailment": tau, "mean_balanced_accuracy": float(best)}
            rows.append(row)
    return rows


def _pair(m: dict) -> str:
    bal, roc = m["balanced_accuracy"], m["auroc"]
    return f"{'-' if bal != bal else f'{bal:.3f}'}/{'-' if roc is None else f'{roc:.3f}'}"


def window_table(rows: list[dict]) -> str:
    names = sorted({n for r in rows for n in r["sets"]})
    headers = ["top_k", "pair_top"] + [f"{n} bal.acc/AUROC" for n in names] + [
        "mean bal.acc", "mean AUROC", "best static tau_e", "mean bal.acc there"]
    body = []
    for r in rows:
        cells = [_pair(r["sets"][n]) if n in r["sets"] else "-" for n in names]
        body.append([r["top_k"], r["pair_top"], *cells, r["mean_balanced_accuracy"], r["mean_auroc"],
                     r["tuned"]["tau_entailment"], r["tuned"]["mean_balanced_accuracy"]])
    return render(headers, body)
