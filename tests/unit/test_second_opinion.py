"""The second opinion: which claims the larger model re-reads, what its reading decides, and what it never touches.

The "larger" model here is the tiny random model with its labels read in reverse order: the same pairs get
other scores, deterministically, without weights."""

import json

import pytest
from pydantic import ValidationError

from groundwatch.config.scorer import ScorerConfig
from groundwatch.scorers.errors import ModelLoadError
from groundwatch.scorers.nli.factory import load_backend
from groundwatch.scorers.pipeline import Scorer
from groundwatch.scorers.records import Check, ClaimVerdict, Evidence, ResponseVerdict, Verdict
from groundwatch.scorers.schema import parse_response
from groundwatch.scorers.verdicts.decide import decide, finalise
from groundwatch.scorers.verdicts.second_opinion import escalation, load_second_opinion
from groundwatch.scorers.verdicts.thresholds import Thresholds
from groundwatch.scorers.version import scorer_version
from tests.tiny_models import tiny_bert_checkpoint, tiny_roberta_grounding_checkpoint

STATIC = Thresholds(tau_entailment=0.7, tau_contradiction=0.9, mode="static")
RESPONSES = [{
    "request_id": f"r-{n}",
    "answer": "Refunds are available for up to 60 days [p1]. Orders ship within 2 business days. "
              "The office is closed on Sundays. Shipping fees are refundable.",
    "passages": [
        {"id": "p1", "text": "Refunds are available within 30 days of purchase. Enterprise customers may request "
                             "an extension to 60 days, subject to approval by their account manager.", "score": 0.8},
        {"id": "p2", "text": f"Shipping fees are non-refundable. Orders ship within {n} business days. The office "
                             "is open on Sundays.", "score": 0.6},
    ],
} for n in (2, 3, 5)]


def _evidence(e: float, c: float, rs: float = 0.8) -> Evidence:
    return Evidence(["p1"], [(0, 10)], e, round(1 - e - c, 4), c, rs, "chunk", 0)


def _claim(verdict: Verdict, *evidence: Evidence, flags=(), checks=()) -> ClaimVerdict:
    return ClaimVerdict(0, "claim", (0, 5), "low", verdict, entailment=max((x.entailment for x in evidence), default=0),
                        contradiction=max((x.contradiction for x in evidence), default=0), evidence=list(evidence),
                        checks=list(checks), flags=list(flags))


# -- the escalation rule ---------------------------------------------------------------------------------

def test_every_claim_about_to_be_contradicted_is_escalated_but_a_verified_mismatch_is_not():
    model = _claim(decide([_evidence(0.01, 0.97)], [], STATIC)[0], _evidence(0.01, 0.97))
    assert model.verdict is Verdict.CONTRADICTED
    assert escalation(model, STATIC, 0.15) == "contradicted"
    assert escalation(model, STATIC, 0.0) == "contradicted"
    mismatch = _claim(Verdict.CONTRADICTED, _evidence(0.9, 0.05), flags=["contradicted_by_check"])
    assert escalation(mismatch, STATIC, 0.15) is None


def test_the_uncertain_band_is_the_margin_around_each_premises_entailment_threshold():
    assert escalation(_claim(Verdict.NOT_ENOUGH_INFO, _evidence(0.56, 0.1)), STATIC, 0.15) == "uncertain"
    assert escalation(_claim(Verdict.SUPPORTED, _evidence(0.84, 0.1)), STATIC, 0.15) == "uncertain"
    assert escalation(_claim(Verdict.NOT_ENOUGH_INFO, _evidence(0.54, 0.1)), STATIC, 0.15) is None
    assert escalation(_claim(Verdict.SUPPORTED, _evidence(0.86, 0.1)), STATIC, 0.15) is None
    assert escalation(_claim(Verdict.NOT_ENOUGH_INFO, _evidence(0.69, 0.1)), STATIC, 0.0) is None  # margin 0: no band
    # tiered thresholds: a weakly retrieved premise is held to the strict bar (0.8), a well retrieved one to 0.6
    tiered = Thresholds(tau_entailment=0.7, tau_contradiction=0.9, mode="tiered")
    assert escalation(_claim(Verdict.NOT_ENOUGH_INFO, _evidence(0.9, 0.0, rs=0.2)), tiered, 0.15) == "uncertain"
    assert escalation(_claim(Verdict.SUPPORTED, _evidence(0.9, 0.0, rs=0.8)), tiered, 0.15) is None


