"""Poison messages to the dead-letter topic: original key, bytes and headers, plus why.

The offset of a dead-lettered message may move on only after the broker
acknowledged the dead letter, so `send` returns only when every one was.

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

from config.logs import get_logger
from export.base import SinkUnavailable
from export.delivery import DEFAULT_MESSAGE_MAX_BYTES, Record, permanent_status, produce_each

log = get_logger(__name__)

SINK = "dead_letters"
HEADER_PREFIX = "groundwatch."
TRUNCATED = "groundwatch.truncated"
ORIGINAL_SIZE = "groundwatch.original_size"
ORIGINAL_SHA256 = "groundwatch.original_sha256"
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


def dead_letter_record(topic: str, letter: DeadLetter, max_bytes: int = DEFAULT_MESSAGE_MAX_BYTES,
                       keep_headers: bool = True) -> Record:
    """The record for `letter`: the original bytes, or as much of them as fits in `max_bytes`."""
    msg = letter.message
    value, key = msg.value(), msg.key()
    original = [(k, v) for k, v in (msg.headers() or []) if not k.startswith(HEADER_PREFIX)] if keep_headers else []
    headers = original + _ours(letter)
    record = Record(topic, value, key, headers)
    if record.size + RECORD_OVERHEAD <= max_bytes:
        return record
    size = len(value or b"")
    marks = [(TRUNCATED, b"value" if keep_headers else b"value,headers"), (ORIGINAL_SIZE, str(size).encode()),
             (ORIGINAL_SHA256, hashlib.sha256(value or b"").hexdigest().encode())]
    if not keep_headers and key is not None and len(key) > MAX_KEPT_KEY_BYTES:
        key = None
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
