"""Forgetting a request or a tenant across monthly indices, and redaction before storage:
nothing that matches a redaction rule reaches the store or the logs."""

from __future__ import annotations

import json
import logging
import uuid

import pytest
import structlog
from opensearchpy import OpenSearch

from groundwatch.config.redaction import RedactionSettings
from groundwatch.config.scorer import ScorerConfig
from groundwatch.config.settings import OpenSearchSettings
from groundwatch.export.opensearch_sink import OpenSearchSink
from groundwatch.cli import main
from groundwatch.scorers.identity import document_id
from groundwatch.scorers.redaction import Redactor
from groundwatch.scorers.schema import parse_response
from groundwatch.scorers.times import parse_time
from tests.integration.verdict_factory import response_verdict

pytestmark = pytest.mark.integration


def _sink(url: str, redactor=None) -> OpenSearchSink:
    name = f"gw-forget-{uuid.uuid4().hex[:8]}"
    return OpenSearchSink(OpenSearchSettings(url=url, alias=name, index_prefix=name, number_of_replicas=0),
                          redactor=redactor)


def _ids(client, alias: str) -> list[str]:
    """request_id:scorer_version of every stored verdict (the _id itself is a hash of these and the app)."""
    client.indices.refresh(index=f"{alias}-*")
    hits = client.search(index=alias, body={"size": 100, "query": {"match_all": {}}})["hits"]["hits"]
    assert all(h["_id"] == document_id(h["_source"]["metadata"].get("app"), h["_source"]["metadata"].get("tenant"),
                                       h["_source"]["request_id"], h["_source"]["scorer_version"],
                                       h["_source"].get("content_hash")) for h in hits)
    return sorted(f"{h['_source']['request_id']}:{h['_source']['scorer_version']}" for h in hits)


def _write(sink: OpenSearchSink, verdicts) -> None:
    """As the consumer writes them: each with its Kafka message's time (here the response's own)."""
    sink.write(verdicts, [parse_time(v.timestamp) for v in verdicts])


def test_forget_a_request_and_a_tenant_across_months(opensearch_url: str, capsys) -> None:
    sink = _sink(opensearch_url)
    alias = sink.settings.alias
    _write(sink, [
        response_verdict("r-1", ["SUPPORTED"], timestamp="2025-01-10T00:00:00Z", scorer_version="1.0.0"),
        response_verdict("r-1", ["SUPPORTED"], timestamp="2025-01-10T00:00:00Z", scorer_version="1.1.0"),
        response_verdict("r-2", ["SUPPORTED"], timestamp="2025-04-10T00:00:00Z"),
        response_verdict("r-3", ["SUPPORTED"], timestamp="2025-08-10T00:00:00Z"),
        response_verdict("r-4", ["SUPPORTED"], timestamp="2025-04-11T00:00:00Z", tenant="globex"),
    ])
    client = OpenSearch(hosts=[opensearch_url])
    _ids(client, alias)
    base = ["--opensearch-url", opensearch_url, "--alias", alias]

    assert main(["forget", "--request-id", "r-1", "--dry-run", *base]) == 0
    assert capsys.readouterr().out.startswith("would delete 2 verdict documents of request 'r-1'")
    assert len(_ids(client, alias)) == 5

    assert main(["forget", "--request-id", "r-1", *base]) == 0
    out = capsys.readouterr().out
    assert f"deleted 2 verdict documents of request 'r-1' under '{alias}' (delete_by_query)" in out
    assert f"{alias}-2025.01: 2" in out
    assert _ids(client, alias) == ["r-2:1.0.0", "r-3:1.0.0", "r-4:1.0.0"]

    assert main(["forget", "--tenant", "acme", "--before", "2025-06-01", *base]) == 0
    out = capsys.readouterr().out
    assert "deleted 1 verdict documents of tenant 'acme' before 2025-06-01T00:00:00+00:00" in out
    assert f"{alias}-2025.04: 1" in out
    assert _ids(client, alias) == ["r-3:1.0.0", "r-4:1.0.0"]  # later ones and other tenants stay

    assert main(["forget", "--tenant", "acme", *base]) == 0
    assert _ids(client, alias) == ["r-4:1.0.0"]
    assert main(["forget", "--tenant", "acme", "--before", "June", *base]) == 2
    sink.close()