def test_skipped_and_unevidenced_claims_are_never_escalated():
    assert escalation(_claim(Verdict.SKIPPED), STATIC, 0.5) is None
    assert escalation(_claim(Verdict.NOT_ENOUGH_INFO), STATIC, 0.5) is None


# -- what the larger model's reading decides (finalise) ----------------------------------------------------------

def _finalised(claim: ClaimVerdict) -> ClaimVerdict:
    verdict = ResponseVerdict("r", "v", "m", "t", None, {}, None, [claim])
    finalise(verdict, [])
    return verdict.claims[0]


def _second(claim: ClaimVerdict, outcome: str, verdict: Verdict | None) -> ClaimVerdict:
    claim.second_opinion = {"model": "big@1", "reason": "contradicted", "outcome": outcome,
                            "verdict": verdict.value if verdict else None, "small_model_verdict": claim.verdict.value}
    return claim


def test_contradicted_needs_the_larger_models_contradiction():
    acquitted = _finalised(_second(_claim(Verdict.CONTRADICTED, _evidence(0.01, 0.97)), "rescored",
                                   Verdict.NOT_ENOUGH_INFO))
    assert acquitted.verdict is Verdict.NOT_ENOUGH_INFO and "second_opinion_overruled" in acquitted.flags
    upheld = _finalised(_second(_claim(Verdict.CONTRADICTED, _evidence(0.01, 0.97)), "rescored", Verdict.CONTRADICTED))
    assert upheld.verdict is Verdict.CONTRADICTED and "second_opinion_overruled" not in upheld.flags


def test_a_failed_second_opinion_keeps_the_small_models_verdict_and_finalise_can_run_twice():
    claim = _finalised(_second(_claim(Verdict.CONTRADICTED, _evidence(0.01, 0.97)), "failed", None))
    assert claim.verdict is Verdict.CONTRADICTED
    claim = _second(_claim(Verdict.CONTRADICTED, _evidence(0.01, 0.97)), "rescored", Verdict.SUPPORTED)
    assert _finalised(_finalised(claim)).verdict is Verdict.SUPPORTED
    assert claim.flags.count("second_opinion_overruled") == 1


def test_the_larger_models_reading_keeps_the_claims_checks():
    capped = _claim(Verdict.NOT_ENOUGH_INFO, _evidence(0.6, 0.1), checks=[Check("quote", False, "not found")])
    assert decide([_evidence(0.99, 0.0)], capped.checks, STATIC)[0] is Verdict.NOT_ENOUGH_INFO


# -- the pipeline, with the tiny models -------------------------------------------------------------------

@pytest.fixture(scope="module")
def larger(tmp_path_factory):
    """The tiny model with its labels in reverse: other scores for the same pairs."""
    from groundwatch.training.model_export.onnx_export import export_checkpoint

    checkpoint = tiny_bert_checkpoint(tmp_path_factory.mktemp("tiny-reversed"),
                                      {0: "contradiction", 1: "neutral", 2: "entailment"})
    return export_checkpoint(checkpoint, tmp_path_factory.mktemp("tiny-reversed-onnx"), precision="fp32")


def _score(config: ScorerConfig, **kwargs) -> tuple[list, Scorer]:
    scorer = Scorer.from_config(config, **kwargs)
    try:
        return scorer.score([parse_response(r) for r in RESPONSES]), scorer
    finally:
        scorer.close()


def _without_version(verdict: ResponseVerdict) -> dict:
    record = verdict.to_dict()
    return {k: v for k, v in record.items() if k not in ("scorer_version", "scored_at")}


def test_off_by_default_records_and_version_are_as_without_the_setting(tiny_onnx):
    base = ScorerConfig(model_dir=str(tiny_onnx), use_embeddings=False)
    assert base.second_opinion is None
    assert scorer_version(base.model_copy(update={"second_opinion_margin": 0.3}), "m") == scorer_version(base, "m")
    verdicts, scorer = _score(base)
    assert scorer.second_opinion is None
    assert all("second_opinion" not in c for v in verdicts for c in v.to_dict()["claims"])


