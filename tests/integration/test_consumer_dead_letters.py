"""Poison messages go to the dead-letter topic with their original bytes and headers; good ones are indexed.

The tiny model's export record claims a 1,024-token window past its 512 positions (a
mis-exported model: the scorer trusts the record) and the scorer runs one pair per model
batch, so a long premise makes the model itself fail for that response only: a real
scoring error, dead-lettered with stage "score".

Limits are the defaults: a record just over `scorer.max_record_bytes` (1,000,000)
is refused by the decoder, and its dead letter goes through a producer with
librdkafka's default message.max.bytes, so it is stored truncated with its
original size and sha256 (the upstream producer allowed 2 MB).
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from confluent_kafka import Producer

from tests.integration.consumer_support import (
    Names, RunningConsumer, committed, count_under, create_topics, documents, opensearch, produce, read_topic,
    response, settings_for, wait_until,
)


def _produce_large(bootstrap: str, topic: str, values: list[bytes], keys: list[bytes]) -> None:
    """As an upstream producer whose topic allows records over librdkafka's default 1,000,000 bytes."""
    producer = Producer({"bootstrap.servers": bootstrap, "message.max.bytes": 2_000_000})
    for key, value in zip(keys, values):
        producer.produce(topic, value=value, key=key, headers={"origin": b"test"})
    assert producer.flush(20) == 0

pytestmark = pytest.mark.integration


@pytest.fixture()
def overclaiming_model(tiny_onnx, tmp_path):
    """The tiny ONNX model with an export record that claims a window longer than its position table."""
    model = Path(shutil.copytree(tiny_onnx, tmp_path / "overclaiming"))
    record = json.loads((model / "export.json").read_text())
    (model / "export.json").write_text(json.dumps({**record, "max_length": 1024}))
    return model


def test_poison_messages_are_dead_lettered_and_good_ones_still_indexed(kafka_bootstrap, opensearch_url,
                                                                       overclaiming_model):
    names = Names.fresh("poison")
    create_topics(kafka_bootstrap, names)
    settings = settings_for(kafka_bootstrap, opensearch_url, names, overclaiming_model, batch_size=4,
                            scorer={"max_passages": 20, "max_length": 1024, "max_batch_size": 1,
                                    "chunk_sentences": 200})
    limits = settings.scorer
    assert limits.max_record_bytes == 1_000_000 and settings.kafka.dead_letter_max_bytes == 1_000_000

    too_many = response(900, names.topic)
    too_many["passages"] = [{"id": f"p{i}", "text": "x"} for i in range(limits.max_passages + 1)]
    poison = {
        "not_json": b"{this is not json",
        "schema": json.dumps({"request_id": "no-answer", "passages": []}).encode(),
        "too_large": json.dumps({**response(901, names.topic),
                                 "question": "q" * (limits.max_record_bytes + 10)}).encode(),
        "too_many_passages": json.dumps(too_many).encode(),
    }
    unscorable = response(902, names.topic)
    unscorable["passages"][0]["text"] = " ".join(f"Refunds are accepted within {d} days." for d in range(150))
    poison["score"] = json.dumps(unscorable).encode()
    good = [response(i, names.topic) for i in range(6)]
    values = [json.dumps(good[0]).encode(), poison["not_json"], json.dumps(good[1]).encode(), poison["schema"],
              json.dumps(good[2]).encode(), poison["too_large"], poison["too_many_passages"],
              json.dumps(good[3]).encode(), poison["score"], *(json.dumps(r).encode() for r in good[4:])]
    keys = [f"key-{i}".encode() for i in range(len(values))]
    assert limits.max_record_bytes < len(poison["too_large"]) < limits.max_record_bytes + 1000, "just over"
    _produce_large(kafka_bootstrap, names.topic, values, keys)

    running = RunningConsumer.start(settings)
    try:
        wait_until(lambda: committed(kafka_bootstrap, names) == {0: len(values)}, 60, "all offsets committed")
    finally:
        assert running.stop() == 0
    assert count_under(opensearch_url, names.alias) == len(good)

    letters = read_topic(kafka_bootstrap, names.dead_letters, len(poison))
    assert len(letters) == len(poison)
    by_offset = {int(dict(m.headers())["groundwatch.source_offset"]): m for m in letters}
    for offset, reason in ((1, "not_json"), (3, "schema"), (5, "too_large"), (6, "too_many_passages")):
        letter = by_offset[offset]
        headers = dict(letter.headers())
        if reason == "too_large":  # cut to fit the dead-letter topic, never lost
            assert values[offset].startswith(letter.value()) and len(letter.value()) > 990_000
            assert headers["groundwatch.truncated"] == b"value"
            assert headers["groundwatch.original_size"] == str(len(values[offset])).encode()
            assert headers["groundwatch.original_sha256"] == hashlib.sha256(values[offset]).hexdigest().encode()
        else:
            assert letter.value() == values[offset], f"{reason}: the original bytes"
            assert "groundwatch.truncated" not in headers
        assert headers["groundwatch.reason"] == reason.encode()
        assert letter.key() == f"{names.topic}/0/{offset}".encode(), "keyed by source coordinates"
        assert headers["groundwatch.source_key"] == keys[offset], "the original key is kept"
        assert headers["origin"] == b"test", "original headers are kept"
        assert headers["groundwatch.stage"] == b"decode"
        assert headers["groundwatch.error_class"] == b"InvalidResponse"
        assert headers["groundwatch.source_topic"] == names.topic.encode()
        assert headers["groundwatch.source_partition"] == b"0"
        assert headers["groundwatch.error"], "the error names the problem"
        assert running.metrics.dead_letters.labels("decode", reason)._value.get() == 1
    assert b"passages" in dict(by_offset[6].headers())["groundwatch.error"]

    scoring = by_offset[8]
    headers = dict(scoring.headers())
    assert scoring.value() == poison["score"] and headers["groundwatch.source_key"] == keys[8]
    # The model itself failed on that response's batch: stage score, reason inference, the runtime's class.
    assert (headers["groundwatch.stage"], headers["groundwatch.reason"]) == (b"score", b"inference")
    assert headers["groundwatch.error_class"] not in (b"", b"ScoringError")
    assert headers["groundwatch.source_offset"] == b"8" and headers["origin"] == b"test"
    assert sum(s._value.get() for s in _children(running.metrics.scorer_errors)) == 1
    assert running.metrics.scorer_errors.labels("inference")._value.get() == 1


