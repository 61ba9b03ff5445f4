"""Retrieved-context conflicts in the streaming path.

The value-mismatch signal is model-free, so it is checked on the tiny random
model; that an answer can be SUPPORTED while its context conflicts, and that
clean context is not flagged at all, needs the shipped NLI model.
"""

import pytest

from groundwatch.config.scorer import ScorerConfig
from groundwatch.scorers.evidence.chunking import Chunk
from groundwatch.scorers.evidence.conflicts import ConflictFinder, value_mismatch
from groundwatch.scorers.nli.factory import DEFAULT_MODEL_DIR
from groundwatch.scorers.pipeline import Scorer
from groundwatch.scorers.records import Verdict
from groundwatch.scorers.schema import parse_response

SHIPPED = DEFAULT_MODEL_DIR
needs_shipped_model = pytest.mark.skipif(not (SHIPPED / "model.onnx").exists(),
                                         reason=f"shipped NLI model not present yet ({SHIPPED}/model.onnx)")

CURRENT = ("Refunds are available within 30 days of purchase. Approved refunds go back to the original "
           "payment method.")
SUPERSEDED = ("Refunds are available within 14 days of purchase. Approved refunds go back to the original "
              "payment method.")
SHIPPING = "Orders ship within 2 business days. Shipping is free for orders over $50."

CONFLICTING = {
    "request_id": "conflicting",
    "answer": "Refunds are available within 30 days of purchase.",
    "passages": [{"id": "kb-refunds", "text": CURRENT, "score": 0.91},
                 {"id": "kb-refunds-2023", "text": SUPERSEDED, "score": 0.88},
                 {"id": "kb-shipping", "text": SHIPPING, "score": 0.35}],
}
CLEAN = {
    "request_id": "clean",
    "answer": "Refunds are available within 30 days of purchase.",
    "passages": [{"id": "kb-refunds", "text": CURRENT, "score": 0.91},
                 {"id": "kb-shipping", "text": SHIPPING, "score": 0.35}],
}


def _chunk(pid: str, text: str) -> Chunk:
    return Chunk(pid, text, 0, len(text), 0)


def test_value_mismatch_pairs_the_disagreeing_sentences():
    found = value_mismatch(_chunk("a", CURRENT), _chunk("b", SUPERSEDED))
    assert found is not None
    sa, fa, sb, fb = found
    assert (sa, sb) == ("Refunds are available within 30 days of purchase.",
                        "Refunds are available within 14 days of purchase.")
    assert fa.key == fb.key and (fa.value.amounts, fb.value.amounts) == ((30.0,), (14.0,))


def test_no_value_mismatch_between_agreeing_or_unrelated_chunks():
    assert value_mismatch(_chunk("a", CURRENT), _chunk("b", CURRENT.replace("Approved", "All"))) is None
    assert value_mismatch(_chunk("a", CURRENT), _chunk("b", SHIPPING)) is None


@pytest.fixture(scope="module")
def tiny_scorer(tiny_onnx):
    s = Scorer.from_config(ScorerConfig(model_dir=str(tiny_onnx)))
    yield s
    s.close()


def test_superseded_passage_flags_context_conflict_with_both_ids(tiny_scorer):
    [v] = tiny_scorer.score([parse_response(CONFLICTING)])
    assert "context_conflict" in v.flags
    mismatches = [c for c in v.context_conflicts if "value_mismatch" in c.signals]
    assert len(mismatches) == 1
    c = mismatches[0]
    assert sorted(c.passage_ids) == ["kb-refunds", "kb-refunds-2023"]
    assert c.key == "refund | available within purchase"
    assert sorted(c.values) == ["14 days", "30 days"]
    assert sorted(c.sentences) == ["Refunds are available within 14 days of purchase.",
                                   "Refunds are available within 30 days of purchase."]
    stats = c.claim_similarity
    assert stats["n"] >= 2 and stats["top"] >= stats["mean"] > 0 and stats["variance"] >= 0
    assert max(c.similarities) <= stats["top"]
    record = v.to_dict()["context_conflicts"]
    assert any(r["signals"] and r["claim_similarity"]["top"] for r in record)


def test_clean_context_has_no_value_mismatch(tiny_scorer):
    [v] = tiny_scorer.score([parse_response(CLEAN)])
    assert not [c for c in v.context_conflicts if "value_mismatch" in c.signals]


def test_conflict_pairs_are_bounded_and_scored_once(tiny_scorer):
    finder = ConflictFinder(tiny_scorer.pairs, tiny_scorer.thresholds, per_claim=3, max_pairs=2)
    prepared = tiny_scorer._prepare(parse_response(CONFLICTING | {
        "passages": CONFLICTING["passages"] + [{"id": f"kb-{i}", "text": SUPERSEDED.replace("14", str(20 + i))}
                                               for i in range(4)]}))
    tiny_scorer._find_evidence(prepared)
    jobs = finder.submit(prepared.claims)
    assert len(jobs) == 2 and all(j.mismatch for j in jobs)  # mismatches come first
    finder.collect(jobs)
    before = tiny_scorer.batcher.stats.pairs
    finder.collect(finder.submit(prepared.claims))
    assert tiny_scorer.batcher.stats.pairs == before  # the PairScorer cache answered


