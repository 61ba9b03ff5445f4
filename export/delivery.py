"""Produce Kafka records and wait until the broker acknowledged every one.

Used where a record must be stored before an input offset may move on
(dead letters, alerts): a record that is not acknowledged raises.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from confluent_kafka import KafkaException

from export.base import SinkUnavailable

Headers = list[tuple[str, bytes]]


@dataclass(frozen=True)
class Record:
    topic: str
    value: bytes | None
    key: bytes | None = None
    headers: Headers = field(default_factory=list)


def producer_config(client_config: dict, timeout_s: float) -> dict:
    """librdkafka producer settings: acks from all in-sync replicas, give up after timeout_s."""
    return {**client_config, "acks": "all", "linger.ms": 5,
            "message.timeout.ms": max(1000, int(timeout_s * 1000))}


def produce_and_confirm(producer, records: Sequence[Record], timeout_s: float, sink: str) -> None:
    """All records acknowledged by the broker, or SinkUnavailable naming how many were not."""
    if not records:
        return
    errors: list[str] = []
    acked = [0]

    def delivered(err, _msg) -> None:
        if err is not None:
            errors.append(err.name() if hasattr(err, "name") else str(err))
        else:
            acked[0] += 1

    for record in records:
        _produce(producer, record, delivered, errors)
    remaining = producer.flush(timeout_s)
    if errors or remaining or acked[0] != len(records):
        reason = errors[0] if errors else "timeout"
        raise SinkUnavailable(sink, f"{len(records) - acked[0]} of {len(records)} records not acknowledged "
                                    f"({', '.join(sorted(set(errors))) or f'{remaining} still queued'})",
                              reason=_label(reason))


def _produce(producer, record: Record, callback, errors: list[str]) -> None:
    while True:
        try:
            producer.produce(record.topic, value=record.value, key=record.key,
                             headers=record.headers or None, on_delivery=callback)
            return
        except BufferError:  # local queue full: serve delivery reports, then try again
            producer.poll(0.1)
        except KafkaException as exc:  # e.g. record too large: counts as not delivered
            errors.append(exc.args[0].name() if exc.args else "produce_failed")
            return


def _label(error_name: str) -> str:
    return error_name.strip("_").lower()[:40] or "error"
