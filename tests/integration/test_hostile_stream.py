"""Hostile traffic through the real local stack: crafted records interleaved with normal ones.

Tansu and osmem-server as the session starts them, the job in a thread with the tiny ONNX model
(a real scorer; random weights, so verdicts mean nothing here). Crafted records: JSON nested past
the parser, walls of text near the 1 MB record limit, huge claim lists, bad JSON, binary, an empty
value, request ids over the limit and at it (512 four-byte characters), a timestamp from 1901,
2,000 unknown metadata keys. The properties: every normal record gets its document, every crafted
one a document or a dead letter, every offset is committed, the consumer never exits, and two apps
that reuse a request id keep two documents.

A batch's first scorer call ends after 4 s (consumer.first_try_s); a record still unscored then is
tried again (consumer/late.py, deadline 60 s) after the verdicts settled before it are written. So
every normal record's document appears within 30 s of its batch's poll, however slow the crafted
record beside it: asserted, and printed with `pytest -s`.
"""

from __future__ import annotations

import json
import time

import pytest
from confluent_kafka import Producer

from tests.integration.consumer_support import (
    Names, RunningConsumer, committed, create_topics, documents, expected_id, read_topic, response, settings_for,
    wait_until,
)

pytestmark = pytest.mark.integration

WALL_WORDS = ["refund", "window", "parcel", "tariff", "ledger", "quota", "basket", "voucher", "courier"]


