"""Re-deciding stored evidence equals scoring afresh at the same settings (tiny random model)."""

import json
import statistics

import pytest

from groundwatch.config.scorer import ScorerConfig
from groundwatch.evaluation.dataset import Labelled, read_labelled
from groundwatch.evaluation.scored import Variant, claim_verdict, load_scored, score_all
from groundwatch.scorers.pipeline import Scorer
from groundwatch.scorers.records import Verdict
from groundwatch.scorers.schema import parse_response
from groundwatch.scorers.verdicts.thresholds import Thresholds

RECORDS = [
    {"request_id": "a", "answer": "Refunds are available within 30 days. Enterprise customers get 60 days with "
     "approval, and the fee is 5 percent.", "label": "supported",
     "passages": [{"id": "p1", "text": "Refunds are available within 30 days of purchase. Enterprise customers may "
                   "request 60 days with written approval. A 5 percent fee applies.", "score": 0.4},
                  {"id": "p2", "text": "The office is closed on Sundays. Support answers within two business days.",
                   "score": 0.9}]},
    {"request_id": "b", "answer": "The bridge opened in 1932 and it carries eight lanes. Thanks for asking!",
     "label": "unsupported",
     "passages": [{"id": "p1", "text": "The bridge opened in 1932. It carries eight lanes of traffic."},
                  {"id": "p2", "text": "A second bridge was planned for 1950 but never built."}]},
    {"request_id": "c", "answer": "Water boils at 100 degrees Celsius at sea level. It freezes at 0 degrees.",
     "label": "unsupported", "passages": [{"id": "p1", "text": "At sea level water boils at 100 degrees Celsius."},
                                          {"id": "p2", "text": "Ice melts at zero degrees."},
                                          {"id": "p3", "text": "Salt water boils at a higher temperature."}]},
    {"request_id": "d", "answer": "The API allows 100 requests per minute per key, unless the plan is Enterprise.",
     "label": "supported", "passages": [{"id": "p1", "text": "The API allows 100 requests per minute per key."},
                                        {"id": "p2", "text": "Enterprise plans have no fixed limit."}]},
    {"request_id": "e", "answer": "Marie Curie won two Nobel prizes. She was born in Warsaw in 1867.",
     "label": "supported", "passages": [{"id": "p1", "text": "Marie Curie was born in Warsaw in 1867."},
                                        {"id": "p2", "text": "Curie won the Nobel Prize in Physics in 1903 and in "
                                         "Chemistry in 1911."}]},
]


@pytest.fixture(scope="module")
def items():
    return [Labelled(parse_response(r), r["label"] != "supported") for r in RECORDS]


def make_scorer(model_dir, **updates):
    config = ScorerConfig(model_dir=str(model_dir), providers="cpu", context_conflicts=False, **updates)
    return Scorer.from_config(config)


@pytest.fixture(scope="module")
def stored(tiny_onnx, items):
    scorer = make_scorer(tiny_onnx)
    try:
        return score_all(scorer, items), scorer.embedder
    finally:
        scorer.close()


def fresh_verdicts(model_dir, items, embedder, **updates):
    scorer = Scorer(ScorerConfig(model_dir=str(model_dir), providers="cpu", context_conflicts=False, **updates),
                    make_backend(model_dir), embedder)
    try:
        return [[c.verdict for c in r.claims] for r in scorer.score([i.response for i in items])]
    finally:
        scorer.close()


def make_backend(model_dir):
    from groundwatch.scorers.nli.factory import load_backend

    return load_backend(model_dir, "onnx", "cpu")


def middle_entailment(scored):
    values = sorted(max(e.entailment for e in c.evidence) for s in scored for c in s.claims if not c.skipped)
    return round(statistics.median(values), 4)


