"""The scorer version: stable for one scorer, new for another model, combiner or deciding setting."""

from __future__ import annotations

from groundwatch.config.scorer import GuardsConfig, ScorerConfig
from groundwatch.scorers import SCORER_VERSION
from groundwatch.scorers.version import scorer_version
from groundwatch.scorers.identity import document_id

MODEL = "onnx@abc123def456"
COMBINER = {"version": 1, "kind": "logistic_regression", "features": ["max_entailment"], "mean": [0.5],
            "scale": [0.2], "coef": [2.0], "intercept": 0.1, "threshold": 0.5, "model": MODEL}


def test_same_scorer_same_version_and_code_version_in_front():
    a = scorer_version(ScorerConfig(), MODEL)
    assert a == scorer_version(ScorerConfig(), MODEL)
    code, digest = a.split("+")
    assert code == SCORER_VERSION and len(digest) == 10 and int(digest, 16) >= 0


def test_model_and_each_deciding_setting_change_the_version():
    base = scorer_version(ScorerConfig(), MODEL)
    assert scorer_version(ScorerConfig(), "onnx@000000000000") != base
    default = ScorerConfig()
    for changed in (ScorerConfig(tau_entailment=default.tau_entailment + 0.05),
                    ScorerConfig(tau_contradiction=default.tau_contradiction - 0.1),
                    ScorerConfig(threshold_mode="sqrt" if default.threshold_mode != "sqrt" else "static"), ScorerConfig(top_k=8), ScorerConfig(pair_top=4),
                    ScorerConfig(evidence_mode="question"), ScorerConfig(chunk_words=60),
                    ScorerConfig(guards=GuardsConfig(polarity=False)), ScorerConfig(free_checks=False)):
        assert scorer_version(changed, MODEL) != base, changed


def test_operational_settings_leave_the_version_alone():
    base = scorer_version(ScorerConfig(), MODEL)
    for same in (ScorerConfig(max_batch_size=8, threads=2, providers="cpu"), ScorerConfig(store_passages=False),
                 ScorerConfig(batch_deadline_s=30, future_timeout_s=10), ScorerConfig(max_claims=16)):
        assert scorer_version(same, MODEL) == base


def test_combiner_counts_only_under_the_combiner_rule_and_by_content():
    rule = ScorerConfig(verdict_rule="combiner")
    fitted = scorer_version(rule, MODEL, COMBINER)
    assert fitted != scorer_version(ScorerConfig(), MODEL)
    assert fitted != scorer_version(rule, MODEL, dict(COMBINER, threshold=0.6))
    assert scorer_version(ScorerConfig(), MODEL, COMBINER) == scorer_version(ScorerConfig(), MODEL)


def test_the_pipeline_stamps_its_version_on_every_verdict(tiny_onnx):
    from groundwatch.scorers.pipeline import Scorer
    from groundwatch.scorers.schema import parse_response

    scorer = Scorer.from_config(ScorerConfig(model_dir=str(tiny_onnx), use_embeddings=False))
    try:
        [v] = scorer.score([parse_response({"request_id": "r-1", "answer": "Orders ship in 2 days.",
                                            "passages": [{"id": "p1", "text": "Orders ship in 2 days."}]})])
        assert v.scorer_version == scorer.version == scorer_version(scorer.config, scorer.model)
        assert v.content_hash  # the document id also names what was judged (a conflicting duplicate is kept)
        assert v.doc_id == document_id(None, None, "r-1", scorer.version, v.content_hash)
    finally:
        scorer.close()
