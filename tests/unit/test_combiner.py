"""The verdict combiner: features, fitting, the JSON file, the model check and the decision order."""

import json
import random

import numpy as np
import pytest

from groundwatch.config.scorer import ScorerConfig
from groundwatch.evaluation.redecide.combiner_fit import DEFAULT_FEATURES, feature_names, fit_combiner
from groundwatch.evaluation.dataset import Labelled
from groundwatch.evaluation.scored import Scored, StoredClaim, Variant, claim_decision, predict
from groundwatch.scorers.verdicts.combiner import FEATURES, Combiner, CombinerError, claim_features, load_combiner
from groundwatch.scorers.verdicts.decide import decide
from groundwatch.scorers.records import Check, Evidence, Verdict
from groundwatch.scorers.schema import parse_response
from groundwatch.scorers.verdicts.thresholds import Thresholds

THRESHOLDS = Thresholds(0.65, 0.90)
CLAIM = "Alpha beta gamma delta"
FILLER = "zeta eta theta iota kappa lambda"
WORDS = ["alpha", "beta", "gamma", "delta"]


def constant(probability_logit: float, model: str = "tiny@abc123") -> Combiner:
    """A combiner that ignores its features: P(supported) = sigmoid(probability_logit)."""
    n = len(FEATURES)
    return Combiner(FEATURES, (0.0,) * n, (1.0,) * n, (0.0,) * n, probability_logit, 0.5, model)