@pytest.fixture(scope="module")
def shipped_scorer():
    s = Scorer.from_config(ScorerConfig())
    yield s
    s.close()


@needs_shipped_model
def test_supported_answer_with_superseded_context_is_flagged(shipped_scorer):
    [v] = shipped_scorer.score([parse_response(CONFLICTING)])
    assert v.claims[0].verdict is Verdict.SUPPORTED
    assert "context_conflict" in v.flags
    assert any(sorted(c.passage_ids) == ["kb-refunds", "kb-refunds-2023"] for c in v.context_conflicts)


@needs_shipped_model
def test_clean_context_is_not_flagged(shipped_scorer):
    [v] = shipped_scorer.score([parse_response(CLEAN)])
    assert v.claims[0].verdict is Verdict.SUPPORTED
    assert "context_conflict" not in v.flags and not v.context_conflicts


# --- guards: polarity as a signal, and "the same thing" before NLI may call a contradiction -----------

INVESTMENTS = ("Eligible deposits are protected up to €100,000 per depositor by the national deposit guarantee "
               "scheme. Investments held through Ledgerly Invest are not covered by the deposit guarantee scheme. "
               "Instead, they are protected by the investor compensation scheme up to €20,000.")
SAVINGS = ("Savings pots earn 2.1% AER variable interest, paid monthly. The rate was reduced from 2.5% on "
           "1 October 2026. Interest is calculated daily on balances up to €100,000.")
SLA = ("Acme Cloud commits to 99.9% monthly uptime on the Pro plan and 99.95% on the Enterprise plan. Credits must "
       "be requested within 30 days of the end of the affected month. The SLA does not apply to the Team plan or "
       "to free trials.")
PRICES = ("The Team plan costs $12 per user per month billed annually, or $15 per user per month billed monthly. "
          "All paid plans start with a 14-day free trial, and no credit card is required to start it.")
VISITORS = "Visitors must sign in at the front desk. Badges are collected on the way out."
VISITORS_NEW = "Since the new building opened, visitors do not need to sign in at the front desk. Wi-Fi is free."

EX_028 = {"request_id": "ex-028", "answer": "Yes, investments held through Ledgerly Invest are covered by the deposit "
          "guarantee scheme, up to €100,000 per depositor.",
          "passages": [{"id": "c-4700", "text": INVESTMENTS, "score": 0.9}, {"id": "c-5102", "text": SAVINGS}]}
EX_049 = {"request_id": "ex-049", "answer": "No, the SLA does not apply to the Team plan.",
          "passages": [{"id": "p1", "text": SLA, "score": 0.9}, {"id": "p2", "text": PRICES, "score": 0.8}]}
VISITS = {"request_id": "visits", "answer": "Visitors have to sign in at the front desk.",
          "passages": [{"id": "office-rules", "text": VISITORS, "score": 0.9},
                       {"id": "office-rules-2026", "text": VISITORS_NEW, "score": 0.8}]}


@pytest.mark.parametrize("response, sentences", [
    (EX_028, ("Investments held through Ledgerly Invest are not covered by the deposit guarantee scheme.",
              "Interest is calculated daily on balances up to €100,000.")),
    (EX_049, ("The SLA does not apply to the Team plan or to free trials.",
              "The Team plan costs $12 per user per month billed annually, or $15 per user per month billed monthly.")),
])
def test_nli_never_judges_sentences_about_different_things(tiny_scorer, response, sentences):
    prepared = tiny_scorer._prepare(parse_response(response))
    tiny_scorer._find_evidence(prepared)
    jobs = tiny_scorer.conflicts.submit(prepared.claims)
    for job in jobs:  # the pair is not planned at all, or none of its NLI directions counts
        assert not (set(job.sentences) == set(sentences) and any(job.counted)), job.sentences


def test_polarity_conflict_across_passages_is_flagged_without_the_model(tiny_scorer):
    [v] = tiny_scorer.score([parse_response(VISITS)])
    polar = [c for c in v.context_conflicts if "polarity" in c.signals]
    assert "context_conflict" in v.flags and len(polar) == 1
    assert sorted(polar[0].passage_ids) == ["office-rules", "office-rules-2026"]
    assert sorted(polar[0].sentences) == ["Since the new building opened, visitors do not need to sign in at the "
                                          "front desk.", "Visitors must sign in at the front desk."]


@needs_shipped_model
@pytest.mark.parametrize("response", [EX_028, EX_049])
def test_shipped_model_finds_no_conflict_between_different_things(shipped_scorer, response):
    [v] = shipped_scorer.score([parse_response(response)])
    assert not v.context_conflicts, [c.sentences for c in v.context_conflicts]


@needs_shipped_model
def test_shipped_model_still_flags_a_real_conflict(shipped_scorer):
    [v] = shipped_scorer.score([parse_response(VISITS)])
    assert "context_conflict" in v.flags
    assert any(sorted(c.passage_ids) == ["office-rules", "office-rules-2026"] for c in v.context_conflicts)
