"""Seed conditions: the same responses under the checker's alternatives, side by side.

Everything but the question-passages condition is re-decided from one
scoring run; that one needs its own run with evidence_mode "question".
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from groundwatch.evaluation.metrics import binary_metrics
from groundwatch.evaluation.report import arrays
from groundwatch.evaluation.scored import Scored, Variant
from groundwatch.evaluation.tables import render
from groundwatch.scorers.verdicts.thresholds import Thresholds


def _row(name: str, y_true, y_pred, scores) -> dict:
    m = binary_metrics(y_true, y_pred, scores)
    return {"condition": name, **{k: m[k] for k in ("n", "balanced_accuracy", "recall", "precision", "f1", "auroc")},
            "flagged": float(np.mean(y_pred)) if len(y_pred) else 0.0}


def seed_conditions(scored: list[Scored], base: Thresholds, question: list[Scored] | None = None) -> list[dict]:
    ok = [s for s in scored if s.error is None]
    y_true = np.array([s.item.unsupported for s in ok], bool)
    rows = [_row("no verification (all SUPPORTED)", y_true, np.zeros(len(ok), bool), np.zeros(len(ok)))]
    static = replace(base, mode="static")
    variants = [(f"static (tau_e {base.tau_entailment}, tau_c {base.tau_contradiction})", Variant(static))]
    variants += [(f"{mode} (pivot {base.pivot})" if mode != "sqrt" else "sqrt", Variant(replace(base, mode=mode)))
                 for mode in ("tiered", "sqrt", "sigmoid")]
    variants += [("static, no pairwise premises (pair_top 0)", Variant(static, pairs=False)),
                 ("static, no free checks", Variant(static, free_checks=False))]
    for name, variant in variants:
        rows.append(_row(name, *arrays(ok, variant)))
    if question is not None:
        q_ok = [s for s in question if s.error is None]
        rows.append(_row("static, question's passages in rank order (evidence_mode question)",
                         *arrays(q_ok, Variant(static))))
    return rows


def conditions_table(rows: list[dict]) -> str:
    return render(["condition", "n", "bal.acc", "recall(unsup)", "precision(unsup)", "F1", "AUROC", "flagged"],
                  [[r["condition"], r["n"], r["balanced_accuracy"], r["recall"], r["precision"], r["f1"], r["auroc"],
                    r["flagged"]] for r in rows])