def _children(counter):
    return [counter.labels(*labels) for labels in counter._metrics]


def test_documents_the_store_refuses_for_good_are_dead_lettered_and_committed(
        kafka_bootstrap, opensearch_url, tiny_onnx):
    names = Names.fresh("refused")
    create_topics(kafka_bootstrap, names)
    settings = settings_for(kafka_bootstrap, opensearch_url, names, tiny_onnx, batch_size=4)
    # A month index someone created by hand with a conflicting type: numeric request ids only.
    index = f"{names.prefix}-2026.11"
    opensearch(opensearch_url).indices.create(index=index, body={
        "mappings": {"properties": {"request_id": {"type": "long"}}}, "aliases": {names.alias: {}}})
    numeric = {**response(0, names.topic), "request_id": "12345"}
    textual = response(1, names.topic)
    produce(kafka_bootstrap, names.topic, [json.dumps(numeric).encode(), json.dumps(textual).encode()],
            [b"12345", textual["request_id"].encode()])

    running = RunningConsumer.start(settings)
    try:
        wait_until(lambda: committed(kafka_bootstrap, names) == {0: 2}, 60, "both offsets committed")
    finally:
        assert running.stop() == 0
    assert [d["request_id"] for d in documents(opensearch_url, names.alias)] == ["12345"]
    letters = read_topic(kafka_bootstrap, names.dead_letters, 1)
    assert len(letters) == 1
    headers = dict(letters[0].headers())
    assert headers["groundwatch.stage"] == b"sink" and headers["groundwatch.source_offset"] == b"1"
    assert headers["groundwatch.error"].startswith(b"opensearch: 400 ")
    assert headers["groundwatch.reason"] == b"rejected"
    assert letters[0].value() == json.dumps(textual).encode()
    assert running.metrics.dead_letters.labels("sink", "rejected")._value.get() == 1


def test_responses_over_the_claim_cap_or_failing_a_stage_are_dead_lettered_and_the_job_goes_on(
        kafka_bootstrap, opensearch_url, tiny_onnx, monkeypatch):
    names = Names.fresh("total")
    create_topics(kafka_bootstrap, names)
    settings = settings_for(kafka_bootstrap, opensearch_url, names, tiny_onnx, batch_size=4,
                            scorer={"max_claims": 4})
    many = response(100, names.topic)
    many["answer"] = " ".join(f"Refunds are accepted within {d} days." for d in range(6))
    broken = response(101, names.topic)
    broken["passages"][1]["text"] = "EXPLODE " + broken["passages"][1]["text"]
    good = [response(i, names.topic) for i in range(4)]
    records = [good[0], many, good[1], broken, good[2], good[3]]
    produce(kafka_bootstrap, names.topic, [json.dumps(r).encode() for r in records],
            [r["request_id"].encode() for r in records])

    running = RunningConsumer.start(settings)
    # A stage that raises for one response only (as a tokenizer or guard bug would).
    original = running.scorer.pairs.submit

    def submit(pairs, expires_at=None):
        if any(premise.startswith("EXPLODE") for premise, _ in pairs):
            raise RuntimeError("pair submission broke")
        return original(pairs, expires_at)

    monkeypatch.setattr(running.scorer.pairs, "submit", submit)
    try:
        wait_until(lambda: committed(kafka_bootstrap, names) == {0: len(records)}, 60, "all offsets committed")
    finally:
        assert running.stop() == 0
    assert count_under(opensearch_url, names.alias) == len(good)
    letters = {int(dict(m.headers())["groundwatch.source_offset"]): dict(m.headers())
               for m in read_topic(kafka_bootstrap, names.dead_letters, 2)}
    assert sorted(letters) == [1, 3]
    assert (letters[1]["groundwatch.stage"], letters[1]["groundwatch.reason"]) == (b"score", b"too_many_claims")
    assert b"scorer.max_claims (4)" in letters[1]["groundwatch.error"]
    assert (letters[3]["groundwatch.reason"], letters[3]["groundwatch.error_class"]) == (b"pairs", b"RuntimeError")
    assert running.metrics.dead_letters.labels("score", "too_many_claims")._value.get() == 1
