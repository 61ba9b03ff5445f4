"""N responses in -> N verdict documents with the right evidence ids, alerts, offsets committed = N."""

from __future__ import annotations

import json

import pytest

from groundwatch.export.opensearch_sink import OpenSearchSink
from groundwatch.reports.verdict_store import find_by_request_id
from tests.integration.consumer_support import (
    Names, RunningConsumer, committed, count_under, create_topics, documents, expected_id, opensearch,
    produce_responses, read_topic, settings_for, wait_until,
)

pytestmark = pytest.mark.integration

N = 24


def test_every_response_is_indexed_once_with_its_evidence_and_offsets_committed(
        kafka_bootstrap, opensearch_url, tiny_onnx):
    names = Names.fresh("roundtrip")
    create_topics(kafka_bootstrap, names)
    settings = settings_for(kafka_bootstrap, opensearch_url, names, tiny_onnx, batch_size=5)
    sent = {r["request_id"]: r for r in produce_responses(kafka_bootstrap, names, 0, N)}

    running = RunningConsumer.start(settings)
    try:
        wait_until(lambda: count_under(opensearch_url, names.alias) == N, 60, f"{N} documents")
        wait_until(lambda: committed(kafka_bootstrap, names) == {0: N}, 20, "offsets committed")
    finally:
        assert running.stop() == 0

    docs = documents(opensearch_url, names.alias)
    assert sorted(d["_id"] for d in docs) == sorted(expected_id(r, running.scorer.version) for r in sent.values())
    for doc in docs:
        passage_ids = [p["id"] for p in sent[doc["request_id"]]["passages"]]
        assert doc["passage_ids"] == passage_ids
        assert doc["metadata"] == {"app": "shop-assistant", "model": "gen-1", "tenant": "acme"}
        scored = [c for c in doc["claims"] if c["verdict"] != "SKIPPED"]
        assert len(doc["claims"]) == 3 and len(scored) == 2  # "Hope this helps!" is decorative
        for claim in scored:
            assert claim["evidence"], "a scored claim has premises"
            for evidence in claim["evidence"]:
                assert set(evidence["passage_ids"]) <= set(passage_ids)
                assert len(evidence["offsets"]) == len(evidence["passage_ids"])
    # Time-based index behind the alias, named from the response timestamp.
    client = opensearch(opensearch_url)
    # (The job also creates the current period's index at start-up; only the dated one holds documents.)
    assert {index for index in client.indices.get_alias(name=names.alias)
            if client.count(index=index)["count"]} == {f"{names.prefix}-2026.11"}
    mapping = client.indices.get_mapping(index=f"{names.prefix}-2026.11")
    assert mapping[f"{names.prefix}-2026.11"]["mappings"]["properties"]["claims"]["type"] == "nested"

    # One alert per response that calls for one, keyed by app and request id, without answer text.
    expected_alerts = {f"shop-assistant:{d['request_id']}" for d in docs if _needs_alert(d)}
    alerts = read_topic(kafka_bootstrap, names.alerts, len(expected_alerts))
    assert {m.key().decode() for m in alerts} == expected_alerts
    for message in alerts:
        alert = json.loads(message.value())
        assert f"{alert['metadata']['app']}:{alert['request_id']}" == message.key().decode()
        assert "text" not in json.dumps(alert["claims"])
        assert "Refunds" not in message.value().decode()

    # The trace helper finds a verdict through the alias.
    sink = OpenSearchSink(settings.opensearch)
    try:
        found = find_by_request_id(sink.client, settings.opensearch.alias, f"{names.topic}-0003")
        assert [d["request_id"] for d in found] == [f"{names.topic}-0003"]
    finally:
        sink.close()

    # Metrics count what was scored.
    responses = [sample for family in running.metrics.registry.collect() if family.name == "groundwatch_responses"
                 for sample in family.samples if sample.name == "groundwatch_responses_total"]
    assert sum(sample.value for sample in responses) == N
    assert {sample.labels["scorer_version"] for sample in responses} == {running.scorer.version}
    assert running.batches and all(len(b) <= 5 for b in running.batches)
    assert running.committed_offsets() == list(range(N))


def _needs_alert(doc: dict) -> bool:
    return any(c["verdict"] == "CONTRADICTED" or (c["severity"] == "high" and c["verdict"] == "NOT_ENOUGH_INFO")
               for c in doc["claims"])

