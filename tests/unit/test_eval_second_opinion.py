"""Eval reads a second opinion's verdict: a claim the larger model re-scored keeps the verdict the run gave it."""

from groundwatch.evaluation.scored import StoredClaim, Variant, claim_decision
from groundwatch.scorers.records import Verdict
from groundwatch.scorers.verdicts.thresholds import Thresholds

# The small model's premise reads contradiction; the larger model re-read it and supported the claim.
RECORD = {"verdict": "SUPPORTED", "text": "The update is not mandatory.", "flags": ["second_opinion_overruled"],
          "evidence": [{"passage_ids": ["p1"], "offsets": [[0, 34]], "entailment": 0.02, "neutral": 0.01,
                        "contradiction": 0.97, "retrieval_score": 0.8}]}
RESCORED = {"model": "mpnet@abc", "reason": "contradicted", "small_model_verdict": "CONTRADICTED",
            "outcome": "rescored", "verdict": "SUPPORTED", "entailment": 0.91, "contradiction": 0.03}
VARIANT = Variant(Thresholds(0.7, 0.95))


def test_a_rescored_claim_keeps_the_verdict_of_the_run():
    claim = StoredClaim.from_dict({**RECORD, "second_opinion": RESCORED})
    assert claim_decision(claim, VARIANT) == (Verdict.SUPPORTED, ["second_opinion_overruled"], 0.91)


def test_without_a_decisive_second_opinion_the_small_model_s_scores_decide():
    for second_opinion in (None, {**RESCORED, "outcome": "failed", "verdict": None}):
        claim = StoredClaim.from_dict({**RECORD, "second_opinion": second_opinion})
        assert claim.second_opinion is None
        assert claim_decision(claim, VARIANT)[0] is Verdict.CONTRADICTED
