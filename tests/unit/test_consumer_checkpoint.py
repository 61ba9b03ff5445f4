"""The checkpoint stage: order of writes, permanent vs transient errors, dead letters that fit the topic."""

from __future__ import annotations

import hashlib
from datetime import datetime, timezone

import pytest
from confluent_kafka import KafkaError, KafkaException, Message, Producer

from groundwatch.consumer.batch import Batch, Scored
from groundwatch.consumer.checkpoint import Checkpoint, Sinks
from groundwatch.consumer.dead_letters import (
    ORIGINAL_SHA256, ORIGINAL_SIZE, RECORD_OVERHEAD, TRUNCATED, DeadLetter, DeadLetterWriter, dead_letter_record,
)
from groundwatch.export.base import ItemFailure, SinkError, SinkUnavailable
from groundwatch.export.delivery import DEFAULT_MESSAGE_MAX_BYTES, Record, produce_and_confirm
from groundwatch.export.metrics import Metrics
from groundwatch.export.opensearch_sink import OpenSearchSink
from groundwatch.scorers.records import Verdict
from tests.unit.verdicts import claim, verdict

MAX_RECORD_BYTES = 1_000_000  # scorer.max_record_bytes default


def _msg(offset: int, value: bytes = b"{}", partition: int = 0) -> Message:
    return Message(topic="in", partition=partition, offset=offset, key=b"k", value=value,
                   headers=[("trace", b"abc")])


class FakeProducer:
    """Acknowledges records up to `broker_limit` bytes; refuses larger ones like a broker would."""

    def __init__(self, broker_limit: int = 10**9, local_limit: int = DEFAULT_MESSAGE_MAX_BYTES,
                 transient: str | None = None):
        self.broker_limit, self.local_limit, self.transient = broker_limit, local_limit, transient
        self.acked: list[Record] = []
        self._reports = []

    def produce(self, topic, value=None, key=None, headers=None, on_delivery=None):
        record = Record(topic, value, key, list(headers or []))
        if record.size > self.local_limit:
            raise KafkaException(KafkaError(KafkaError.MSG_SIZE_TOO_LARGE))
        if self.transient:
            error = KafkaError(getattr(KafkaError, self.transient))
        elif record.size > self.broker_limit:
            error = KafkaError(KafkaError.MSG_SIZE_TOO_LARGE)
        else:
            error = None
            self.acked.append(record)
        self._reports.append((on_delivery, error))

    def flush(self, timeout=None):
        for callback, error in self._reports:
            callback(error, None)
        self._reports = []
        return 0

    def poll(self, timeout=None):
        return 0


class FakeConsumer:
    def __init__(self, log: list):
        self.log = log
        self.committed = []

    def store_offsets(self, offsets):
        self.committed.append([(tp.partition, tp.offset) for tp in offsets])

    def commit(self, asynchronous=True):
        self.log.append("commit")


class FakeSink:
    def __init__(self, name: str, log: list, failures: list | None = None):
        self.name, self.log, self.failures = name, log, list(failures or [])
        self.written: list[list[str]] = []
        self.event_times: list = []

    def write(self, verdicts, event_times=None):
        self.log.append(self.name)
        self.written.append([v.request_id for v in verdicts])
        self.event_times.append(event_times)
        if self.failures:
            raise self.failures.pop(0)

    def close(self):
        pass


class RecordingWriter(DeadLetterWriter):
    def __init__(self, log: list, producer=None):
        super().__init__(producer or FakeProducer(), "dlq", 1.0)
        self.log = log

    def send(self, letters):
        self.log.append("dead_letters")
        super().send(letters)


def _batch(n: int = 3) -> Batch:
    batch = Batch([_msg(i) for i in range(n)], number=1)
    batch.scored = [Scored(m, _verdict(f"r-{m.offset()}")) for m in batch.messages]
    batch.prepared = True
    return batch


def _checkpoint(store, others=(), producer=None):
    log = store.log
    consumer = FakeConsumer(log)
    return Checkpoint(consumer, RecordingWriter(log, producer), Sinks(store, list(others)), Metrics()), consumer


# -- dead letters that fit the topic -------------------------------------------------------------

