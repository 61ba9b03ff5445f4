"""Per-claim retrieval from the knowledge base against osmem-server (BM25; osmem has no k-NN,
so the k-NN half turns itself off), scored by the shipped model: a claim the corpus supports
but the logged passages do not is a retrieval_miss, a made-up one is unsupported_by_corpus."""

from __future__ import annotations

import uuid

import pytest
from opensearchpy import OpenSearch

from groundwatch.config.corpus import CorpusSettings
from groundwatch.config.scorer import ScorerConfig
from groundwatch.config.settings import OpenSearchSettings
from groundwatch.export.metrics import Metrics
from groundwatch.recall_probe.corpus import build_corpus
from groundwatch.scorers.schema import parse_response

pytestmark = pytest.mark.integration

KB = {
    "kb-shipping": ("Orders ship within 2 business days from our warehouse in Leeds.", "2025-06-01"),
    "kb-pro-2024": ("The Pro plan costs $49 per month, billed annually.", "2024-03-01"),
    "kb-pro-2026": ("The Pro plan costs $59 per month, billed annually.", "2026-02-01"),
    "kb-holidays": ("Our offices are closed on public holidays.", "2025-01-01"),
}


@pytest.fixture(scope="module")
def scorer_factory():
    from groundwatch.scorers.pipeline import Scorer

    made = []

    def make(corpus, settings):
        s = Scorer(ScorerConfig(use_embeddings=False), _backend(), None, corpus=corpus, corpus_settings=settings)
        made.append(s)
        return s

    yield make
    for s in made:
        s.close()


def _backend():
    from groundwatch.scorers.nli.factory import load_backend

    return load_backend(None, "onnx", "cpu", 256, 1)


def test_a_retrieval_miss_is_told_apart_from_an_unsupported_claim(opensearch_url: str, scorer_factory) -> None:
    index = f"gw-kb-{uuid.uuid4().hex[:8]}"
    client = OpenSearch(hosts=[opensearch_url])
    client.indices.create(index=index, body={"mappings": {"properties": {
        "text": {"type": "text"}, "updated_at": {"type": "date"}, "embedding": {"type": "knn_vector", "dimension": 3}}}})
    for doc_id, (text, updated) in KB.items():
        client.index(index=index, id=doc_id, body={"text": text, "updated_at": updated})
    client.indices.refresh(index=index)
    settings = CorpusSettings(enabled=True, index=index, top_hits=3, deadline_s=30.0)
    corpus = build_corpus(OpenSearchSettings(url=opensearch_url), settings)
    scorer = scorer_factory(corpus, settings)

    response = parse_response({
        "request_id": "r-kb", "question": "How fast do orders ship?",
        "answer": "Orders ship within 2 business days. Every order includes a free personal chauffeur.",
        "passages": [{"id": "p-1", "text": KB["kb-holidays"][0], "updated_at": "2025-01-01"}],
        "metadata": {"tenant": "acme"},
    })
    [verdict] = scorer.score([response])
    miss, made_up = verdict.claims
    assert miss.verdict.value == "NOT_ENOUGH_INFO" and made_up.verdict.value == "NOT_ENOUGH_INFO"
    assert miss.corpus["outcome"] == "retrieval_miss" and miss.corpus["evidence_ids"][0] == "kb-shipping"
    assert miss.corpus["index"] == index and miss.corpus["entailment"] >= 0.65
    assert made_up.corpus["outcome"] == "unsupported_by_corpus"
    assert {"retrieval_miss", "unsupported_by_corpus"} <= set(verdict.flags)
    metrics = Metrics()
    metrics.scored([verdict])
    sample = metrics.registry.get_sample_value
    assert sample("groundwatch_retrieval_outcomes_total", {"outcome": "retrieval_miss"}) == 1.0
    assert sample("groundwatch_retrieval_outcomes_total", {"outcome": "unsupported_by_corpus"}) == 1.0

    # Documents a lookup found count as known documents for stale evidence: the second claim's
    # lookup brings the 2026 price list, newer than the passage supporting the first claim.
    stale = parse_response({
        "request_id": "r-stale", "answer": "The Pro plan costs $49 per month. The Pro plan can also be paid by fax.",
        "passages": [{"id": "p-old", "text": KB["kb-pro-2024"][0], "updated_at": "2024-03-01"}],
    })
    [v] = scorer.score([stale])
    assert v.claims[0].verdict.value == "SUPPORTED" and v.claims[0].corpus is None  # no lookup when supported
    assert [(s.passage_id, s.newer_id, s.value, s.newer_value, s.source) for s in v.stale_evidence] == [
        ("p-old", "kb-pro-2026", "$49 per month", "$59 per month", "corpus")]
    assert "stale_evidence" in v.flags and "stale_evidence" in v.claims[0].flags


def test_knn_turns_itself_off_where_the_server_lacks_it(opensearch_url: str) -> None:
    index = f"gw-kb-{uuid.uuid4().hex[:8]}"
    client = OpenSearch(hosts=[opensearch_url])
    client.index(index=index, id="d1", body={"text": "Refunds take 14 days.", "updated_at": "2026-01-01"},
                 params={"refresh": "true"})
    corpus = build_corpus(OpenSearchSettings(url=opensearch_url), CorpusSettings(enabled=True, index=index))
    docs = corpus.search("how long do refunds take", 3, vector=[0.1, 0.2, 0.3])
    assert [(d.id, d.text, d.updated_at) for d in docs] == [("d1", "Refunds take 14 days.", "2026-01-01")]
    assert corpus.knn is None  # osmem refused k-NN once; BM25 alone from then on
