"""Two consumers in one group share the partitions; every response is indexed once.
Prometheus scrapes a consumer's metrics endpoint."""

from __future__ import annotations

import json
import urllib.parse
import urllib.request

import pytest

from groundwatch.export.metrics_server import MetricsServer
from groundwatch.scorers.identity import document_id
from tests.integration.consumer_support import (
    Names, RunningConsumer, committed, count_under, create_topics, documents, produce, produce_responses,
    response, settings_for, wait_until,
)

pytestmark = pytest.mark.integration

PARTITIONS = 2
N = 30


def _assigned(running: RunningConsumer) -> set[int]:
    return {partition for _, partition in running.job.app.assigned}


def test_two_consumers_share_the_partitions_and_index_everything_once(kafka_bootstrap, opensearch_url, tiny_onnx):
    names = Names.fresh("group")
    create_topics(kafka_bootstrap, names, partitions=PARTITIONS)
    settings = settings_for(kafka_bootstrap, opensearch_url, names, tiny_onnx, batch_size=4)

    first = RunningConsumer.start(settings)
    second = None
    try:
        wait_until(lambda: _assigned(first) == {0, 1}, 30, "the first consumer to own both partitions")
        second = RunningConsumer.start(settings)
        wait_until(lambda: len(_assigned(first)) == 1 and len(_assigned(second)) == 1, 40,
                   "the partitions to be split between the two")
        assert _assigned(first) | _assigned(second) == {0, 1}

        records = [response(i, names.topic) for i in range(N)]
        for partition in range(PARTITIONS):
            mine = records[partition::PARTITIONS]
            produce(kafka_bootstrap, names.topic, [json.dumps(r).encode() for r in mine],
                    [r["request_id"].encode() for r in mine], partition=partition)
        half = N // PARTITIONS
        wait_until(lambda: committed(kafka_bootstrap, names, PARTITIONS) == {0: half, 1: half}, 60,
                   "both partitions committed")
    finally:
        for running in (first, second):
            if running is not None:
                assert running.stop() == 0

    assert first.batches and second.batches, "both consumers did work"
    partitions_of = lambda r: {m.partition() for b in r.batches for m in b.messages}  # noqa: E731
    assert partitions_of(first).isdisjoint(partitions_of(second))
    ids = [d["_id"] for d in documents(opensearch_url, names.alias)]
    assert len(ids) == len(set(ids)) == N


def test_prometheus_scrapes_the_consumer_metrics(kafka_bootstrap, opensearch_url, tiny_onnx, prometheus_factory):
    names = Names.fresh("prom")
    create_topics(kafka_bootstrap, names)
    settings = settings_for(kafka_bootstrap, opensearch_url, names, tiny_onnx, batch_size=4)
    produce_responses(kafka_bootstrap, names, 0, 8)

    running = RunningConsumer.start(settings)
    server = MetricsServer(running.metrics.registry, running.health, "127.0.0.1", 0)
    try:
        prometheus = prometheus_factory([f"127.0.0.1:{server.port}"], scrape_interval="1s")
        wait_until(lambda: count_under(opensearch_url, names.alias) == 8, 60, "8 documents")

        def scraped_total() -> float:
            query = urllib.parse.urlencode({"query": "sum(groundwatch_responses_total)"})
            with urllib.request.urlopen(f"{prometheus.url}/api/v1/query?{query}", timeout=5) as answer:
                result = json.load(answer)["data"]["result"]
            return float(result[0]["value"][1]) if result else -1.0

        wait_until(lambda: scraped_total() == 8.0, 30, "Prometheus to scrape 8 responses", step_s=0.5)
        with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/readyz", timeout=5) as ready:
            assert ready.status == 200
    finally:
        server.close()
        assert running.stop() == 0