def test_a_record_just_over_max_record_bytes_is_stored_truncated_with_size_and_hash():
    original = b"x" * (MAX_RECORD_BYTES + 10)
    letter = DeadLetter(_msg(7, original), "decode", "InvalidResponse", "record too large", "too_large")
    record = dead_letter_record("dlq", letter)
    headers = dict(record.headers)
    assert record.size + RECORD_OVERHEAD <= DEFAULT_MESSAGE_MAX_BYTES
    assert original.startswith(record.value) and len(record.value) > 990_000
    assert headers[TRUNCATED] == b"value"
    assert headers[ORIGINAL_SIZE] == str(len(original)).encode()
    assert headers[ORIGINAL_SHA256] == hashlib.sha256(original).hexdigest().encode()
    assert headers["trace"] == b"abc" and headers["groundwatch.reason"] == b"too_large"
    # librdkafka with its default message.max.bytes accepts it (no broker needed to check).
    producer = Producer({"bootstrap.servers": "127.0.0.1:9", "message.timeout.ms": 1000})
    producer.produce("dlq", value=record.value, key=record.key, headers=record.headers)
    with pytest.raises(KafkaException, match="MSG_SIZE_TOO_LARGE"):
        producer.produce("dlq", value=original, key=b"k")
    producer.purge()


def test_a_small_dead_letter_keeps_every_byte():
    record = dead_letter_record("dlq", DeadLetter(_msg(1, b"{oops"), "decode", "InvalidResponse", "x", "not_json"))
    assert record.value == b"{oops" and TRUNCATED not in dict(record.headers)


def test_a_topic_smaller_than_the_setting_gets_less_until_it_fits_never_nothing():
    producer = FakeProducer(broker_limit=100_000)
    letter = DeadLetter(_msg(3, b"y" * 900_000), "decode", "InvalidResponse", "too large", "too_large")
    DeadLetterWriter(producer, "dlq", 1.0).send([letter])
    [stored] = producer.acked
    headers = dict(stored.headers)
    assert stored.size <= 100_000 and headers[ORIGINAL_SIZE] == b"900000"
    assert headers["groundwatch.source_offset"] == b"3"


def test_a_transient_dead_letter_failure_is_retried_not_dropped():
    producer = FakeProducer(transient="_MSG_TIMED_OUT")
    letter = DeadLetter(_msg(3), "decode", "InvalidResponse", "x", "schema")
    with pytest.raises(SinkUnavailable):
        DeadLetterWriter(producer, "dlq", 1.0).send([letter])


# -- classification --------------------------------------------------------------------------------

def test_kafka_errors_for_the_record_itself_are_permanent():
    producer = FakeProducer(local_limit=100)
    records = [Record("alerts", b"small", b"a"), Record("alerts", b"z" * 200, b"b")]
    with pytest.raises(SinkError) as caught:
        produce_and_confirm(producer, records, 1.0, "alerts", ids=["doc-a", "doc-b"])
    assert not isinstance(caught.value, SinkUnavailable)
    assert [(f.doc_id, f.status, f.label, f.permanent) for f in caught.value.failures] == \
        [("doc-b", 413, "too_large", True)]
    with pytest.raises(SinkUnavailable):
        produce_and_confirm(FakeProducer(transient="_MSG_TIMED_OUT"), records[:1], 1.0, "alerts")


@pytest.mark.parametrize(("status", "permanent"), [(400, True), (413, True), (422, True), (401, False),
                                                   (403, False), (404, False), (429, False), (503, False)])
def test_http_statuses_that_refuse_a_document_for_good(status, permanent):
    assert ItemFailure("d", status, "t", "r").permanent is permanent


class _Client:
    """bulk() answers 413 for any request carrying the oversized document."""

    def __init__(self):
        self.requests = 0

        class Indices:
            def put_index_template(self, **kw): pass

            def create(self, **kw): pass

        self.indices = Indices()

    def search(self, **kw):  # the sink's look-up of stored duplicates: none stored
        return {"hits": {"hits": []}}

    def bulk(self, body):
        from opensearchpy.exceptions import TransportError

        self.requests += 1
        if "HUGE" in body:
            raise TransportError(413, "request_entity_too_large", {})
        lines = body.splitlines()
        return {"errors": False, "items": [{"index": {"status": 201}} for _ in lines[::2]]}


def test_a_bulk_refused_whole_for_one_document_is_split_down_to_that_document():
    from groundwatch.config.settings import OpenSearchSettings

    client = _Client()
    sink = OpenSearchSink(OpenSearchSettings(), client=client)
    verdicts = [_verdict(f"r-{i}") for i in range(8)]
    verdicts[5] = _verdict("HUGE")
    with pytest.raises(SinkError) as caught:
        sink.write(verdicts)
    assert [(f.doc_id, f.status) for f in caught.value.failures] == [(verdicts[5].doc_id, 413)]
    assert caught.value.permanent and client.requests <= 1 + 2 * 3


