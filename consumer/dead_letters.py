"""Poison messages to the dead-letter topic: original bytes and headers, plus why.

The offset of a dead-lettered message may move on only after the broker
acknowledged the dead letter, so `send` returns only when every one was.

One dead letter per key. A dead letter's Kafka key is its source coordinates,
`source_topic/partition/offset` (`dead_letter_key`); the original key travels in
the header `groundwatch.source_key`. A `kill -9` after the dead letters were
acknowledged and before the offsets were committed replays the batch and sends
them again under the same keys: the topic may hold a message's dead letter twice
physically (until compaction: create it with `TOPIC_CONFIG`), logically it holds
one. Read it with `latest_per_key` (the last record per key, as compaction keeps).

A dead letter never exceeds `max_bytes` (the dead-letter topic's limit): when
the original value does not fit, it is stored cut to what fits, with headers
`groundwatch.truncated`, `groundwatch.original_size` and
`groundwatch.original_sha256`. If the broker still refuses it as too large
(the topic's limit is below the setting), it is sent again with less, down to
the headers alone: a dead letter is never dropped and never retried forever.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Sequence

from groundwatch.config.logs import get_logger
from groundwatch.export.base import SinkUnavailable
from groundwatch.export.delivery import DEFAULT_MESSAGE_MAX_BYTES, Record, permanent_status, produce_each

log = get_logger(__name__)

SINK = "dead_letters"
HEADER_PREFIX = "groundwatch."
TRUNCATED = "groundwatch.truncated"
ORIGINAL_SIZE = "groundwatch.original_size"
ORIGINAL_SHA256 = "groundwatch.original_sha256"
SOURCE_KEY = "groundwatch.source_key"  # the original message's key (the record key is its coordinates)
# The dead-letter topic's settings: compacted by key (replayed copies go), and retention still applies.
TOPIC_CONFIG = {"cleanup.policy": "compact,delete"}
MAX_ERROR_BYTES = 1000  # the error header
RECORD_OVERHEAD = 512   # record-batch framing the broker counts on top of value, key and headers
MAX_KEPT_KEY_BYTES = 1024  # a larger key is dropped by the last, headers-only attempt


@dataclass(frozen=True)
class DeadLetter:
    """One input message and why it cannot be scored or stored."""

    message: object  # confluent_kafka.Message
    stage: str        # decode | score | sink
    error_class: str
    error: str
    reason: str       # a short fixed word for the metric label


def _ours(letter: DeadLetter) -> list[tuple[str, bytes]]:
    msg = letter.message
    return [
        ("groundwatch.stage", letter.stage.encode()),
        ("groundwatch.reason", letter.reason.encode()),
        ("groundwatch.error_class", letter.error_class.encode()),
        ("groundwatch.error", letter.error.encode("utf-8", "replace")[:MAX_ERROR_BYTES]),
        ("groundwatch.source_topic", msg.topic().encode()),
        ("groundwatch.source_partition", str(msg.partition()).encode()),
        ("groundwatch.source_offset", str(msg.offset()).encode()),
    ]


def dead_letter_key(topic: str, partition: int, offset: int) -> bytes:
    """The dead letter's Kafka key: where its message was read, `topic/partition/offset`."""
    return f"{topic}/{partition}/{offset}".encode()


