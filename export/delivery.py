"""Produce Kafka records and wait until the broker acknowledged every one.

Used where a record must be stored before an input offset may move on
(dead letters, alerts): a record that is not acknowledged raises. A record
the broker or librdkafka refuses for what it is (too large, invalid) is a
permanent failure of that record; anything else is transient.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from confluent_kafka import KafkaException

from groundwatch.export.base import TOO_LARGE, ItemFailure, SinkError, SinkUnavailable

Headers = list[tuple[str, bytes]]

# Error names (confluent_kafka KafkaError.name()) that refuse the record itself: producing it
# again fails the same way. MSG_SIZE_TOO_LARGE comes from librdkafka's local message.max.bytes
# check (raised by produce()) or from the broker's max.message.bytes (in the delivery report).
TOO_LARGE_ERRORS = frozenset({"MSG_SIZE_TOO_LARGE", "RECORD_LIST_TOO_LARGE", "INVALID_MSG_SIZE"})
INVALID_ERRORS = frozenset({"INVALID_RECORD", "INVALID_MSG", "CORRUPT_MESSAGE"})
# Not acknowledged within the flush timeout (no delivery report yet).
UNCONFIRMED = "timeout"
# librdkafka's producer default message.max.bytes; the broker's default max.message.bytes is 1048588.
DEFAULT_MESSAGE_MAX_BYTES = 1_000_000


@dataclass(frozen=True)
class Record:
    topic: str
    value: bytes | None
    key: bytes | None = None
    headers: Headers = field(default_factory=list)

    @property
    def size(self) -> int:
        """What librdkafka counts against message.max.bytes: value, key and headers."""
        return (len(self.value or b"") + len(self.key or b"")
                + sum(len(k.encode()) + len(v or b"") for k, v in self.headers))


def producer_config(client_config: dict, timeout_s: float,
                    message_max_bytes: int = DEFAULT_MESSAGE_MAX_BYTES) -> dict:
    """librdkafka producer settings: acks from all in-sync replicas, give up after timeout_s."""
    return {**client_config, "acks": "all", "linger.ms": 5,
            "message.timeout.ms": max(1000, int(timeout_s * 1000)),
            "message.max.bytes": max(DEFAULT_MESSAGE_MAX_BYTES, message_max_bytes)}


def permanent_status(error_name: str) -> int | None:
    """413 or 400 for an error that refuses the record itself, None for a transient one."""
    if error_name in TOO_LARGE_ERRORS:
        return TOO_LARGE
    if error_name in INVALID_ERRORS:
        return 400
    return None


def produce_each(producer, records: Sequence[Record], timeout_s: float) -> list[str | None]:
    """Produce every record and wait; per record None (acknowledged) or the error's name."""
    results: list[str | None] = [UNCONFIRMED] * len(records)

    def report(i: int):
        def delivered(err, _msg) -> None:
            results[i] = None if err is None else (err.name() if hasattr(err, "name") else str(err))
        return delivered

    for i, record in enumerate(records):
        refused = _produce(producer, record, report(i))
        if refused:
            results[i] = refused
    if records:
        producer.flush(timeout_s)
    return results


def produce_and_confirm(producer, records: Sequence[Record], timeout_s: float, sink: str,
                        ids: Sequence[str] | None = None) -> None:
    """All records acknowledged by the broker, or an error.

    SinkError with `failures` (by `ids`, else by position) when some record is refused for good,
    SinkUnavailable when every failure is transient.
    """
    if not records:
        return
    results = produce_each(producer, records, timeout_s)
    failed = [(i, name) for i, name in enumerate(results) if name is not None]
    if not failed:
        return
    names = sorted({name for _, name in failed})
    summary = f"{len(failed)} of {len(records)} records not acknowledged ({', '.join(names)})"
    if not any(permanent_status(name) for _, name in failed):
        raise SinkUnavailable(sink, summary, reason=_label(failed[0][1]))
    ids = list(ids) if ids is not None else [str(i) for i in range(len(records))]
    failures = [ItemFailure(ids[i], permanent_status(name) or 503, name,
                            f"record of {records[i].size} bytes" if permanent_status(name) == TOO_LARGE else name)
                for i, name in failed]
    raise SinkError(sink, summary, reason=_label(next(n for _, n in failed if permanent_status(n))),
                    failures=failures)


def _produce(producer, record: Record, callback) -> str | None:
    """Hand the record to librdkafka; the error's name when it refuses it at once."""
    while True:
        try:
            producer.produce(record.topic, value=record.value, key=record.key,
                             headers=record.headers or None, on_delivery=callback)
            return None
        except BufferError:  # local queue full: serve delivery reports, then try again
            producer.poll(0.1)
        except KafkaException as exc:  # e.g. record too large for message.max.bytes
            return exc.args[0].name() if exc.args and hasattr(exc.args[0], "name") else "produce_failed"


def _label(error_name: str) -> str:
    return error_name.strip("_").lower()[:40] or "error"