def test_escalated_claims_are_decided_by_the_larger_models_scores_and_the_rest_as_before(tiny_onnx, larger):
    base = ScorerConfig(model_dir=str(tiny_onnx), use_embeddings=False)
    small, _ = _score(base)
    both, scorer = _score(base.model_copy(update={"second_opinion": str(larger), "second_opinion_margin": 0.5}))
    assert both[0].scorer_version != small[0].scorer_version
    reader = load_backend(larger, "onnx")
    thresholds = scorer.thresholds
    escalated = 0
    for before, after in zip(small, both):
        for b, a in zip(before.claims, after.claims):
            reason = escalation(b, thresholds, 0.5)
            if reason is None:
                assert a.second_opinion is None and a.to_dict() == b.to_dict()
                continue
            escalated += 1
            record = a.second_opinion
            assert record["reason"] == reason and record["outcome"] == "rescored"
            assert record["small_model_verdict"] == b.verdict.value
            # the larger model's own scores of the same premises, read by the same rule with the same checks
            premises = {c.rank: c for c in b.evidence}
            pairs = [(_premise(after, e), scorer.pairs.rewrite(a.text)) for e in premises.values()]
            scores = reader.predict([(scorer.pairs.rewrite(p), h) for p, h in pairs])
            mine = [Evidence(e.passage_ids, e.offsets, round(s.entailment, 4), round(s.neutral, 4),
                             round(s.contradiction, 4), e.retrieval_score, e.kind, e.rank)
                    for e, s in zip(premises.values(), scores)]
            assert record["verdict"] == decide(mine, b.checks, thresholds)[0].value
            assert a.verdict.value == record["verdict"]
    counts = scorer.second_opinion.counts
    assert 0 < escalated == sum(n for k, n in counts.items() if k != "claims")
    assert scorer.second_opinion.share_escalated() == escalated / counts["claims"]
    json.dumps([v.to_dict() for v in both])


def _premise(verdict: ResponseVerdict, e: Evidence) -> str:
    passages = {p["id"]: p["text"] for p in verdict.passages}
    return " ".join(passages[pid][start:end] for pid, (start, end) in zip(e.passage_ids, e.offsets))


def test_a_failed_second_opinion_batch_fails_only_its_own_pairs(tiny_onnx, larger):
    config = ScorerConfig(model_dir=str(tiny_onnx), use_embeddings=False, second_opinion=str(larger),
                          second_opinion_margin=0.5, max_batch_size=1)
    opinion = load_second_opinion(config, Thresholds.from_config(config))
    real = opinion.backend.infer

    def infer(batch):
        if any("3 business days" in e.pair[0] and "ship" in e.pair[1] for e in batch):
            raise RuntimeError("the larger model failed")
        return real(batch)

    opinion.backend.infer = infer
    verdicts, scorer = _score(config, second_opinion=opinion)
    records = [(v.request_id, c) for v in verdicts for c in v.claims if c.second_opinion]
    failed = [(rid, c) for rid, c in records if c.second_opinion["outcome"] == "failed"]
    assert failed and all(rid == "r-3" and "ship" in c.text for rid, c in failed)
    for _, c in failed:
        assert c.verdict.value == c.second_opinion["small_model_verdict"]
        assert c.second_opinion["error"] == "RuntimeError"
    assert any(c.second_opinion["outcome"] == "rescored" for _, c in records)


# -- settings ----------------------------------------------------------------------------------------------

def test_the_margin_is_bounded():
    with pytest.raises(ValidationError):
        ScorerConfig(second_opinion_margin=0.6)
    with pytest.raises(ValidationError):
        ScorerConfig(second_opinion_margin=-0.1)


def test_settings_errors_are_one_line(monkeypatch):
    from groundwatch.config.settings import load_settings
    from groundwatch.config.settings_check import SettingsError

    monkeypatch.setenv("GROUNDWATCH_SCORER__SECOND_OPINION_MARGIN", "0.9")
    with pytest.raises(SettingsError) as err:
        load_settings()
    assert str(err.value) == "GROUNDWATCH_SCORER__SECOND_OPINION_MARGIN: Input should be less than or equal to 0.5"


def test_a_missing_or_two_way_model_is_refused_in_one_line(tmp_path, tiny_onnx):
    with pytest.raises(ModelLoadError) as err:
        Scorer.from_config(ScorerConfig(model_dir=str(tiny_onnx), use_embeddings=False,
                                        second_opinion=str(tmp_path / "nowhere")))
    assert str(err.value).startswith("scorer.second_opinion: ") and "\n" not in str(err.value)
    from groundwatch.training.model_export.onnx_export import export_checkpoint

    two_way = export_checkpoint(tiny_roberta_grounding_checkpoint(tmp_path / "rb"), tmp_path / "rb-onnx", "fp32",
                                supported_label="1", input_template="{premise}[SEP]{claim}")
    with pytest.raises(ModelLoadError) as err:
        Scorer.from_config(ScorerConfig(model_dir=str(tiny_onnx), use_embeddings=False, second_opinion=str(two_way)))
    assert "two-way" in str(err.value) and "\n" not in str(err.value)
