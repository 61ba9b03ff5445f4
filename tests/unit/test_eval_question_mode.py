"""evidence_mode "question": every claim gets the top chunks in the retriever's order."""

from groundwatch.config.scorer import ScorerConfig
from groundwatch.scorers.evidence.chunking import chunk_passages
from groundwatch.scorers.evidence.retrieval import EvidenceIndex
from groundwatch.scorers.schema import parse_response

RESPONSE = parse_response({
    "request_id": "q", "answer": "Refunds take 30 days.",
    "passages": [{"id": "low", "text": "Refunds take 30 days.", "score": 0.1},
                 {"id": "high", "text": "The office is closed on Sundays.", "score": 0.9},
                 {"id": "mid", "text": "Support answers in two days.", "score": 0.5}]})


def test_default_mode_is_per_claim():
    assert ScorerConfig().evidence_mode == "claim"


def test_candidates_follow_retriever_scores_not_the_claim():
    index = EvidenceIndex(chunk_passages(list(RESPONSE.passages)), embedder=None)
    candidates = index.retriever_order_candidates(list(RESPONSE.passages), "Refunds take 30 days.", top_k=2,
                                                  pair_top=2)
    singles = [c.chunks[0].passage_id for c in candidates if c.kind == "chunk"]
    assert singles == ["high", "mid"]  # the passage that matches the claim ranks last by score
    pairs = [[ch.passage_id for ch in c.chunks] for c in candidates if c.kind == "pair"]
    assert pairs == [["high", "mid"]]
    per_claim = index.candidates("Refunds take 30 days.", top_k=2, pair_top=0)
    assert per_claim[0].chunks[0].passage_id == "low"