def dead_letter_record(topic: str, letter: DeadLetter, max_bytes: int = DEFAULT_MESSAGE_MAX_BYTES,
                       keep_headers: bool = True) -> Record:
    """The record for `letter`: the original bytes, or as much of them as fits in `max_bytes`."""
    msg = letter.message
    value, source_key = msg.value(), msg.key()
    key = dead_letter_key(msg.topic(), msg.partition(), msg.offset())
    original = [(k, v) for k, v in (msg.headers() or []) if not k.startswith(HEADER_PREFIX)] if keep_headers else []
    kept_key = source_key is not None and (keep_headers or len(source_key) <= MAX_KEPT_KEY_BYTES)
    headers = original + _ours(letter) + ([(SOURCE_KEY, source_key)] if kept_key else [])
    record = Record(topic, value, key, headers)
    if record.size + RECORD_OVERHEAD <= max_bytes:
        return record
    size = len(value or b"")
    marks = [(TRUNCATED, b"value" if keep_headers else b"value,headers"), (ORIGINAL_SIZE, str(size).encode()),
             (ORIGINAL_SHA256, hashlib.sha256(value or b"").hexdigest().encode())]
    if source_key is not None and not kept_key:
        marks[0] = (TRUNCATED, b"value,headers,key")
    headers = headers + marks
    room = max_bytes - RECORD_OVERHEAD - Record(topic, None, key, headers).size
    return Record(topic, (value or b"")[:max(0, room)], key, headers)


class DeadLetterWriter:
    def __init__(self, producer, topic: str, timeout_s: float = 30.0,
                 max_bytes: int = DEFAULT_MESSAGE_MAX_BYTES):
        self.producer = producer
        self.topic = topic
        self.timeout_s = timeout_s
        self.max_bytes = max_bytes

    def send(self, letters: Sequence[DeadLetter]) -> None:
        """Every letter acknowledged by the broker, or SinkUnavailable (transient: retry)."""
        todo = list(letters)
        # Each round retries only the letters refused as too large, with less of them kept.
        for limit, keep_headers in ((self.max_bytes, True), (self.max_bytes // 4, True), (0, False)):
            if not todo:
                return
            records = [dead_letter_record(self.topic, d, limit, keep_headers) for d in todo]
            results = produce_each(self.producer, records, self.timeout_s)
            transient = [name for name in results if name is not None and permanent_status(name) is None]
            if transient:
                raise SinkUnavailable(SINK, f"{len(transient)} of {len(todo)} dead letters not acknowledged "
                                            f"({', '.join(sorted(set(transient)))})",
                                      reason=transient[0].strip("_").lower()[:40])
            refused = [(d, r, name) for d, r, name in zip(todo, records, results) if name is not None]
            for letter, record, name in refused:
                log.warning("dead_letter_refused", error=name, size_bytes=record.size,
                            topic=letter.message.topic(), partition=letter.message.partition(),
                            offset=letter.message.offset())
            todo = [d for d, _, _ in refused]
        if todo:  # refused even as headers alone: nothing smaller exists; keep the partition waiting, loudly
            raise SinkUnavailable(SINK, f"{len(todo)} dead letters refused even without their value",
                                  reason="refused")


def source_coordinates(letter) -> tuple[str, int, int] | None:
    """(topic, partition, offset) of a dead letter read back (a confluent_kafka.Message), from its
    `groundwatch.source_*` headers; None when they are missing."""
    headers = dict(letter.headers() or [])
    try:
        return (headers["groundwatch.source_topic"].decode(), int(headers["groundwatch.source_partition"]),
                int(headers["groundwatch.source_offset"]))
    except (KeyError, ValueError, UnicodeDecodeError):
        return None


def latest_per_key(letters) -> tuple[list, int]:
    """The dead-letter topic as its consumers must read it: one dead letter per key, the last one
    (what compaction keeps), in the order read. Returns (letters, how many earlier copies were dropped).

    `letters` are confluent_kafka.Messages of the dead-letter topic in the order read (offset order per
    partition; a key lives on one partition). A record without a key (written before dead letters were
    keyed by coordinates) is keyed by its `groundwatch.source_*` headers.
    """
    latest: dict[bytes, object] = {}
    dropped = 0
    for letter in letters:
        key = letter.key()
        if key is None:
            coordinates = source_coordinates(letter)
            key = dead_letter_key(*coordinates) if coordinates else b"#%d/%d" % (letter.partition(), letter.offset())
        if key in latest:
            dropped += 1
            del latest[key]  # re-inserted below: the order follows the last copy
        latest[key] = letter
    return list(latest.values()), dropped