# -- the checkpoint ------------------------------------------------------------------------------

def test_order_is_dead_letters_store_other_sinks_commit():
    log: list = []
    store, alerts = FakeSink("opensearch", log), FakeSink("alerts", log)
    checkpoint, consumer = _checkpoint(store, [alerts])
    batch = _batch()
    batch.add_dead_letters([DeadLetter(_msg(3), "decode", "InvalidResponse", "x", "schema")])
    batch.messages.append(batch.dead[0].message)
    checkpoint.attempt(batch)
    assert log == ["dead_letters", "opensearch", "alerts", "commit"]
    assert consumer.committed == [[(0, 4)]] and batch.committed and checkpoint.delivered(batch)


def test_documents_refused_for_good_are_dead_lettered_and_the_rest_committed():
    log: list = []
    refused = SinkError("opensearch", "mapping", "rejected", [ItemFailure(_verdict("r-1").doc_id, 400, "mapper", "x")])
    store, alerts = FakeSink("opensearch", log, [refused]), FakeSink("alerts", log)
    producer = FakeProducer()
    checkpoint, consumer = _checkpoint(store, [alerts], producer)
    batch = _batch()
    checkpoint.attempt(batch)
    assert log == ["opensearch", "dead_letters", "alerts", "commit"]
    assert alerts.written == [["r-0", "r-2"]], "the refused one raises no alert"
    [letter] = producer.acked
    headers = dict(letter.headers)
    assert (headers["groundwatch.stage"], headers["groundwatch.reason"]) == (b"sink", b"rejected")
    assert headers["groundwatch.error"].startswith(b"opensearch: 400 ")
    assert consumer.committed == [[(0, 3)]]


def test_a_transient_failure_is_retried_without_repeating_what_was_done():
    log: list = []
    mixed = SinkError("opensearch", "bulk", "item_error", [ItemFailure(_verdict("r-1").doc_id, 413, "too_large", "x"),
                                                           ItemFailure(_verdict("r-2").doc_id, 429, "busy", "x")])
    store = FakeSink("opensearch", log, [mixed])
    alerts = FakeSink("alerts", log, [SinkUnavailable("alerts", "broker down")])
    checkpoint, consumer = _checkpoint(store, [alerts])
    batch = _batch()
    with pytest.raises(SinkError):
        checkpoint.attempt(batch)  # the store: one refused for good, one busy
    with pytest.raises(SinkUnavailable):
        checkpoint.attempt(batch)  # the store again (without the refused one), then alerts down
    checkpoint.attempt(batch)
    assert store.written == [["r-0", "r-1", "r-2"], ["r-0", "r-2"]]
    assert log == ["opensearch", "dead_letters", "opensearch", "alerts", "alerts", "commit"]
    assert [d.reason for d in batch.dead] == ["too_large"] and consumer.committed == [[(0, 3)]]


def test_the_store_gets_each_message_timestamp_to_date_undated_responses():
    log: list = []
    store, alerts = FakeSink("opensearch", log), FakeSink("alerts", log)
    checkpoint, _ = _checkpoint(store, [alerts])
    millis = 1769903999000  # 2026-01-31T23:59:59Z
    batch = Batch([Message(topic="in", partition=0, offset=0, value=b"{}", timestamp=(1, millis)),
                   Message(topic="in", partition=0, offset=1, value=b"{}")], number=1)  # no timestamp
    batch.scored = [Scored(m, _verdict(f"r-{m.offset()}")) for m in batch.messages]
    batch.prepared = True
    checkpoint.attempt(batch)
    assert store.event_times == [[datetime(2026, 1, 31, 23, 59, 59, tzinfo=timezone.utc), None]]
    assert alerts.event_times == [None]


def test_nothing_is_committed_while_a_write_fails():
    log: list = []
    store = FakeSink("opensearch", log, [SinkUnavailable("opensearch", "down")] * 3)
    checkpoint, consumer = _checkpoint(store)
    batch = _batch()
    for _ in range(3):
        with pytest.raises(SinkUnavailable):
            checkpoint.attempt(batch)
        assert consumer.committed == [] and not checkpoint.delivered(batch)
    checkpoint.attempt(batch)
    assert consumer.committed == [[(0, 3)]]


def _verdict(request_id: str):
    return verdict([claim(0, Verdict.SUPPORTED)], request_id=request_id)
