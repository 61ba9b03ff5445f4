"""Trace topics end to end on Tansu and osmem-server: OTLP export requests written as the Collector's
Kafka exporter writes them (one request a message; spans of a trace split over messages and two
partitions, out of order), joined, scored and indexed once per expected response with the verdicts
the same responses get as groundwatch.response.v1 JSON; a held trace survives a restart."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time

import pytest

from groundwatch.consumer.otlp.assemble import assemble
from groundwatch.consumer.otlp.decode import decode_request
from groundwatch.scorers.nli.factory import DEFAULT_MODEL_DIR
from groundwatch.scorers.pipeline import Scorer
from groundwatch.scorers.schema import parse_response
from tests.integration.consumer_support import (
    Names, RunningConsumer, committed, count_under, create_topics, documents, produce, settings_env, settings_for,
    wait_until,
)
from tests.otlp_apps import App, Doc, genai_app, openinference_app, otlp_json, otlp_proto

pytestmark = pytest.mark.integration

ENCODERS = {"otlp_proto": otlp_proto, "otlp_json": otlp_json}
TRACES = 100  # per encoding: 200 traces written by the SDK, half in each convention


def _traces(n: int) -> list[list]:
    """n traces, half in each convention, as lists of finished SDK spans."""
    out = []
    for i in range(n):
        app = App("shop-assistant")
        docs = [Doc(f"kb-{i}-a", f"Refunds are accepted within {30 + i % 5} days of delivery.", 0.9),
                Doc(f"kb-{i}-b", "Shipping is free for orders over $50 in the EU.", 0.4)]
        answer = f"Refunds are accepted within {30 + i % 5} days of delivery. Shipping costs $9 everywhere."
        if i % 2:
            genai_app(app, f"What is the refund window for order {i}?", answer, docs)
        else:
            openinference_app(app, f"What is the refund window for order {i}?", answer, docs)
        out.append(app.finished())
    return out


def _messages(traces: list[list], encode, rng: random.Random) -> list[tuple[int, bytes]]:
    """(partition, request): each trace's children in partition 0 and its root in partition 1, several traces a
    request, requests shuffled so a root may arrive before its children."""
    children = [s for t in traces for s in t if s.parent is not None]
    roots = [s for t in traces for s in t if s.parent is None]
    out = [(0, encode(children[i:i + 5])) for i in range(0, len(children), 5)]
    out += [(1, encode(roots[i:i + 3])) for i in range(0, len(roots), 3)]
    rng.shuffle(out)
    return out


def _expected(traces: list[list], scorer) -> dict[str, list[str]]:
    """request id -> claim verdicts, scoring the same responses from groundwatch.response.v1 JSON."""
    responses = [r for _, r in assemble(decode_request(otlp_proto([s for t in traces for s in t]), "otlp_proto"))]
    as_json = [parse_response(json.loads(r.model_dump_json(exclude_none=True))) for r in responses]
    return {v.request_id: [c.verdict.value for c in v.claims] for v in scorer.score(as_json)}


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
    traces = _traces(TRACES)
    open_trace = [s for s in _traces(1)[0] if s.parent is not None]  # its root never comes: released by the wait
    messages = _messages(traces, ENCODERS[encoding], random.Random(7)) + [(0, ENCODERS[encoding](open_trace))]
    for partition, value in messages:
        produce(kafka_bootstrap, names.topic, [value], partition=partition)
    scorer = Scorer.from_config(settings.scorer)
    try:
        expected = _expected(traces + [open_trace], scorer)
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
    closed, held = _traces(2)
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


def test_sigkill_during_held_joins_loses_and_duplicates_nothing(kafka_bootstrap, opensearch_url, tmp_path):
    names = Names.fresh("otlp-kill")
    create_topics(kafka_bootstrap, names, partitions=2)
    settings = _settings(kafka_bootstrap, opensearch_url, names, "otlp_proto", 3.0, grace_s=1.5)
    waves = [_traces(20) for _ in range(3)]
    messages = [_messages(wave, otlp_proto, random.Random(11 + i)) for i, wave in enumerate(waves)]
    env = {**os.environ, **settings_env(settings), "GROUNDWATCH_METRICS__HOST": "127.0.0.1",
           "GROUNDWATCH_METRICS__PORT": "0", "GROUNDWATCH_SCORER__BACKEND": "fake",
           "GROUNDWATCH_TRACES__RELEASE_WAIT_S": "3.0", "GROUNDWATCH_TRACES__ROOT_GRACE_S": "1.5"}
    log = open(tmp_path / "consume.log", "wb")
    process = subprocess.Popen([sys.executable, "-m", "groundwatch.cli", "consume"], env=env, stdout=log,
                               stderr=subprocess.STDOUT)
    try:
        for partition, value in messages[0]:
            produce(kafka_bootstrap, names.topic, [value], partition=partition)
        wait_until(lambda: process.poll() is not None or count_under(opensearch_url, names.alias) == 20, 120,
                   "the first wave judged")
        assert process.poll() is None, (tmp_path / "consume.log").read_text()[-3000:]
        for partition, value in messages[1]:  # the second wave is polled and held (root grace 1.5 s) ...
            produce(kafka_bootstrap, names.topic, [value], partition=partition)
        time.sleep(0.8)
        process.send_signal(signal.SIGKILL)  # ... when the process dies: no drain, no commit
        assert process.wait(10) == -signal.SIGKILL
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert count_under(opensearch_url, names.alias) == 20, "killed while the second wave was held"
    for partition, value in messages[2]:
        produce(kafka_bootstrap, names.topic, [value], partition=partition)
    ends = {p: sum(1 for wave in messages for q, _ in wave if q == p) for p in (0, 1)}

    running = RunningConsumer.start(settings)
    try:
        wait_until(lambda: committed(kafka_bootstrap, names, 2) == ends, 120, "the rest after restart")
        wait_until(lambda: count_under(opensearch_url, names.alias) == 60, 30, "a document per response")
    finally:
        assert running.stop() == 0
    scorer = Scorer.from_config(settings.scorer)
    try:
        expected = _expected([t for wave in waves for t in wave], scorer)
    finally:
        scorer.close()
    docs = documents(opensearch_url, names.alias)
    assert sorted(d["request_id"] for d in docs) == sorted(expected)  # none lost, none twice
    for doc in docs:
        assert [c["verdict"] for c in doc["claims"]] == expected[doc["request_id"]]
