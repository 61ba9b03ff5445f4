import numpy as np
import pytest

from groundwatch.scorers.evidence.chunking import chunk_passage, chunk_passages
from groundwatch.scorers.evidence.retrieval import EvidenceIndex, rrf
from groundwatch.scorers.schema import Passage

LONG = Passage(id="p1", text=" ".join(f"Sentence number {i} is here." for i in range(1, 10)))


def test_chunks_are_windows_with_overlap_and_exact_offsets():
    chunks = chunk_passage(LONG, rank=0, sentences=4, overlap=1)
    assert [c.text.split(".")[0] for c in chunks] == ["Sentence number 1 is here", "Sentence number 4 is here",
                                                      "Sentence number 7 is here"]
    for c in chunks:
        assert LONG.text[c.start:c.end] == c.text and c.passage_id == "p1"
    # consecutive windows share one sentence
    assert "Sentence number 4 is here." in chunks[0].text and "Sentence number 4 is here." in chunks[1].text
    assert chunks[-1].text.endswith("Sentence number 9 is here.")


def test_duplicate_passages_add_no_chunks():
    a = Passage(id="a", text="Refunds take 30 days.")
    b = Passage(id="b", text="Refunds take 30 days.")
    assert [c.passage_id for c in chunk_passages([a, b])] == ["a"]


def test_rrf_fuses_rankings():
    scores = rrf([[0, 1, 2], [2, 1, 0]], k=60)
    assert scores[1] == 2 / 62
    assert scores[0] == scores[2] == 1 / 61 + 1 / 63
    assert rrf([[3, 1]], k=60)[3] > rrf([[3, 1]], k=60)[1]


def test_candidates_rank_the_relevant_chunk_first_and_add_pairs():
    passages = [Passage(id="p1", text="The office is in Berlin."),
                Passage(id="p2", text="Refunds are available within 30 days of purchase."),
                Passage(id="p3", text="Enterprise customers may request 60 days."),
                Passage(id="p4", text="The cafeteria serves lunch at noon.")]
    index = EvidenceIndex(chunk_passages(passages), embedder=None)
    cands = index.candidates("Refunds are available for 30 days.", top_k=4, pair_top=3)
    assert cands[0].chunks[0].passage_id == "p2"
    singles = [c for c in cands if c.kind == "chunk"]
    pairs = [c for c in cands if c.kind == "pair"]
    assert len(singles) == 4 and len(pairs) == 3
    # pairs join two of the top three, in retriever order
    top3 = {c.chunks[0].passage_id for c in singles[:3]}
    for p in pairs:
        assert {ch.passage_id for ch in p.chunks} <= top3
        assert p.chunks[0].rank < p.chunks[1].rank
    assert not index.candidates("x", pair_top=0) or all(c.kind == "chunk" for c in index.candidates("x", pair_top=0))


class _Axes:
    """Each text's vector: a fixed unit vector by its first word (claim, refunds, enterprise, office)."""

    AXES = {"claim": np.array([0.8, 0.6, 0.0]), "refunds": np.array([1.0, 0.0, 0.0]),
            "enterprise": np.array([0.0, 1.0, 0.0]), "office": np.array([0.0, 0.0, 1.0])}

    def encode(self, texts):
        return np.array([self.AXES[t.split()[0].lower()] for t in texts])


def test_a_pair_scores_as_its_better_retrieved_chunk():
    # The pair holds the better chunk's text: split support is held to that chunk's threshold, not to a
    # stricter one set by the chunk that carries only a detail.
    passages = [Passage(id="p1", text="Refunds are available within 30 days."),
                Passage(id="p2", text="Enterprise customers may request 60 days."),
                Passage(id="p3", text="Office hours are nine to five.")]
    index = EvidenceIndex(chunk_passages(passages), embedder=_Axes())
    cands = index.candidates("Claim about refunds", top_k=3, pair_top=2)
    chunk_score = {c.chunks[0].passage_id: c.retrieval_score for c in cands if c.kind == "chunk"}
    assert chunk_score == pytest.approx({"p1": 0.8, "p2": 0.6, "p3": 0.0})
    [pair] = [c for c in cands if c.kind == "pair"]
    assert {ch.passage_id for ch in pair.chunks} == {"p1", "p2"}
    assert pair.retrieval_score == pytest.approx(0.8)
