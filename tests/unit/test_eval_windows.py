"""Evidence windows: word-packed chunks, and top_k / pair_top re-decided from saved scores."""

import pytest

from groundwatch.config.scorer import ScorerConfig
from groundwatch.evaluation.dataset import Labelled
from groundwatch.evaluation.scored import Variant, premises, score_all
from groundwatch.evaluation.redecide.windows import parse_grid, window_rows
from groundwatch.scorers.evidence.chunking import chunk_passage
from groundwatch.scorers.schema import Passage, parse_response
from groundwatch.scorers.verdicts.thresholds import Thresholds

SENTENCES = ["The museum opened in 1901.", "It holds four thousand paintings and a small library of maps.",
             "Entry is free on Sundays.", "The east wing was rebuilt after a fire in 1950.",
             "Guided tours start at ten.", "A cafe sits beside the garden.", "The director is Anna Berg.",
             "School groups must book two weeks ahead."]
TEXT = " ".join(SENTENCES)


def test_word_windows_pack_whole_sentences_up_to_the_cap_with_overlap():
    chunks = chunk_passage(Passage(id="p", text=TEXT), rank=0, overlap=1, words=20)
    assert chunks[0].text.startswith(SENTENCES[0]) and chunks[-1].text.endswith(SENTENCES[-1])
    for c in chunks:
        assert len(c.text.split()) <= 20 or c.text in SENTENCES  # a long sentence stands alone
        assert c.text == TEXT[c.start:c.end]
    for a, b in zip(chunks, chunks[1:]):
        assert b.start < a.end and b.start > a.start  # one sentence of overlap, always moving on
    assert len(chunk_passage(Passage(id="p", text=TEXT), 0, overlap=0, words=1000)) == 1


def test_parse_grid():
    assert parse_grid("2,4:0,3") == ([2, 4], [0, 3])
    with pytest.raises(ValueError, match="TOP_KS:PAIR_TOPS"):
        parse_grid("2,4")


@pytest.fixture(scope="module")
def items():
    records = [
        {"request_id": "a", "answer": "The museum opened in 1901 and entry is free on Sundays.",
         "passages": [{"id": "p1", "text": " ".join(SENTENCES[:4])}, {"id": "p2", "text": " ".join(SENTENCES[4:])}]},
        {"request_id": "b", "answer": "Guided tours start at ten. The director is Anna Berg.",
         "passages": [{"id": "p1", "text": " ".join(SENTENCES[4:])}, {"id": "p2", "text": " ".join(SENTENCES[:4])}]},
    ]
    return [Labelled(parse_response(r), i % 2 == 1, set_name=f"s{i % 2}") for i, r in enumerate(records)]


def _scored(model_dir, items, **updates):
    from groundwatch.scorers.pipeline import Scorer

    config = ScorerConfig(model_dir=str(model_dir), providers="cpu", use_embeddings=False, context_conflicts=False,
                          chunk_sentences=1, chunk_overlap=0, **updates)
    scorer = Scorer.from_config(config)
    try:
        return score_all(scorer, items)
    finally:
        scorer.close()


def _keys(evidence):
    return sorted((e.kind, tuple(e.passage_ids), tuple(map(tuple, e.offsets)), e.entailment) for e in evidence)


@pytest.mark.parametrize("top_k,pair_top", [(2, 2), (3, 0), (3, 2), (4, 3)])
def test_a_smaller_window_re_decided_from_saved_scores_equals_a_fresh_run(tiny_onnx, items, top_k, pair_top):
    large = _scored(tiny_onnx, items, top_k=5, pair_top=4)
    fresh = _scored(tiny_onnx, items, top_k=top_k, pair_top=pair_top)
    variant = Variant(Thresholds(), top_k=top_k, pair_top=pair_top)
    for big, small in zip(large, fresh):
        for c_big, c_small in zip(big.claims, small.claims):
            if c_big.skipped:
                continue
            assert _keys(premises(c_big, variant)) == _keys(c_small.evidence)


def test_window_rows_cover_the_grid_per_set(tiny_onnx, items):
    scored = _scored(tiny_onnx, items, top_k=4, pair_top=3)
    rows = window_rows(scored, Thresholds(0.3, 0.9), [2, 4], [0, 2, 3])
    assert [(r["top_k"], r["pair_top"]) for r in rows] == [(2, 0), (2, 2), (4, 0), (4, 2), (4, 3)]
    assert set(rows[0]["sets"]) == {"s0", "s1"} and 0.30 <= rows[0]["tuned"]["tau_entailment"] <= 0.95
