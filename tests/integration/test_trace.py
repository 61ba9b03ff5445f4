"""`groundwatch trace` finds a verdict through the alias, whatever index it landed in."""

from __future__ import annotations

import uuid

import pytest
from opensearchpy import OpenSearch

from groundwatch.cli import main
from groundwatch.scorers.identity import content_hash, document_id
from infra.server import free_port
from tests.integration.verdict_factory import response_verdict, verdict_dict

pytestmark = pytest.mark.integration


def _store(url: str) -> str:
    client = OpenSearch(hosts=[url])
    alias = f"gw-trace-{uuid.uuid4().hex[:8]}"
    old = verdict_dict("Req-42", ["SUPPORTED", "NOT_ENOUGH_INFO"], timestamp="2025-01-03T10:00:00+00:00",
                       scored_at="2025-01-03T10:00:05+00:00", scorer_version="0.9.0")
    new = verdict_dict("Req-42", ["SUPPORTED", "CONTRADICTED"], timestamp="2025-01-03T10:00:00+00:00",
                       scored_at="2025-04-20T08:00:00+00:00", scorer_version="1.1.0",
                       evidence_ids=["kb-ok", "kb-billing-03"])
    neighbour = verdict_dict("Req-421", ["SUPPORTED"], timestamp="2025-01-03T10:00:00+00:00")
    # Scored months apart, so the versions sit in different monthly indices.
    for index, doc in ((f"{alias}-2025.01", old), (f"{alias}-2025.04", new), (f"{alias}-2025.01", neighbour)):
        client.index(index=index, id=f"{doc['request_id']}:{doc['scorer_version']}", body=doc)
        client.indices.put_alias(index=index, name=alias)
    client.indices.refresh(index=f"{alias}-*")
    return alias


def test_trace_shows_the_newest_version_and_lists_the_others(opensearch_url: str, capsys) -> None:
    alias = _store(opensearch_url)

    assert main(["trace", "Req-42", "--opensearch-url", opensearch_url, "--alias", alias]) == 0
    out = capsys.readouterr().out
    head, _, older = out.partition("also stored, older scorer versions (1):")
    assert head.startswith("request Req-42  (scorer 1.1.0")
    assert "CONTRADICTED" in head and "[kb-billing-03]" in head
    assert "scorer 0.9.0" in older and "2025-01-03T10:00:05" in older
    assert "Req-421" not in out


def test_trace_reports_a_missing_request(opensearch_url: str, capsys) -> None:
    alias = _store(opensearch_url)
    assert main(["trace", "Req-4", "--opensearch-url", opensearch_url, "--alias", alias]) == 2
    assert "no verdict for request_id 'Req-4'" in capsys.readouterr().err


def test_trace_reports_a_missing_alias_and_an_unreachable_server(opensearch_url: str, capsys) -> None:
    assert main(["trace", "Req-42", "--opensearch-url", opensearch_url, "--alias", "gw-no-such-alias"]) == 2
    assert "not found" in capsys.readouterr().err
    assert main(["trace", "Req-42", "--opensearch-url", f"http://127.0.0.1:{free_port()}"]) == 2
    assert "OpenSearch unreachable" in capsys.readouterr().err


def test_trace_finds_what_the_sink_wrote(opensearch_url: str, capsys) -> None:
    from groundwatch.config.settings import OpenSearchSettings
    from groundwatch.export.opensearch_sink import OpenSearchSink
    from groundwatch.reports.verdict_store import find_by_request_id

    name = f"gw-sink-trace-{uuid.uuid4().hex[:8]}"
    sink = OpenSearchSink(OpenSearchSettings(url=opensearch_url, alias=name, index_prefix=name,
                                             number_of_replicas=0))
    sink.write([response_verdict("Req-7", ["NOT_ENOUGH_INFO"], timestamp="2024-11-02T08:00:00Z",
                                 scored_at="2024-11-02T08:00:01+00:00", scorer_version="0.9.0"),
                response_verdict("Req-8", ["SUPPORTED"], timestamp="2025-03-02T08:00:00Z")])
    sink.write([response_verdict("Req-7", ["SUPPORTED"], timestamp="2024-11-02T08:00:00Z",
                                 scored_at="2025-05-01T00:00:00+00:00", scorer_version="1.1.0")])
    OpenSearch(hosts=[opensearch_url]).indices.refresh(index=f"{name}-*")

    assert main(["trace", "Req-7", "--opensearch-url", opensearch_url, "--alias", name]) == 0
    out = capsys.readouterr().out
    assert out.startswith("request Req-7  (scorer 1.1.0") and "scorer 0.9.0" in out
    assert [d["scorer_version"] for d in find_by_request_id(sink.client, name, "Req-7")] == ["1.1.0", "0.9.0"]
    sink.close()


def test_versioned_scorers_coexist_a_replay_overwrites_and_trace_shows_every_version(
        opensearch_url: str, tiny_onnx, capsys) -> None:
    """Two real scorers (thresholds differ) write beside each other; the same scorer again overwrites."""
    from groundwatch.config.scorer import ScorerConfig
    from groundwatch.config.settings import OpenSearchSettings
    from groundwatch.export.opensearch_sink import OpenSearchSink
    from groundwatch.scorers.pipeline import Scorer
    from groundwatch.scorers.schema import parse_response

    response = parse_response({"request_id": "Req-v", "timestamp": "2025-02-01T10:00:00Z",
                               "answer": "Orders ship within 2 business days.",
                               "passages": [{"id": "p1", "text": "Orders ship within 2 business days."}]})
    name = f"gw-versions-{uuid.uuid4().hex[:8]}"
    sink = OpenSearchSink(OpenSearchSettings(url=opensearch_url, alias=name, index_prefix=name,
                                             number_of_replicas=0))
    versions = []
    for config in (ScorerConfig(model_dir=str(tiny_onnx), use_embeddings=False),
                   ScorerConfig(model_dir=str(tiny_onnx), use_embeddings=False, tau_entailment=0.5),
                   ScorerConfig(model_dir=str(tiny_onnx), use_embeddings=False)):  # a replay of the first
        scorer = Scorer.from_config(config)
        try:
            sink.write(scorer.score([response]))
            versions.append(scorer.version)
        finally:
            scorer.close()
    client = OpenSearch(hosts=[opensearch_url])
    client.indices.refresh(index=f"{name}-*")
    hits = client.search(index=name, body={"size": 10, "query": {"match_all": {}}})["hits"]["hits"]
    assert versions[0] == versions[2] != versions[1]
    assert sorted(h["_id"] for h in hits) == sorted(document_id(None, None, "Req-v", v, content_hash(response))
                                                        for v in versions[:2])

    assert main(["trace", "Req-v", "--all-versions", "--opensearch-url", opensearch_url, "--alias", name]) == 0
    out = capsys.readouterr().out.partition("2 scorer versions of request Req-v, newest first:")[2]
    assert out
    assert all(out.count(f"scorer {v}") >= 2 for v in versions[:2])  # listed, then explained
    sink.close()
