"""Verdict per claim and the response-level summary."""

from __future__ import annotations

import statistics

from groundwatch.scorers.records import Check, ClaimVerdict, Evidence, ResponseSummary, Verdict
from groundwatch.scorers.schema import Passage
from groundwatch.scorers.thresholds import Thresholds


def decide(evidence: list[Evidence], checks: list[Check], thresholds: Thresholds,
           supported: bool | None = None) -> tuple[Verdict, list[str]]:
    """Contradiction first (NLI, or a guard that imposes it), then entailment; failed checks cap the verdict."""
    flags: list[str] = []
    if not evidence:
        verdict = Verdict.NOT_ENOUGH_INFO
        flags.append("no_evidence")
    else:
        # Each premise is held to the threshold of its own retrieval score: a weakly retrieved pair
        # must not raise the bar for the well-retrieved chunk that carries the same evidence.
        best_e = max(evidence, key=lambda e: e.entailment)
        # A sentence premise (scorers/sentence_premise.py) may support, never contradict on its own.
        contradicting = [e for e in evidence if e.kind != "sentence"
                         and e.contradiction >= thresholds.contradiction(e.retrieval_score)]
        entailing = [e for e in evidence if e.entailment >= thresholds.entailment(e.retrieval_score)]
        if contradicting and max(e.contradiction for e in contradicting) > best_e.entailment:
            verdict = Verdict.CONTRADICTED
        # The combiner (verdict_rule combiner) replaces only this step: contradiction stays first.
        elif bool(entailing) if supported is None else supported:
            verdict = Verdict.SUPPORTED
        else:
            verdict = Verdict.NOT_ENOUGH_INFO
        if any(e is not c for e in entailing for c in contradicting):
            flags.append("conflicting_evidence")
    if verdict is not Verdict.CONTRADICTED and any(
            not c.passed and c.verdict == Verdict.CONTRADICTED.value for c in checks):
        verdict = Verdict.CONTRADICTED
        flags.append("contradicted_by_check")
    failed = [c.name for c in checks if not c.passed]
    if failed and verdict is Verdict.SUPPORTED:
        verdict = Verdict.NOT_ENOUGH_INFO
        flags.append("capped_by_check")
    flags.extend(f"failed_{name}" for name in failed)
    flags.extend(dict.fromkeys(c.flag for c in checks if not c.passed and c.flag))
    return verdict, flags


def retrieval_stats(passages: list[Passage]) -> dict[str, float | None]:
    scores = [p.score for p in passages if p.score is not None]
    if not scores:
        return {"top": None, "mean": None, "variance": None, "n": len(passages)}
    return {"top": max(scores), "mean": statistics.fmean(scores),
            "variance": statistics.pvariance(scores), "n": len(passages)}


def summarise(claims: list[ClaimVerdict], passages: list[Passage]) -> ResponseSummary:
    counts = {v.value: 0 for v in Verdict}
    for c in claims:
        counts[c.verdict.value] += 1
    scored = [c for c in claims if c.scored]
    return ResponseSummary(
        all_supported=all(c.verdict is Verdict.SUPPORTED for c in scored),
        score=min((c.entailment for c in scored), default=1.0),
        counts=counts,
        high_severity_unsupported=sum(1 for c in scored if c.severity == "high" and c.verdict is not Verdict.SUPPORTED),
        retrieval=retrieval_stats(passages),
    )