def test_rebalance_while_the_sink_is_down_hands_the_unwritten_batch_to_the_new_owner(
        kafka_bootstrap, opensearch_url, osmem_server, tiny_onnx):
    names = Names.fresh("rebalance")
    create_topics(kafka_bootstrap, names)
    # The revoke retries the writes for 3 s, then leaves the batch uncommitted to the new owner.
    settings = settings_for(kafka_bootstrap, opensearch_url, names, tiny_onnx, batch_size=5, revoke_timeout_s=3)
    first = RunningConsumer.start(settings)
    second = None
    try:
        wait_until(lambda: _assigned(first) == {0}, 30, "the first consumer to own the partition")
        osmem_server.stop()
        try:
            records = produce_responses(kafka_bootstrap, names, 0, 5)
            failures = first.metrics.sink_failures.labels("opensearch", "unavailable")
            wait_until(lambda: failures._value.get() >= 2, 30, "the first consumer retrying")
            second = RunningConsumer.start(settings)  # its join revokes the partition from the first
            wait_until(lambda: second.health.assigned, 40, "the second consumer to join")
            wait_until(lambda: len(_assigned(first)) + len(_assigned(second)) == 1, 20, "one owner")
            assert committed(kafka_bootstrap, names) == {0: 0}, "nothing committed while nothing was written"
        finally:
            osmem_server.start()
        wait_until(lambda: committed(kafka_bootstrap, names) == {0: 5}, 60, "committed after the restart")
    finally:
        for running in (first, second):
            if running is not None:
                assert running.stop() == 0

    docs = documents(opensearch_url, names.alias)
    assert len({d["_id"] for d in docs}) == len(docs) == 5
    assert all(d["_id"] == _id_of(d) for d in docs)
    assert {_request_id_of(d) for d in docs} == {r["request_id"] for r in records}
    committed_by = [r for r in (first, second) if r.batches]
    assert sum(len(b) for r in committed_by for b in r.batches) == 5, "each message committed once"


def _request_id_of(doc: dict) -> str:
    return doc["request_id"]


def _id_of(doc: dict) -> str:
    """The id a verdict document must have: per app and tenant (groundwatch.scorers.identity)."""
    metadata = doc.get("metadata") or {}
    return document_id(metadata.get("app"), metadata.get("tenant"), doc["request_id"], doc["scorer_version"],
                       doc.get("content_hash"))


def test_revoke_finishes_and_commits_the_batch_in_flight_when_the_sink_comes_back_in_time(
        kafka_bootstrap, opensearch_url, osmem_server, tiny_onnx):
    """README: "on revoke the in-flight batch is finished and committed" (within consumer.revoke_timeout_s)."""
    names = Names.fresh("revoke")
    create_topics(kafka_bootstrap, names)
    settings = settings_for(kafka_bootstrap, opensearch_url, names, tiny_onnx, batch_size=5, revoke_timeout_s=30)
    first = RunningConsumer.start(settings)
    second = None
    try:
        wait_until(lambda: _assigned(first) == {0}, 30, "the first consumer to own the partition")
        osmem_server.stop()
        try:
            records = produce_responses(kafka_bootstrap, names, 0, 5)
            failures = first.metrics.sink_failures.labels("opensearch", "unavailable")
            wait_until(lambda: failures._value.get() >= 2, 30, "the first consumer retrying")
            second = RunningConsumer.start(settings)  # its join revokes the partition from the first
            wait_until(lambda: not first.health.assigned, 30, "the revoke to begin")
            assert committed(kafka_bootstrap, names) == {0: 0}
        finally:
            osmem_server.start()  # while the first is inside its revoke, retrying
        wait_until(lambda: committed(kafka_bootstrap, names) == {0: 5}, 60, "committed by the revoke")
        wait_until(lambda: len(_assigned(first)) + len(_assigned(second)) == 1, 30, "one owner")
    finally:
        for running in (first, second):
            if running is not None:
                assert running.stop() == 0

    assert [m.offset() for b in first.batches for m in b.messages] == list(range(5)), "the first finished it"
    assert second.batches == [], "the new owner had nothing to replay"
    docs = documents(opensearch_url, names.alias)
    assert all(d["_id"] == _id_of(d) for d in docs)
    assert sorted(_request_id_of(d) for d in docs) == sorted(r["request_id"] for r in records)
