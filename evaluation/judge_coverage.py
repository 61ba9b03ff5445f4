"""The figure that sizes a judge: the small model's accuracy on what it is sure of vs the share it would defer.

A claim is deferred when the judge would see it (scorers/verdicts/judge/judge.py `in_band`): checked, with
evidence, not convicted by a verified mismatch, its best entailment in [lower, upper). A response is
sure when none of its claims is deferred; it is predicted unsupported when any checked claim is not
SUPPORTED (as `groundwatch eval` does). For each target share of deferred claims, the band is chosen
on the calibration half (highest balanced accuracy on the sure responses among the bands on a 0.05
grid around the entailment threshold that defer at most that share of claims) and reported on the report half: the share of claims
and responses deferred, and balanced accuracy on the sure responses, pooled and per set. Verdicts are
re-decided from saved `groundwatch eval --save-verdicts` records at the shipped thresholds; no model runs.

    python -m groundwatch.evaluation.judge_coverage --dir build/judge --sets wice,begin,qags,halueval \
        --output docs/figures/judge-coverage.json

reads DIR/SET.jsonl (`groundwatch convert`) and DIR/SET-verdicts.jsonl for each set.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from groundwatch.config.scorer import ScorerConfig
from groundwatch.evaluation.dataset import half_of, read_labelled
from groundwatch.evaluation.metrics import bootstrap, confusion, rates
from groundwatch.evaluation.scored import StoredClaim, Variant, claim_decision
from groundwatch.scorers.files import output_path
from groundwatch.scorers.jsonl import read_jsonl
from groundwatch.scorers.records import Verdict
from groundwatch.scorers.verdicts.thresholds import Thresholds

TARGETS = (0.05, 0.10, 0.20, 0.30, 0.40)  # at most this share of checked claims deferred
GRID = [round(0.05 * i, 2) for i in range(21)]


@dataclass(frozen=True)
class Response:
    set_name: str
    half: str
    unsupported: bool            # the gold label
    predicted_unsupported: bool  # the small model, any checked claim not SUPPORTED
    supports: tuple[float, ...]  # best entailment of each claim the judge could see (others: none)
    checked: int                 # checked claims


def responses(directory: Path, sets: list[str], thresholds: Thresholds) -> list[Response]:
    variant = Variant(thresholds)
    out = []
    for name in sets:
        by_id = {r["request_id"]: r for _, r in read_jsonl(directory / f"{name}-verdicts.jsonl")}
        for item in read_labelled(directory / f"{name}.jsonl"):
            record = by_id.get(item.request_id)
            if record is None:
                continue  # a response the scorer refused (its ScoringError): not a verdict either way
            verdicts, supports = [], []
            for claim in (StoredClaim.from_dict(c) for c in record["claims"]):
                if claim.skipped:
                    continue
                verdict, flags, support = claim_decision(claim, variant)
                verdicts.append(verdict)
                if claim.evidence and "contradicted_by_check" not in flags:
                    supports.append(support)
            out.append(Response(name, half_of(item.request_id), item.unsupported,
                                any(v is not Verdict.SUPPORTED for v in verdicts), tuple(supports), len(verdicts)))
    return out


def measure(rows: list[Response], lower: float, upper: float, resamples: int = 0) -> dict:
    """Deferred shares and the small model's balanced accuracy on the sure responses."""
    deferred = [any(lower <= s < upper for s in r.supports) for r in rows]
    claims = sum(r.checked for r in rows)
    deferred_claims = sum(sum(lower <= s < upper for s in r.supports) for r in rows)
    sure = [r for r, d in zip(rows, deferred) if not d]
    truth = [r.unsupported for r in sure]
    predicted = [r.predicted_unsupported for r in sure]
    out = {"responses": len(rows), "claims": claims,
           "claims_deferred": round(deferred_claims / claims, 4) if claims else None,
           "responses_deferred": round(sum(deferred) / len(rows), 4) if rows else None,
           "sure": len(sure), "balanced_accuracy": _round(rates(confusion(truth, predicted))["balanced_accuracy"])}
    if resamples:
        interval = bootstrap(truth, predicted, [float(p) for p in predicted], resamples)["balanced_accuracy"]
        out["interval_95"] = [round(v, 4) for v in interval] if interval else None
    return out


def choose(rows: list[Response], target: float, tau: float) -> tuple[float, float]:
    """The band on the grid around the entailment threshold `tau` (lower <= tau < upper: the claims the
    model is least sure of, not any slice of them) that defers at most `target` of the claims with the
    best balanced accuracy on the sure responses (ties: fewer claims deferred, then the narrower band)."""
    best, key = (0.0, 0.0), None
    for lower in GRID:
        for upper in GRID:
            if not lower <= tau < upper:
                continue
            m = measure(rows, lower, upper)
            if m["claims_deferred"] is None or m["claims_deferred"] > target or m["balanced_accuracy"] is None:
                continue
            k = (m["balanced_accuracy"], -m["claims_deferred"], lower - upper)
            if key is None or k > key:
                best, key = (lower, upper), k
    return best


def report(rows: list[Response], sets: list[str], resamples: int, tau: float) -> dict:
    calibration = [r for r in rows if r.half == "calibration"]
    held_out = [r for r in rows if r.half == "report"]
    table = [{"target": 0.0, "band": None, "calibration": measure(calibration, 0, 0),
              "report": measure(held_out, 0, 0, resamples),
              "sets": {s: measure([r for r in held_out if r.set_name == s], 0, 0) for s in sets}}]
    for target in TARGETS:
        lower, upper = choose(calibration, target, tau)
        table.append({"target": target, "band": [lower, upper], "calibration": measure(calibration, lower, upper),
                      "report": measure(held_out, lower, upper, resamples),
                      "sets": {s: measure([r for r in held_out if r.set_name == s], lower, upper) for s in sets}})
    return {"rows": table}


def _round(value):
    return None if value is None else round(value, 4)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m groundwatch.evaluation.judge_coverage",
                                description=__doc__.splitlines()[0])
    p.add_argument("--dir", default="build/judge", help="folder of SET.jsonl and SET-verdicts.jsonl")
    p.add_argument("--sets", default="wice,begin,qags,halueval", help="comma list of set names")
    p.add_argument("--resamples", type=int, default=1000, help="bootstrap resamples of the report half")
    p.add_argument("--note", default="", help="how the records were sampled, kept in the output")
    p.add_argument("-o", "--output", help="JSON report to write (default: stdout only)")
    args = p.parse_args(argv)
    sets = [s for s in args.sets.split(",") if s]
    config = ScorerConfig()
    rows = responses(Path(args.dir), sets, Thresholds.from_config(config))
    result = {"sets": sets, "note": args.note, "resamples": args.resamples,
              "scorer": {"tau_entailment": config.tau_entailment, "tau_contradiction": config.tau_contradiction,
                         "threshold_mode": config.threshold_mode},
              "halves": {h: {s: sum(1 for r in rows if r.half == h and r.set_name == s) for s in sets}
                         for h in ("calibration", "report")},
              **report(rows, sets, args.resamples, config.tau_entailment)}
    text = json.dumps(result, indent=2)
    print(text)
    if args.output:
        output_path(args.output).write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