@pytest.mark.parametrize("mode", ["static", "sqrt", "tiered", "sigmoid"])
def test_redecide_equals_fresh_score_at_the_same_thresholds(tiny_onnx, items, stored, mode):
    scored, embedder = stored
    # The random model's entailments sit near 1/3: a threshold at their median gives mixed verdicts.
    tau_e = middle_entailment(scored)
    settings = dict(tau_entailment=tau_e, tau_contradiction=0.3, threshold_mode=mode, threshold_pivot=0.3)
    fresh = fresh_verdicts(tiny_onnx, items, embedder, **settings)
    variant = Variant(Thresholds.from_config(ScorerConfig(**settings)))
    redecided = [[claim_verdict(c, variant)[0] for c in s.claims] for s in scored]
    assert redecided == fresh
    flat = [v for r in fresh for v in r if v is not Verdict.SKIPPED]
    assert Verdict.SUPPORTED in flat and len(set(flat)) > 1, "thresholds must give a mix of verdicts"


def test_dropping_pair_premises_equals_pair_top_zero(tiny_onnx, items, stored):
    scored, embedder = stored
    settings = dict(tau_entailment=middle_entailment(scored), tau_contradiction=0.3)
    fresh = fresh_verdicts(tiny_onnx, items, embedder, pair_top=0, **settings)
    variant = Variant(Thresholds.from_config(ScorerConfig(**settings)), pairs=False)
    assert [[claim_verdict(c, variant)[0] for c in s.claims] for s in scored] == fresh
    assert any(e.kind == "pair" for s in scored for c in s.claims for e in c.evidence)


def test_dropping_checks_equals_free_checks_off(tiny_onnx, items, stored):
    scored, embedder = stored
    settings = dict(tau_entailment=0.01, tau_contradiction=0.99)  # everything entailed unless a check caps it
    fresh = fresh_verdicts(tiny_onnx, items, embedder, free_checks=False, **settings)
    variant = Variant(Thresholds.from_config(ScorerConfig(**settings)), free_checks=False)
    assert [[claim_verdict(c, variant)[0] for c in s.claims] for s in scored] == fresh
    capped = [claim_verdict(c, Variant(variant.thresholds))[0] for s in scored for c in s.claims]
    assert Verdict.NOT_ENOUGH_INFO in capped, "the 'freezes at 0' claim fails the numbers check"


def test_dropping_guards_equals_guards_off(tiny_onnx, items, stored):
    from groundwatch.config.scorer import GuardsConfig

    scored, embedder = stored
    settings = dict(tau_entailment=0.01, tau_contradiction=0.99)  # everything entailed unless a check caps it
    off = GuardsConfig(polarity=False, dropped_condition=False, arithmetic=False)
    fresh = fresh_verdicts(tiny_onnx, items, embedder, guards=off, **settings)
    variant = Variant(Thresholds.from_config(ScorerConfig(**settings)), guards=False)
    assert [[claim_verdict(c, variant)[0] for c in s.claims] for s in scored] == fresh
    on = [claim_verdict(c, Variant(variant.thresholds))[0] for s in scored for c in s.claims]
    assert on != [v for r in fresh for v in r], "'Enterprise customers get 60 days' keeps its condition; " \
        "a guard must change some verdict here"


def test_verdict_records_reload_to_the_same_evidence(tiny_onnx, items, stored, tmp_path):
    scored, embedder = stored
    path = tmp_path / "verdicts.jsonl"
    scorer = Scorer(ScorerConfig(model_dir=str(tiny_onnx), providers="cpu", context_conflicts=False),
                    make_backend(tiny_onnx), embedder)
    try:
        score_all(scorer, items, verdicts_out=path)
    finally:
        scorer.close()
    labelled = tmp_path / "labelled.jsonl"
    labelled.write_text("".join(json.dumps(r) + "\n" for r in RECORDS))
    reloaded = load_scored(read_labelled(labelled), path)
    assert [[(c.verdict, c.evidence, c.checks) for c in s.claims] for s in reloaded] == \
        [[(c.verdict, c.evidence, c.checks) for c in s.claims] for s in scored]
