"""Which offsets a finished batch lets the group commit, and committing them."""

from __future__ import annotations

from typing import Iterable

from confluent_kafka import TopicPartition


def next_offsets(messages: Iterable) -> list[TopicPartition]:
    """Per partition, one past the highest offset in `messages` (Kafka commits the next to read)."""
    highest: dict[tuple[str, int], int] = {}
    for msg in messages:
        key = (msg.topic(), msg.partition())
        highest[key] = max(highest.get(key, -1), msg.offset())
    return [TopicPartition(topic, partition, offset + 1) for (topic, partition), offset in sorted(highest.items())]


def store_and_commit(consumer, offsets: list[TopicPartition]) -> None:
    """Store `offsets`, then commit synchronously; raises KafkaException when the commit fails."""
    if not offsets:
        return
    consumer.store_offsets(offsets=offsets)
    consumer.commit(asynchronous=False)

