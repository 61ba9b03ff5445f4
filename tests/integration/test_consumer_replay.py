"""A replay lands in the same indices: the index comes from the response's timestamp, else from the
Kafka message's timestamp (both the same on every replay), never from scored_at or the clock.

Responses without a timestamp are produced with Kafka timestamps on both sides of a month
boundary; the topic is consumed, then replayed from the start by a second group into the same
alias. The alias must hold one document per response, in the month of its message.
"""

from __future__ import annotations

import dataclasses
import json
from datetime import datetime, timezone

import pytest
from confluent_kafka import Producer

from tests.integration.consumer_support import (
    Names, RunningConsumer, committed, count_under, create_topics, documents, opensearch, response, settings_for,
    wait_until,
)

pytestmark = pytest.mark.integration

JANUARY = datetime(2026, 1, 31, 23, 59, 58, tzinfo=timezone.utc)
FEBRUARY = datetime(2026, 2, 1, 0, 0, 1, tzinfo=timezone.utc)


def _millis(when: datetime) -> int:
    return int(when.timestamp() * 1000)


def _consume_all(settings, bootstrap: str, names: Names, n: int) -> RunningConsumer:
    running = RunningConsumer.start(settings)
    try:
        wait_until(lambda: committed(bootstrap, names) == {0: n}, 60, f"{n} offsets committed")
    finally:
        assert running.stop() == 0
    return running


def test_a_replay_across_a_month_boundary_overwrites_in_the_same_indices(kafka_bootstrap, opensearch_url, tiny_onnx):
    names = Names.fresh("replay")
    create_topics(kafka_bootstrap, names)
    undated = []
    for i in range(6):
        record = response(i, names.topic)
        del record["timestamp"]
        undated.append((record, JANUARY if i < 3 else FEBRUARY))
    dated = [(dict(response(i, names.topic), timestamp="2025-12-15T08:00:00+00:00"), FEBRUARY) for i in (6, 7)]
    producer = Producer({"bootstrap.servers": kafka_bootstrap})
    for record, when in undated + dated:
        producer.produce(names.topic, value=json.dumps(record).encode(), key=record["request_id"].encode(),
                         timestamp=_millis(when))
    assert producer.flush(10) == 0
    n = len(undated) + len(dated)

    settings = settings_for(kafka_bootstrap, opensearch_url, names, tiny_onnx, batch_size=3)
    _consume_all(settings, kafka_bootstrap, names, n)
    first = {d["_id"]: d["scored_at"] for d in documents(opensearch_url, names.alias)}
    assert len(first) == n

    replay = dataclasses.replace(names, group=f"{names.group}-replay")  # the same topic and alias, from the start
    _consume_all(settings_for(kafka_bootstrap, opensearch_url, replay, tiny_onnx, batch_size=3), kafka_bootstrap,
                 replay, n)

    assert count_under(opensearch_url, names.alias) == n, "the replay overwrote; it did not add"
    docs = documents(opensearch_url, names.alias)
    assert sorted(d["_id"] for d in docs) == sorted(first)
    assert all(d["scored_at"] > first[d["_id"]] for d in docs), "every document was written again"
    client = opensearch(opensearch_url)
    by_index = {index: client.count(index=index)["count"]
                for index in client.indices.get_alias(name=names.alias)}
    # (The job creates the current period's index at start-up; it stays empty: nothing is dated by the clock.)
    assert {index: n for index, n in by_index.items() if n} == \
        {f"{names.prefix}-2025.12": 2, f"{names.prefix}-2026.01": 3, f"{names.prefix}-2026.02": 3}
