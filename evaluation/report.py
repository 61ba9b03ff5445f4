"""The evaluation report: headline metrics with bootstrap intervals, 3-way, and per stratum."""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from groundwatch.evaluation.labels import THREE_WAY
from groundwatch.evaluation.metrics import HEADLINE, binary_metrics, bootstrap, three_way
from groundwatch.evaluation.scored import Scored, Variant, predict
from groundwatch.evaluation.strata import strata_of
from groundwatch.evaluation.tables import render


def arrays(scored: list[Scored], variant: Variant) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    preds = [predict(s, variant) for s in scored]
    return (np.array([s.item.unsupported for s in scored], bool), np.array([p.unsupported for p in preds], bool),
            np.array([p.score for p in preds], np.float64))


def evaluation_report(scored: list[Scored], variant: Variant, resamples: int = 1000, seed: int = 0) -> dict:
    ok = [s for s in scored if s.error is None]
    y_true, y_pred, scores = arrays(ok, variant)
    headline = binary_metrics(y_true, y_pred, scores)
    headline["interval_95"] = bootstrap(y_true, y_pred, scores, resamples, seed)
    report = {"n_input": len(scored), "n_scored": len(ok), "n_errors": len(scored) - len(ok),
              "claims_checked": sum(1 for s in ok for c in s.claims if not c.skipped),
              "claims_skipped": sum(1 for s in ok for c in s.claims if c.skipped),
              "headline": headline}
    with_three = [(s, p) for s, p in zip(ok, (predict(s, variant) for s in ok)) if s.item.label_3way]
    if with_three:
        report["three_way"] = three_way([s.item.label_3way for s, _ in with_three],
                                        [p.three_way for _, p in with_three], THREE_WAY)
    groups: dict[str, list[int]] = defaultdict(list)
    for i, s in enumerate(ok):
        for name in strata_of(s, variant):
            groups[name].append(i)
    report["strata"] = {name: binary_metrics(y_true[idx], y_pred[idx], scores[idx])
                        for name, idx in sorted(groups.items())}
    return report


def headline_table(report: dict) -> str:
    h = report["headline"]
    rows = [[m, h[m], h["interval_95"][m]] for m in HEADLINE]
    c = h["confusion"]
    text = render(["metric (unsupported = positive)", "value", "95% bootstrap interval"], rows)
    text += (f"\n\nn = {h['n']} ({h['unsupported']} unsupported); errors = {report['n_errors']}; "
             f"claims checked = {report['claims_checked']}, skipped = {report['claims_skipped']}\n"
             f"confusion: flagged & unsupported (TP) {c['tp']}, flagged & supported (FP) {c['fp']}, "
             f"passed & supported (TN) {c['tn']}, passed & unsupported (FN) {c['fn']}")
    return text


def three_way_table(report: dict) -> str:
    t = report["three_way"]
    rows = [[f"gold {g}"] + t["matrix"][i] for i, g in enumerate(t["labels"])]
    text = render(["3-way (rows gold)"] + [f"pred {p}" for p in t["labels"]], rows)
    return text + f"\naccuracy {t['accuracy']:.3f}, macro F1 {t['macro_f1']:.3f} (n = {t['n']})"


def strata_table(report: dict) -> str:
    rows = []
    for name, m in report["strata"].items():
        c = m["confusion"]
        rows.append([name, m["n"], m["unsupported"], m["balanced_accuracy"], m["recall"], m["precision"], m["f1"],
                     m["auroc"], f"{c['tp']}/{c['fp']}/{c['tn']}/{c['fn']}"])
    return render(["stratum", "n", "unsup", "bal.acc", "recall", "precision", "F1", "AUROC", "TP/FP/TN/FN"], rows)
