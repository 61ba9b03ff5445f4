"""Trace topics end to end on Tansu and osmem-server: OTLP export requests written as the Collector's
Kafka exporter writes them (one request a message; spans of a trace split over messages and two
partitions, out of order), joined, scored and indexed once per expected response with the verdicts
the same responses get as groundwatch.response.v1 JSON; a held trace survives a restart, kill -9 during
held joins loses and duplicates nothing, and a trace released while the store is down is written once it
is back."""

from __future__ import annotations

import random
import time

import pytest

from groundwatch.scorers.nli.factory import DEFAULT_MODEL_DIR
from groundwatch.scorers.pipeline import Scorer
from infra.trace_kills import run_kills
from tests.integration.consumer_support import (
    Names, RunningConsumer, committed, count_under, create_topics, documents, produce, settings_for,
    wait_until,
)
from tests.otlp_apps import ENCODERS, json_path_verdicts, otlp_proto, rag_traces, split_messages

pytestmark = pytest.mark.integration

TRACES = 200  # per encoding, written by the SDK, alternating between the two conventions


def _settings(kafka, opensearch_url, names, encoding, wait_s, grace_s=0.0):
    settings = settings_for(kafka, opensearch_url, names, DEFAULT_MODEL_DIR, scorer={"backend": "fake"}, batch_size=4)
    return settings.model_copy(update={
        "kafka": settings.kafka.model_copy(update={"input_format": encoding}),
        "traces": settings.traces.model_copy(update={"release_wait_s": wait_s, "root_grace_s": grace_s})})


@pytest.mark.parametrize("encoding", ["otlp_proto", "otlp_json"])
def test_split_traces_arrive_once_each_with_the_json_verdicts(kafka_bootstrap, opensearch_url, encoding):
    names = Names.fresh(f"otlp-{encoding[5:]}")
    create_topics(kafka_bootstrap, names, partitions=2)
    # roots may come before their children (another partition): the grace lets them catch up
    settings = _settings(kafka_bootstrap, opensearch_url, names, encoding, 4.0, grace_s=3.0)
    traces = rag_traces(TRACES)
    open_trace = [s for s in rag_traces(1)[0] if s.parent is not None]  # its root never comes: released by the wait
    messages = split_messages(traces, ENCODERS[encoding], random.Random(7)) + [(0, ENCODERS[encoding](open_trace))]
    for partition, value in messages:
        produce(kafka_bootstrap, names.topic, [value], partition=partition)
    scorer = Scorer.from_config(settings.scorer)
    try:
        expected = json_path_verdicts(traces + [open_trace], scorer)
    finally:
        scorer.close()
    assert len(expected) == TRACES + 1

    running = RunningConsumer.start(settings)
    try:
        wait_until(lambda: count_under(opensearch_url, names.alias) == TRACES + 1, 180, "a document per response")
        ends = {p: sum(1 for q, _ in messages if q == p) for p in (0, 1)}
        wait_until(lambda: committed(kafka_bootstrap, names, 2) == ends, 30, "offsets committed to the end")
    finally:
        assert running.stop() == 0
    docs = documents(opensearch_url, names.alias)
    assert sorted(d["request_id"] for d in docs) == sorted(expected)
    for doc in docs:
        assert [c["verdict"] for c in doc["claims"]] == expected[doc["request_id"]]
        trace_id, span_id = doc["request_id"].split("-")
        extra = doc["metadata_extra"]  # metadata keys beyond app, model, retriever and tenant
        assert extra["trace_id"] == trace_id and extra["span_id"] == span_id
    sample = running.metrics.registry.get_sample_value
    assert sample("groundwatch_trace_joins_total", {"outcome": "released"}) == TRACES
    assert sample("groundwatch_trace_joins_total", {"outcome": "timed_out"}) == 1


def test_a_held_trace_is_read_again_after_a_restart(kafka_bootstrap, opensearch_url):
    names = Names.fresh("otlp-held")
    create_topics(kafka_bootstrap, names, partitions=1)
    closed, held = rag_traces(2)
    open_spans = [s for s in held if s.parent is not None]
    produce(kafka_bootstrap, names.topic, [otlp_proto(open_spans), otlp_proto(closed)])
    running = RunningConsumer.start(_settings(kafka_bootstrap, opensearch_url, names, "otlp_proto", 300.0))
    try:
        wait_until(lambda: count_under(opensearch_url, names.alias) == 1, 60, "the closed trace's document")
        wait_until(lambda: running.metrics.registry.get_sample_value("groundwatch_held_traces") == 1, 10,
                   "one trace held")
    finally:
        assert running.stop() == 0
    assert committed(kafka_bootstrap, names) == {0: 0}  # below the held trace's message: read again
    running = RunningConsumer.start(_settings(kafka_bootstrap, opensearch_url, names, "otlp_proto", 1.0))
    try:
        wait_until(lambda: count_under(opensearch_url, names.alias) == 2, 60, "both documents")
        wait_until(lambda: committed(kafka_bootstrap, names) == {0: 2}, 30, "offsets committed to the end")
    finally:
        assert running.stop() == 0
    assert len(documents(opensearch_url, names.alias)) == 2  # the replayed closed trace overwrote its own document


def test_sigkills_during_held_joins_lose_and_duplicate_nothing(kafka_bootstrap, opensearch_url, tmp_path):
    """The short form of `python -m infra.trace_kills` (ten kills over 200 traces per encoding)."""
    report = run_kills(kafka_bootstrap, opensearch_url, "otlp_json", traces=60, kills=3, workdir=tmp_path)
    assert report["kills"] == 3 and min(report["held_at_kill"]) > 0
    assert report["responses_expected"] == 60
    assert {k: report[k] for k in ("documents", "lost", "duplicated", "unexpected", "verdicts_differing",
                                   "dead_letters", "lag", "consumer_exit_code")} == {
        "documents": 60, "lost": 0, "duplicated": 0, "unexpected": 0, "verdicts_differing": 0, "dead_letters": 0,
        "lag": 0, "consumer_exit_code": 0}, report.get("consumer_log_tail")


def test_a_trace_released_while_the_store_is_down_is_written_once_it_is_back(kafka_bootstrap, opensearch_url,
                                                                              osmem_server):
    """A trace released by its wait, with no message polled beside it, whose write fails: the write is retried
    until the store answers, and no later batch commits past it."""
    names = Names.fresh("otlp-tick")
    create_topics(kafka_bootstrap, names, partitions=1)
    waiting, later = rag_traces(2, tag=names.topic)
    running = RunningConsumer.start(_settings(kafka_bootstrap, opensearch_url, names, "otlp_proto", 3.0))
    try:
        produce(kafka_bootstrap, names.topic, [otlp_proto([s for s in waiting if s.parent is not None])])
        wait_until(lambda: running.metrics.registry.get_sample_value("groundwatch_held_traces") == 1, 60,
                   "the rootless trace held")
        osmem_server.stop()
        try:
            wait_until(lambda: running.metrics.registry.get_sample_value("groundwatch_held_traces") == 0, 30,
                       "the trace released by its wait")
            time.sleep(2.0)  # its write fails and is retried
        finally:
            osmem_server.start()
        produce(kafka_bootstrap, names.topic, [otlp_proto(later)])
        wait_until(lambda: committed(kafka_bootstrap, names) == {0: 2}, 60, "offsets committed to the end")
        wait_until(lambda: count_under(opensearch_url, names.alias) == 2, 30, "both verdicts stored")
    finally:
        assert running.stop() == 0
