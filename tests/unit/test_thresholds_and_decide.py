import math

import pytest

from groundwatch.scorers.verdicts.decide import decide, summarise
from groundwatch.scorers.records import Check, ClaimVerdict, Evidence, Verdict
from groundwatch.scorers.schema import Passage
from groundwatch.scorers.verdicts.thresholds import Thresholds


def ev(e, c, rs=0.8, kind="chunk", pid="p1"):
    return Evidence([pid], [(0, 10)], e, max(0.0, 1 - e - c), c, rs, kind)


def test_static_thresholds_ignore_retrieval_score():
    t = Thresholds(0.75, 0.70)
    assert t.entailment(0.0) == t.entailment(1.0) == 0.75


def test_tiered():
    t = Thresholds(0.75, 0.70, "tiered", pivot=0.5)
    assert t.entailment(0.2) == pytest.approx(0.85) and t.entailment(0.8) == pytest.approx(0.65)


def test_sqrt_interpolates_from_strict_to_lenient():
    t = Thresholds(0.75, 0.70, "sqrt")
    assert t.entailment(0.0) == pytest.approx(0.85)
    assert t.entailment(1.0) == pytest.approx(0.65)
    assert t.entailment(0.25) == pytest.approx(0.85 - 0.2 * math.sqrt(0.25))


def test_sigmoid_is_centred_on_the_pivot():
    t = Thresholds(0.75, 0.70, "sigmoid", pivot=0.5, steepness=10)
    assert t.entailment(0.5) == pytest.approx(0.75)
    assert t.entailment(0.0) > 0.84 and t.entailment(1.0) < 0.66
    assert t.contradiction(0.5) == pytest.approx(0.70)


def test_unknown_mode_is_rejected():
    with pytest.raises(ValueError, match="threshold mode"):
        Thresholds(mode="cubic")


T = Thresholds(0.75, 0.70)


def test_contradiction_is_checked_first():
    verdict, _ = decide([ev(0.72, 0.0), ev(0.1, 0.9, pid="p2")], [], T)
    assert verdict is Verdict.CONTRADICTED


def test_contradiction_must_exceed_entailment():
    verdict, flags = decide([ev(0.95, 0.0), ev(0.0, 0.8, pid="p2")], [], T)
    assert verdict is Verdict.SUPPORTED and "conflicting_evidence" in flags


def test_each_premise_meets_the_threshold_of_its_own_retrieval_score():
    # ex-022: the pair holding the well-retrieved chunk has a weak joint score (strict bar 0.99),
    # the chunk alone contradicts at 0.973 against its own, lower bar.
    t = Thresholds(0.65, 0.90, "sigmoid", pivot=0.6)
    chunk, pair = ev(0.006, 0.973, rs=0.49), ev(0.005, 0.987, rs=0.17, kind="pair")
    assert t.contradiction(0.17) > 0.987 > 0.973 > t.contradiction(0.49)
    assert decide([pair, chunk], [], t)[0] is Verdict.CONTRADICTED
    assert decide([pair], [], t)[0] is Verdict.NOT_ENOUGH_INFO
    weak, strong = ev(0.70, 0.0, rs=0.1), ev(0.60, 0.0, rs=0.9)
    assert t.entailment(0.1) > 0.70 and t.entailment(0.9) < 0.60
    assert decide([weak, strong], [], t)[0] is Verdict.SUPPORTED


def test_supported_and_not_enough_info():
    assert decide([ev(0.8, 0.1)], [], T)[0] is Verdict.SUPPORTED
    assert decide([ev(0.5, 0.3)], [], T)[0] is Verdict.NOT_ENOUGH_INFO
    assert decide([], [], T) == (Verdict.NOT_ENOUGH_INFO, ["no_evidence"])


def test_failed_check_caps_supported():
    verdict, flags = decide([ev(0.99, 0.0)], [Check("numbers", False, "60")], T)
    assert verdict is Verdict.NOT_ENOUGH_INFO
    assert "capped_by_check" in flags and "failed_numbers" in flags


def test_a_claim_only_a_concatenation_entails_is_supported_without_a_multi_hop_flag():
    # The multi_hop flag was removed (issue 12): it predicted neither the data's multi-hop label
    # (AUROC 0.51-0.54 on WiCE + HaluEval) nor anything else it claimed to mean.
    verdict, flags = decide([ev(0.3, 0.0), ev(0.4, 0.0, pid="p2"), ev(0.9, 0.0, kind="pair")], [], T)
    assert verdict is Verdict.SUPPORTED and flags == []


