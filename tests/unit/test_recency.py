"""The newer of two disagreeing retrieved passages decides the claim (scorers/evidence/recency.py)."""

from groundwatch.scorers.verdicts.decide import finalise, summarise
from groundwatch.scorers.evidence.recency import SUPERSEDED_CONTRADICTION, superseded
from groundwatch.scorers.records import Check, ClaimVerdict, ContextConflict, Evidence, ResponseVerdict, Verdict
from groundwatch.scorers.schema import parse_response
from groundwatch.scorers.verdicts.thresholds import Thresholds

T = Thresholds(0.65, 0.90)
OLD, NEW = "2024-05-10", "2026-07-01"


def response(old=OLD, new=NEW):
    return parse_response({"request_id": "r", "answer": "x", "passages": [
        {"id": "old", "text": "The API allows 300 requests per minute.", "updated_at": old},
        {"id": "new", "text": "The API allows 600 requests per minute.", "updated_at": new}]})


def resolve_by_recency(v, r, thresholds):
    """Recency's input to the one decision, then the decision (as the scorer runs them)."""
    finalise(v, list(r.passages), superseded(v, r, thresholds))


def chunk(pid, e, c):
    return Evidence([pid], [(0, 10)], e, round(1 - e - c, 4), c, 0.7, "chunk")


def verdict(claim_verdict, evidence, checks=(), conflicts=True):
    claim = ClaimVerdict(0, "The API allows 600 requests per minute.", (0, 10), "high", claim_verdict,
                         evidence=evidence, checks=list(checks))
    v = ResponseVerdict("r", "v", "m", "now", None, {}, summarise([claim], []), [claim])
    if conflicts:
        v.context_conflicts = [ContextConflict(["new", "old"], ["a", "b"], 0.95, 0)]
    return v


def test_a_contradiction_from_the_superseded_passage_gives_way_to_the_newer_one():
    v = verdict(Verdict.CONTRADICTED, [chunk("old", 0.02, 0.95), chunk("new", 0.93, 0.01)])
    resolve_by_recency(v, response(), T)
    assert v.claims[0].verdict is Verdict.SUPPORTED and SUPERSEDED_CONTRADICTION in v.claims[0].flags
    assert v.response.all_supported


def test_support_from_the_older_passage_stays():
    # Two leaflets about different medicines look like two versions of one: support is not withdrawn.
    v = verdict(Verdict.SUPPORTED, [chunk("old", 0.95, 0.01), chunk("new", 0.10, 0.40)])
    resolve_by_recency(v, response(), T)
    assert v.claims[0].verdict is Verdict.SUPPORTED and not v.claims[0].flags


def test_left_alone():
    # the newer passage contradicts: stays CONTRADICTED
    v = verdict(Verdict.CONTRADICTED, [chunk("old", 0.95, 0.01), chunk("new", 0.02, 0.95)])
    resolve_by_recency(v, response(), T)
    assert v.claims[0].verdict is Verdict.CONTRADICTED
    # the newer passage supports: stays SUPPORTED
    v = verdict(Verdict.SUPPORTED, [chunk("old", 0.10, 0.95), chunk("new", 0.95, 0.01)])
    resolve_by_recency(v, response(), T)
    assert v.claims[0].verdict is Verdict.SUPPORTED and not v.claims[0].flags
    # no disagreement recorded, undated passages, equal dates, or a failed check: nothing changes
    flip = [chunk("old", 0.02, 0.95), chunk("new", 0.93, 0.01)]
    for v, r in [(verdict(Verdict.CONTRADICTED, flip, conflicts=False), response()),
                 (verdict(Verdict.CONTRADICTED, flip), response(old=None)),
                 (verdict(Verdict.CONTRADICTED, flip), response(old=NEW)),
                 (verdict(Verdict.CONTRADICTED, [chunk("old", 0.02, 0.95), chunk("new", 0.93, 0.01)],
                          [Check("numbers", False, "600")]), response())]:
        before = v.claims[0].verdict
        resolve_by_recency(v, r, T)
        assert v.claims[0].verdict is before and not v.claims[0].flags


def test_recency_reads_the_judges_answer_and_only_marks_the_claim():
    # The judge answered CONTRADICTED on a claim the model supported: recency weighs the judge's answer.
    v = verdict(Verdict.SUPPORTED, [chunk("old", 0.02, 0.95), chunk("new", 0.93, 0.01)])
    v.claims[0].judge = {"outcome": "judged", "verdict": "CONTRADICTED", "small_model_verdict": "SUPPORTED"}
    assert superseded(v, response(), T) == {0}
    assert v.claims[0].verdict is Verdict.SUPPORTED and not v.claims[0].flags  # nothing decided yet
    finalise(v, list(response().passages), {0})
    assert v.claims[0].flags == ["judge_overruled", SUPERSEDED_CONTRADICTION]
    assert v.claims[0].verdict is Verdict.SUPPORTED
