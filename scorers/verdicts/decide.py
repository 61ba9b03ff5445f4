"""Where a claim's verdict is decided, and the response summary computed: the only module that does either.

`decide` reads the model's scores and the checks (the guards' caps among them): the small model's
verdict, and the larger model's where the second opinion re-read a claim. `finalise` takes those, the
judge's answer (when the judge is enabled and answered) and recency (a contradiction the newer source
overrules) and decides each claim's verdict once, then the response summary once; nothing rewrites a
verdict after it. tests/unit/test_one_decision.py holds
every other module to that."""

from __future__ import annotations

import statistics

from groundwatch.scorers.guards.mismatch import verified
from groundwatch.scorers.records import Check, ClaimVerdict, Evidence, ResponseSummary, ResponseVerdict, Verdict
from groundwatch.scorers.schema import Passage
from groundwatch.scorers.verdicts.thresholds import Thresholds


def decide(evidence: list[Evidence], checks: list[Check], thresholds: Thresholds,
           supported: bool | None = None) -> tuple[Verdict, list[str]]:
    """Contradiction first, then entailment; failed checks cap the verdict (docs/verdict-rule.md).

    CONTRADICTED needs the model's contradiction: on a premise, above its threshold and beating the best
    entailment; or on the very sentence a failed guard flagged (its most likely label there). Or a failed
    check that carries a verified mismatch (scorers/guards/mismatch.py). Any other failed check, a guard's
    included whatever verdict it names, turns SUPPORTED into NOT_ENOUGH_INFO and convicts nothing. A failed
    "readable" check (the model could not read the claim) also takes back the model's own CONTRADICTED.
    Under a two-way model (`thresholds.model_contradicts` False) the verified mismatch is the only way."""
    flags: list[str] = []
    if not evidence:
        verdict = Verdict.NOT_ENOUGH_INFO
        flags.append("no_evidence")
    else:
        # Each premise is held to the threshold of its own retrieval score: a weakly retrieved pair
        # must not raise the bar for the well-retrieved chunk that carries the same evidence.
        best_e = max(evidence, key=lambda e: e.entailment)
        # A sentence premise (scorers/evidence/sentence_premise.py) may support, never contradict on its own.
        # A two-way model (thresholds.model_contradicts False) can say unsupported, never contradicted.
        contradicting = [e for e in evidence if thresholds.model_contradicts and e.kind != "sentence"
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
    unread = any(c.name == "readable" and not c.passed for c in checks)
    if unread and verdict is Verdict.CONTRADICTED:
        verdict = Verdict.NOT_ENOUGH_INFO  # the model's reading of a claim it could not read convicts nothing
    if verdict is not Verdict.CONTRADICTED and any(not c.passed and verified(c.found) for c in checks):
        verdict = Verdict.CONTRADICTED
        flags.append("contradicted_by_check")
    elif verdict is not Verdict.CONTRADICTED and thresholds.model_contradicts and not unread and any(
            not c.passed and c.name in GUARDS and _model_contradicts(c, evidence) for c in checks):
        verdict = Verdict.CONTRADICTED
        flags.append("contradicted_on_flagged_sentence")
    failed = [c.name for c in checks if not c.passed]
    if failed and verdict is Verdict.SUPPORTED:
        verdict = Verdict.NOT_ENOUGH_INFO
        flags.append("capped_by_check")
    flags.extend(f"failed_{name}" for name in failed)
    flags.extend(dict.fromkeys(c.flag for c in checks if not c.passed and c.flag))
    return verdict, flags


GUARDS = frozenset({"polarity", "dropped_condition", "arithmetic"})


def _model_contradicts(check: Check, evidence: list[Evidence]) -> bool:
    """The model reads contradiction (its most likely label) on a single-passage premise that is, or holds,
    the sentence the guard flagged: the guard says where to look, the model says what it finds there."""
    s = check.evidence
    if s is None:
        return False
    return any(len(e.passage_ids) == 1 and e.passage_ids[0] == s.passage_id
               and e.offsets[0][0] <= s.start and s.end <= e.offsets[0][1]
               and e.contradiction > max(e.entailment, e.neutral) for e in evidence)


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


# The judge's outcomes that carry its answer (scorers/verdicts/judge/judge.py); any other keeps the model's verdict.
JUDGE_ANSWERED = frozenset({"judged", "cached"})
SUPERSEDED_CONTRADICTION = "superseded_contradiction"


SECOND_OPINION_ANSWERED = "rescored"


def _model_verdict(claim: ClaimVerdict) -> Verdict:
    """The models' verdict: the larger model's where it re-read the claim (scorers/verdicts/second_opinion.py),
    else the small model's."""
    second = claim.second_opinion
    if second and second.get("outcome") == SECOND_OPINION_ANSWERED:
        return Verdict(second["verdict"])
    if second:
        return Verdict(second["small_model_verdict"])
    return Verdict(claim.judge["small_model_verdict"]) if claim.judge else claim.verdict


def _judge_answer(claim: ClaimVerdict) -> Verdict | None:
    """The judge's answer, capped: a failed check keeps SUPPORTED at NOT_ENOUGH_INFO whoever decides."""
    if not claim.judge or claim.judge.get("outcome") not in JUDGE_ANSWERED:
        return None
    answer = Verdict(claim.judge["verdict"])
    if answer is Verdict.SUPPORTED and any(not c.passed for c in claim.checks):
        return Verdict.NOT_ENOUGH_INFO
    return answer


def judged(claim: ClaimVerdict) -> Verdict:
    """The model's verdict with the judge's answer in, before recency: what the signals and recency read
    (stale evidence, corpus lookups) while `finalise` has not yet run."""
    answer = _judge_answer(claim)
    return _model_verdict(claim) if answer is None else answer


def finalise(verdict: ResponseVerdict, passages: list[Passage], superseded: set[int] = frozenset()) -> None:
    """Each claim's verdict once, from its inputs, then the response summary once (in place).

    Inputs: the model's verdict (decide, on the record until now), the larger model's in
    `claim.second_opinion` where it re-read the claim, the judge's answer in `claim.judge`, and
    `superseded`, the indexes of claims whose contradiction recency overrules
    (scorers/evidence/recency.py: only a claim whose judged verdict is CONTRADICTED qualifies)."""
    for claim in verdict.claims:
        if not claim.scored:
            continue
        model, answer = _model_verdict(claim), _judge_answer(claim)
        final = model
        if claim.second_opinion and model.value != claim.second_opinion["small_model_verdict"] \
                and "second_opinion_overruled" not in claim.flags:
            claim.flags.append("second_opinion_overruled")
        if answer is not None:
            if answer is Verdict.NOT_ENOUGH_INFO and claim.judge["verdict"] == Verdict.SUPPORTED.value \
                    and "capped_by_check" not in claim.flags:
                claim.flags.append("capped_by_check")
            if answer is not model:
                claim.flags.append("judge_overruled")
            final = answer
        if claim.index in superseded and final is Verdict.CONTRADICTED:
            final = Verdict.SUPPORTED
            claim.flags.append(SUPERSEDED_CONTRADICTION)
        claim.verdict = final
    verdict.response = summarise(verdict.claims, passages)