def synthetic(n: int, seed: int) -> list[Scored]:
    """One-claim responses; supported exactly when entailment + lexical coverage >= 1 (a known rule)."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        covered = rng.randint(0, 4)
        entailment = round(rng.random(), 4)
        text = " ".join(WORDS[:covered] + [FILLER]) + "."
        rid = f"r{seed}-{i}"
        response = parse_response({"request_id": rid, "answer": CLAIM, "passages": [{"id": "p1", "text": text}]})
        supported = entailment + covered / 4 >= 1.0
        evidence = [Evidence(["p1"], [(0, len(text))], entailment, round((1 - entailment) * 0.8, 4),
                             round((1 - entailment) * 0.2, 4), 0.5, "chunk")]
        claim = StoredClaim(Verdict.NOT_ENOUGH_INFO, evidence, [], [], CLAIM)
        out.append(Scored(Labelled(response, not supported, set_name="synthetic"), [claim]))
    return out


@pytest.fixture(scope="module")
def fitted():
    """Fitted on every feature: the rule has to be found among the distractors."""
    return fit_combiner(synthetic(600, 1), Variant(THRESHOLDS), "tiny@abc123", {"input": "synthetic"},
                        features=tuple(FEATURES))


def test_features_are_computed_for_every_name():
    evidence = [Evidence(["p1"], [(0, 26)], 0.8, 0.15, 0.05, 0.7, "chunk"),
                Evidence(["p1", "p2"], [(0, 26), (0, 20)], 0.9, 0.05, 0.05, 0.6, "pair")]
    passages = {"p1": "Marie Curie won in 1903.  ", "p2": "She was born in Warsaw."}
    f = claim_features("Marie Curie won a prize in 1903 in Paris", evidence, [Check("numbers", True)], passages)
    assert set(f) == set(FEATURES)
    assert f["ent_max"] == 0.9 and f["ent_chunk_max"] == 0.8 and f["ent_pair_gain"] == pytest.approx(0.1)
    assert f["num_cov_top"] == 1.0 and f["ent_cov_all"] == pytest.approx(1 / 2)  # Curie found, Paris not
    assert f["passed_numbers"] == 1.0 and f["failed_numbers"] == 0.0 and f["failed_polarity"] == 0.0


def test_a_combiner_fitted_on_synthetic_features_recovers_a_known_rule(fitted):
    test = synthetic(400, 2)
    variant = Variant(THRESHOLDS, combiner=fitted)
    predicted = np.array([predict(s, variant).unsupported for s in test])
    truth = np.array([s.item.unsupported for s in test])
    assert (predicted == truth).mean() >= 0.95
    # The rule is entailment + coverage: those features carry the weight, with positive signs.
    weight = dict(zip(fitted.features, fitted.coef))
    assert weight["lex_cov_top"] > 0.5 and weight["ent_max"] + weight["ent_mean"] + weight["ent_max_logit"] > 0.5
    assert max(abs(w) for n, w in weight.items() if n.startswith(("rs_", "claim_words"))) < 0.5


def test_the_default_feature_set_recovers_it_too_and_is_what_the_file_lists(tmp_path):
    fitted = fit_combiner(synthetic(600, 1), Variant(THRESHOLDS), "tiny@abc123", {})
    assert fitted.features == DEFAULT_FEATURES
    test = synthetic(400, 2)
    predicted = np.array([predict(s, Variant(THRESHOLDS, combiner=fitted)).unsupported for s in test])
    assert (predicted == np.array([s.item.unsupported for s in test])).mean() >= 0.95
    assert feature_names("all") == tuple(FEATURES) and feature_names("ent_max,lex_cov_top") == ("ent_max", "lex_cov_top")
    with pytest.raises(ValueError, match="choose from"):
        feature_names("ent_max,nonsense")


def test_the_file_records_the_model_hash_features_and_fit(fitted, tmp_path):
    path = tmp_path / "combiner.json"
    fitted.save(path)
    data = json.loads(path.read_text())
    assert data["version"] == 1 and data["kind"] == "logistic_regression"
    assert data["model"] == "tiny@abc123" and data["features"] == list(FEATURES)
    assert len(data["mean"]) == len(data["scale"]) == len(data["coef"]) == len(FEATURES)
    assert data["fitted_on"]["half"] if "half" in data["fitted_on"] else data["fitted_on"]["input"] == "synthetic"
    assert data["fitted_on"]["sets"] == {"synthetic": 600} and data["fitted_on"]["sklearn"]
    loaded = load_combiner(path, "other-name@abc123")  # the same weights under another directory name
    probe = synthetic(5, 3)[0]
    f = claim_features(CLAIM, probe.claims[0].evidence, [], {"p1": probe.item.response.passages[0].text})
    assert loaded.probability(f) == pytest.approx(fitted.probability(f))


def test_loading_for_another_model_is_refused_with_the_refit_command(fitted, tmp_path):
    path = tmp_path / "combiner.json"
    fitted.save(path)
    with pytest.raises(CombinerError, match=r"fitted for NLI model tiny@abc123.*--fit-combiner"):
        load_combiner(path, "nli-minilm-int8@ffffffffffff")


def test_the_scorer_refuses_a_combiner_of_another_model(tiny_onnx, tmp_path):
    from groundwatch.scorers.pipeline import Scorer

    path = tmp_path / "combiner.json"
    constant(3.0, model="nli-minilm-int8@ffffffffffff").save(path)
    config = ScorerConfig(model_dir=str(tiny_onnx), providers="cpu", use_embeddings=False,
                          context_conflicts=False, verdict_rule="combiner", combiner_path=str(path))
    with pytest.raises(CombinerError, match="--fit-combiner"):
        Scorer.from_config(config)


def test_contradiction_is_decided_before_the_combiner():
    contradicted = [Evidence(["p1"], [(0, 5)], 0.02, 0.03, 0.95, 0.8, "chunk")]
    assert decide(contradicted, [], THRESHOLDS, supported=True)[0] is Verdict.CONTRADICTED
    always = Variant(THRESHOLDS, combiner=constant(5.0))
    claim = StoredClaim(Verdict.NOT_ENOUGH_INFO, contradicted, [], [], "x")
    assert claim_decision(claim, always, {"p1": "abcde"})[0] is Verdict.CONTRADICTED
    neutral = [Evidence(["p1"], [(0, 5)], 0.10, 0.85, 0.05, 0.8, "chunk")]
    assert claim_decision(StoredClaim(Verdict.NOT_ENOUGH_INFO, neutral, [], [], "x"), always)[0] is Verdict.SUPPORTED
    # A failed check still caps what the combiner supports; a combiner that says no overrides high entailment.
    capped = StoredClaim(Verdict.NOT_ENOUGH_INFO, neutral, [Check("numbers", False)], [], "x")
    assert claim_decision(capped, always)[0] is Verdict.NOT_ENOUGH_INFO
    entailed = [Evidence(["p1"], [(0, 5)], 0.97, 0.02, 0.01, 0.8, "chunk")]
    never = Variant(THRESHOLDS, combiner=constant(-5.0))
    assert claim_decision(StoredClaim(Verdict.SUPPORTED, entailed, [], [], "x"), never)[0] is Verdict.NOT_ENOUGH_INFO


def test_the_live_pipeline_and_re_deciding_agree_under_the_combiner(tiny_onnx, tmp_path):
    """The pipeline computes the features from candidates, re-deciding from stored records: same verdicts."""
    from groundwatch.evaluation.scored import score_all
    from groundwatch.scorers.pipeline import Scorer

    records = [
        {"request_id": "a", "answer": "Refunds are available within 30 days. The fee is five percent.",
         "passages": [{"id": "p1", "text": "Refunds are available within 30 days of purchase. A 5 percent fee "
                       "applies."}, {"id": "p2", "text": "The office is closed on Sundays."}]},
        {"request_id": "b", "answer": "Marie Curie won two Nobel prizes. She was born in Warsaw in 1867.",
         "passages": [{"id": "p1", "text": "Marie Curie was born in Warsaw in 1867."},
                      {"id": "p2", "text": "Curie won the Nobel Prize in Physics in 1903 and in Chemistry."}]},
    ]
    items = [Labelled(parse_response(r), False) for r in records]
    base = dict(model_dir=str(tiny_onnx), providers="cpu", use_embeddings=False, context_conflicts=False)
    scorer = Scorer.from_config(ScorerConfig(**base))
    try:
        stored = score_all(scorer, items)
        model = scorer.model
    finally:
        scorer.close()
    n = len(FEATURES)
    coef = [0.0] * n
    coef[FEATURES.index("lex_cov_top")], coef[FEATURES.index("ent_max")] = 2.0, 1.0
    combiner = Combiner(FEATURES, (0.5,) * n, (0.25,) * n, tuple(coef), 0.0, 0.5, model)
    path = tmp_path / "combiner.json"
    combiner.save(path)
    live = Scorer.from_config(ScorerConfig(**base, verdict_rule="combiner", combiner_path=str(path)))
    try:
        fresh = [[c.verdict for c in r.claims] for r in live.score([i.response for i in items])]
    finally:
        live.close()
    variant = Variant(Thresholds.from_config(ScorerConfig(**base)), combiner=combiner)
    texts = [{p.id: p.text for p in i.response.passages} for i in items]
    redecided = [[claim_decision(c, variant, t)[0] for c in s.claims] for s, t in zip(stored, texts)]
    assert redecided == fresh
    flat = [v for r in fresh for v in r if v is not Verdict.SKIPPED]
    assert Verdict.SUPPORTED in flat and Verdict.NOT_ENOUGH_INFO in flat


def test_fit_combiner_refuses_the_report_half(tmp_path, capsys):
    from groundwatch.cli import main

    path = tmp_path / "set.jsonl"
    path.write_text(json.dumps({"request_id": "a", "answer": "x", "passages": [], "label": "supported"}) + "\n")
    assert main(["eval", "--input", str(path), "--half", "report", "--fit-combiner", str(tmp_path / "c.json")]) == 2
    assert "calibration half" in capsys.readouterr().err
