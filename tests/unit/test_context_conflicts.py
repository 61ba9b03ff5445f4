"""Retrieved-context conflicts in the streaming path.

The value-mismatch signal is model-free, so it is checked on the tiny random
model; that an answer can be SUPPORTED while its context conflicts, and that
clean context is not flagged at all, needs the shipped NLI model.
"""

from pathlib import Path

import pytest

from config.scorer import ScorerConfig
from scorers.chunking import Chunk
from scorers.conflicts import ConflictFinder, value_mismatch
from scorers.pipeline import Scorer
from scorers.records import Verdict
from scorers.schema import parse_response

SHIPPED = Path(__file__).resolve().parents[2] / "scorers" / "models" / "nli-minilm-int8"
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