def test_forget_a_request_id_that_two_apps_reuse(opensearch_url: str, capsys) -> None:
    sink = _sink(opensearch_url)
    alias = sink.settings.alias
    _write(sink, [response_verdict("42", ["SUPPORTED"], timestamp="2025-01-10T00:00:00Z", app=app)
                  for app in ("shop", "help-center")])
    client = OpenSearch(hosts=[opensearch_url])
    assert _ids(client, alias) == ["42:1.0.0", "42:1.0.0"]  # two documents, one per app
    base = ["--opensearch-url", opensearch_url, "--alias", alias]

    assert main(["forget", "--request-id", "42", *base]) == 2  # whose? refused, nothing deleted
    err = capsys.readouterr().err
    assert "request_id '42' is stored for 2 apps: help-center (1), shop (1); give --app" in err
    assert len(_ids(client, alias)) == 2

    assert main(["forget", "--request-id", "42", "--app", "shop", *base]) == 0
    out = capsys.readouterr().out
    assert "deleted 1 verdict documents of request '42' of app 'shop'" in out
    # What forget cannot reach is named, every time.
    assert "not deleted by forget" in out and "topic 'groundwatch-dead-letters'" in out
    assert "topic 'groundwatch-alerts'" in out
    [hit] = client.search(index=alias, body={"query": {"match_all": {}}})["hits"]["hits"]
    assert hit["_source"]["metadata"]["app"] == "help-center"

    assert main(["trace", "42", *base]) == 0
    assert "== app" not in capsys.readouterr().out  # one app left: its verdict alone
    sink.close()


PII = ["jane.doe@example.com", "+44 20 7946 0958", "4111 1111 1111 1111", "GB82 WEST 1234 5698 7654 32"]


def test_nothing_matching_a_redaction_rule_reaches_the_store_or_the_logs(opensearch_url: str, tiny_onnx,
                                                                          capsys, caplog) -> None:
    from groundwatch.config.logs import configure

    caplog.set_level(logging.DEBUG)
    configure("json", "debug")  # every event, as production writes it
    try:
        _score_and_store(opensearch_url, tiny_onnx, capsys, caplog)
    finally:
        structlog.reset_defaults()


def _score_and_store(opensearch_url: str, tiny_onnx, capsys, caplog) -> None:
    from groundwatch.scorers.pipeline import Scorer

    response = parse_response({
        "request_id": "r-pii", "timestamp": "2026-02-01T10:00:00Z",
        "question": "How do I get my refund?",
        "answer": f"Write to {PII[0]} or call {PII[1]}. Your card {PII[2]} is refunded within 14 days.",
        "passages": [
            {"id": "kb-1", "text": f"Refund questions: {PII[0]}, phone {PII[1]}. Refunds take 14 days.",
             "title": f"Contact {PII[0]}"},
            {"id": "kb-2", "text": f"Customer card {PII[2]} and account {PII[3]} were refunded on 2026-01-30."},
        ],
        "metadata": {"tenant": "acme"},
    })
    scorer = Scorer.from_config(ScorerConfig(model_dir=str(tiny_onnx), use_embeddings=False))
    [verdict] = scorer.score([response])
    scorer.close()
    assert any(p in json.dumps(verdict.to_dict()) for p in PII)  # the record itself still has them

    redactor = Redactor.from_settings(RedactionSettings(enabled=True))
    sink = _sink(opensearch_url, redactor)
    sink.write([verdict])
    client = OpenSearch(hosts=[opensearch_url])
    client.indices.refresh(index=f"{sink.settings.alias}-*")
    [hit] = client.search(index=sink.settings.alias, body={"query": {"match_all": {}}})["hits"]["hits"]
    stored = json.dumps(hit["_source"], ensure_ascii=False)
    sink.close()

    logs = capsys.readouterr()
    logged = logs.out + logs.err + "\n".join(r.getMessage() for r in caplog.records)
    for where, text in (("store", stored), ("logs", logged)):
        for value in PII:
            assert value not in text, (where, value)
        assert Redactor(("email", "phone", "iban", "card")).spans(text) == [], where
    assert hit["_source"]["request_id"] == "r-pii" and hit["_source"]["passage_ids"] == ["kb-1", "kb-2"]
    assert "[email]" in hit["_source"]["claims"][0]["text"]
    assert "Refunds take 14 days." in hit["_source"]["passages"][0]["text"]  # the rest stays readable