def claim(verdict, e, severity="normal"):
    return ClaimVerdict(0, "x", (0, 1), severity, verdict, entailment=e)


def test_response_summary():
    claims = [claim(Verdict.SUPPORTED, 0.9), claim(Verdict.NOT_ENOUGH_INFO, 0.3, "high"),
              claim(Verdict.SKIPPED, 0.0)]
    s = summarise(claims, [Passage(id="a", text="t", score=0.9), Passage(id="b", text="t", score=0.5)])
    assert not s.all_supported and s.score == 0.3 and s.high_severity_unsupported == 1
    assert s.counts["SKIPPED"] == 1 and s.counts["SUPPORTED"] == 1
    assert s.retrieval["top"] == 0.9 and s.retrieval["mean"] == pytest.approx(0.7)
    assert s.retrieval["variance"] == pytest.approx(0.04)


def test_skipped_claims_never_veto():
    s = summarise([claim(Verdict.SUPPORTED, 0.9), claim(Verdict.SKIPPED, 0.0)], [])
    assert s.all_supported and s.score == 0.9 and s.retrieval["top"] is None


def test_a_guard_alone_caps_but_never_convicts():
    # a guard's own verdict does not count: a polarity mismatch is a reason to doubt, not a contradiction
    polarity = Check("polarity", False, "evidence negates", "CONTRADICTED", "polarity_mismatch")
    verdict, flags = decide([ev(0.97, 0.0)], [polarity], T)
    assert verdict is Verdict.NOT_ENOUGH_INFO
    assert "contradicted_by_check" not in flags and "capped_by_check" in flags and "polarity_mismatch" in flags
    wrong_sum = Check("arithmetic", False, "claim says 40 seats, but 5 + 30 = 35", "CONTRADICTED",
                      "arithmetic_mismatch", found={"claimed": "40 seats"})
    assert decide([ev(0.97, 0.0)], [wrong_sum], T)[0] is Verdict.NOT_ENOUGH_INFO


def test_a_verified_mismatch_convicts():
    converted = Check("arithmetic", False, "claim says 150 days, but 20 weeks = 140 days", "CONTRADICTED",
                      "arithmetic_mismatch", found={"mismatch": {"claimed": "150 days", "stated": "20 weeks"}})
    verdict, flags = decide([ev(0.97, 0.0)], [converted], T)
    assert verdict is Verdict.CONTRADICTED
    assert "contradicted_by_check" in flags and "arithmetic_mismatch" in flags and "failed_arithmetic" in flags


def test_a_guard_that_caps_leaves_an_nli_contradiction_alone():
    dropped = Check("dropped_condition", False, "Enterprise customers", "NOT_ENOUGH_INFO", "dropped_condition")
    assert decide([ev(0.96, 0.0)], [dropped], T)[0] is Verdict.NOT_ENOUGH_INFO
    assert decide([ev(0.0, 0.95)], [dropped], T)[0] is Verdict.CONTRADICTED
    assert decide([ev(0.96, 0.0)], [Check("polarity", True, "same polarity")], T)[0] is Verdict.SUPPORTED


def test_the_models_contradiction_on_the_flagged_sentence_convicts():
    from groundwatch.scorers.guards.evidence import EvidenceSentence

    flagged = EvidenceSentence("p1", 40, 80, "Glasses are not covered by the plan.")
    polarity = Check("polarity", False, "evidence negates", "NOT_ENOUGH_INFO", "polarity_mismatch", flagged)
    chunk = ev(0.9, 0.05)                                                   # the chunk (offsets 0-10) entails
    sentence = Evidence(["p1"], [(40, 80)], 0.2, 0.1, 0.7, 0.8, "sentence")  # the model contradicts the sentence
    verdict, flags = decide([chunk, sentence], [polarity], T)
    assert verdict is Verdict.CONTRADICTED and "contradicted_on_flagged_sentence" in flags
    # the same sentence contradicted by the model, but no guard flagged it: a sentence never contradicts alone
    assert decide([chunk, sentence], [], T)[0] is Verdict.SUPPORTED
    # the guard flagged it, but the model reads it as neutral: capped only
    neutral = Evidence(["p1"], [(40, 80)], 0.2, 0.5, 0.3, 0.8, "sentence")
    assert decide([chunk, neutral], [polarity], T)[0] is Verdict.NOT_ENOUGH_INFO
