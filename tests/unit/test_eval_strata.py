"""Strata of `groundwatch eval`: gold_absent marks responses whose gold passage missed a claim's top_k."""

from __future__ import annotations

from groundwatch.evaluation.dataset import Labelled
from groundwatch.evaluation.scored import Scored, StoredClaim, Variant
from groundwatch.evaluation.strata import strata_of
from groundwatch.scorers.records import Evidence, Verdict
from groundwatch.scorers.schema import parse_response
from groundwatch.scorers.verdicts.thresholds import Thresholds


def _scored(gold: list[str] | None, ranked: list[str]) -> Scored:
    response = parse_response({"request_id": "r", "answer": "Refunds take 30 days.", "gold_passage_ids": gold,
                               "passages": [{"id": p, "text": f"Passage {p}."} for p in ("p1", "p2", "p3")]})
    evidence = [Evidence([pid], [(0, 10)], 0.2, 0.7, 0.1, 1.0 / (rank + 1), "chunk", rank)
                for rank, pid in enumerate(ranked)]
    return Scored(Labelled(response, True), [StoredClaim(Verdict.NOT_ENOUGH_INFO, evidence, [], [], "Refunds take 30 days.")])


def test_gold_absent_when_no_claim_premise_holds_the_gold_passage():
    variant = Variant(Thresholds())
    assert "gold_absent" in strata_of(_scored(["p3"], ["p1", "p2"]), variant)
    assert "gold_absent" not in strata_of(_scored(["p2"], ["p1", "p2"]), variant)
    assert "gold_absent" not in strata_of(_scored(None, ["p1"]), variant)  # no gold: no stratum


def test_gold_absent_follows_the_variants_top_k():
    scored = _scored(["p3"], ["p1", "p2", "p3"])
    assert "gold_absent" not in strata_of(scored, Variant(Thresholds()))
    assert "gold_absent" in strata_of(scored, Variant(Thresholds(), top_k=2))