def _wall(chars: int, seed: int) -> str:
    """Unpunctuated words: one sentence, one chunk, as long as asked."""
    words = (WALL_WORDS[(i * 7 + seed) % len(WALL_WORDS)] + str(i % 97) for i in range(chars // 8 + 1))
    return " ".join(words)[:chars]


def crafted(prefix: str) -> dict[str, bytes]:
    """Records built to hurt, by name; each under the 1 MB record limit unless its point is size."""
    def record(i: int, **changes) -> dict:
        return {**response(900 + i, prefix), **changes}

    many_keys = record(7)
    many_keys["metadata"] = {**many_keys["metadata"], **{f"k{j}.x{j % 13}": "v" * 40 for j in range(2000)}}
    return {
        "deep_nesting": b'{"a":' * 150_000 + b"1" + b"}" * 150_000,
        "passage_walls": json.dumps(record(1, passages=[{"id": f"w{j}", "text": _wall(99_000, j)}
                                                        for j in range(9)])).encode(),
        "answer_wall": json.dumps(record(2, answer=_wall(19_500, 3))).encode(),
        "passage_over_limit": json.dumps(record(3, passages=[{"id": "big", "text": _wall(150_000, 4)}])).encode(),
        "claims_over_limit": json.dumps(record(4, claims=["Refunds take 30 days."] * 5000)).encode(),
        "claims_at_limit": json.dumps(record(5, claims=[_wall(1_990, j) for j in range(128)])).encode(),
        "bad_json": b'{"request_id": "x", "answer": "Refunds take 30 days.", "passages": [',
        "binary": bytes(range(256)) * 64,
        "invalid_utf8": b'{"request_id": "\xff\xfe", "answer": "a", "passages": []}',
        "empty": b"",
        "request_id_over_limit": json.dumps(record(6, request_id="r" * 600)).encode(),
        "request_id_at_limit": json.dumps(record(8, request_id="\U0001F600" * 512)).encode(),
        "far_past_timestamp": json.dumps(record(9, timestamp="1901-01-01T00:00:00+00:00")).encode(),
        "unknown_metadata_keys": json.dumps(many_keys).encode(),
    }


def _produce(bootstrap: str, topic: str, values: list[bytes]) -> None:
    producer = Producer({"bootstrap.servers": bootstrap, "message.max.bytes": 2_000_000})
    for i, value in enumerate(values):
        producer.produce(topic, value=value, key=f"k{i}".encode())
    assert producer.flush(30) == 0


def test_crafted_records_never_stall_normal_ones(kafka_bootstrap, opensearch_url, tiny_onnx):
    names = Names.fresh("hostile")
    create_topics(kafka_bootstrap, names)
    settings = settings_for(kafka_bootstrap, opensearch_url, names, tiny_onnx, batch_size=8,
                            scorer={"batch_deadline_s": 60.0, "future_timeout_s": 60.0},
                            late_retry_wait_s=0.2, first_try_s=4.0)
    normal = [response(i, names.topic) for i in range(26)]
    shared = [{**response(100, names.topic), "request_id": "shared-42", "metadata": {"app": app}}
              for app in ("shop", "bank")]
    normal += shared
    bad = crafted(names.topic)
    values, kinds = [], []
    for i, record in enumerate(normal):  # a crafted record after every other normal one
        values.append(json.dumps(record).encode())
        kinds.append(("normal", i))
        if i % 2 == 1 and i // 2 < len(bad):
            name = list(bad)[i // 2]
            values.append(bad[name])
            kinds.append(("crafted", name))
    assert len([k for k in kinds if k[0] == "crafted"]) == len(bad), "every crafted record is sent"
    assert max(len(v) for v in values) < 1_000_000

    running = RunningConsumer.start(settings)
    committed_at: dict[int, float] = {}

    def batch_done(batch) -> None:  # a batch is polled right after the one before it is committed
        running.batches.append(batch)
        committed_at[batch.number] = time.monotonic()

    running.job.app.on_batch_done = batch_done
    try:
        wait_until(lambda: running.job.app.assigned, 30, "partition assigned")
        produced_at = time.monotonic()
        _produce(kafka_bootstrap, names.topic, values)
        seen: dict[str, float] = {}

        def all_committed() -> bool:
            for doc in documents(opensearch_url, names.alias):
                seen.setdefault(doc["_id"], time.monotonic())
            assert running.thread.is_alive() and running.exit_code is None, "the consumer exited"
            return committed(kafka_bootstrap, names) == {0: len(values)}

        wait_until(all_committed, 180, "every offset committed", step_s=0.5)
        assert running.thread.is_alive(), "the consumer exited"
    finally:
        assert running.stop() == 0
    docs = documents(opensearch_url, names.alias)
    version = docs[0]["scorer_version"]
    by_id = {d["_id"]: d for d in docs}

    def doc_for(record: dict):
        return by_id.get(expected_id(record, version))

    batch_of = {m.offset(): b.number for b in running.batches for m in b.messages}
    after_poll_s = []
    for offset, (kind, i) in enumerate(kinds):
        if kind == "normal":
            doc = doc_for(normal[i])
            assert doc is not None, f"no document for normal record {normal[i]['request_id']}"
            number = batch_of[offset]
            after_poll_s.append(seen[doc["_id"]] - committed_at.get(number - 1, produced_at))
    assert {d["metadata"]["app"] for d in docs if d["request_id"] == "shared-42"} == {"shop", "bank"}

    # At most one dead letter per crafted record (a replay resends the same key): read until that many or 10 s.
    letters = read_topic(kafka_bootstrap, names.dead_letters, len(bad), timeout_s=10)
    dead = {int(dict(m.headers())["groundwatch.source_offset"]): dict(m.headers()) for m in letters}
    outcome = {}
    for offset, (kind, name) in enumerate(kinds):
        if kind != "crafted":
            assert offset not in dead, f"normal record at offset {offset} was dead-lettered"
            continue
        value = values[offset]
        record = json.loads(value) if name in ("passage_walls", "answer_wall", "claims_at_limit",
                                               "request_id_at_limit", "far_past_timestamp",
                                               "unknown_metadata_keys") else None
        doc = doc_for(record) if record is not None else None
        assert (doc is None) != (offset not in dead), f"{name}: exactly one of a document and a dead letter"
        outcome[name] = (doc and "document") or dead[offset]["groundwatch.reason"].decode()
    # Refused before any work, whatever the machine: these reasons do not depend on timing.
    assert outcome["deep_nesting"] == "too_deep" and outcome["passage_over_limit"] == "passage_too_long"
    assert outcome["claims_over_limit"] == "too_many_claims" and outcome["empty"] == "empty"
    assert outcome["request_id_over_limit"] == "schema"
    for name in ("bad_json", "binary", "invalid_utf8"):
        assert outcome[name] in ("not_json", "schema"), (name, outcome[name])
    for name in ("request_id_at_limit", "far_past_timestamp", "unknown_metadata_keys"):
        assert outcome[name] == "document", (name, outcome[name])
    old = doc_for(json.loads(bad["far_past_timestamp"]))
    assert "timestamp_replaced" in old["store_flags"] and old["original_timestamp"].startswith("1901")
    extra = doc_for(json.loads(bad["unknown_metadata_keys"]))
    assert "metadata_keys_dropped" in extra["store_flags"]
    # Seconds from a batch's poll (about when the batch before it was committed) until each normal
    # record's document was seen (searched every 0.5 s).
    assert max(after_poll_s) < 30, f"a normal record's document came {max(after_poll_s):.1f} s after its poll"
    print(json.dumps({"outcomes": outcome, "normal_document_after_poll_s": {
        "max": round(max(after_poll_s), 1), "median": round(sorted(after_poll_s)[len(after_poll_s) // 2], 1)},
        "batches": len(running.batches)}))
