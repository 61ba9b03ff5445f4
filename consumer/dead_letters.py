"""Poison messages to the dead-letter topic: original key, bytes and headers, plus why.

The offset of a dead-lettered message may move on only after the broker
acknowledged the dead letter, so `send` returns only when every one was.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from export.delivery import Record, produce_and_confirm

SINK = "dead_letters"
HEADER_PREFIX = "groundwatch."
MAX_ERROR_BYTES = 1000  # the error header; the message itself is never cut


@dataclass(frozen=True)
class DeadLetter:
    """One input message and why it cannot be scored or stored."""

    message: object  # confluent_kafka.Message
    stage: str        # decode | score | sink
    error_class: str
    error: str
    reason: str       # a short fixed word for the metric label


def dead_letter_record(topic: str, letter: DeadLetter) -> Record:
    msg = letter.message
    original = [(k, v) for k, v in (msg.headers() or []) if not k.startswith(HEADER_PREFIX)]
    ours = [
        ("groundwatch.stage", letter.stage.encode()),
        ("groundwatch.error_class", letter.error_class.encode()),
        ("groundwatch.error", letter.error.encode("utf-8", "replace")[:MAX_ERROR_BYTES]),
        ("groundwatch.source_topic", msg.topic().encode()),
        ("groundwatch.source_partition", str(msg.partition()).encode()),
        ("groundwatch.source_offset", str(msg.offset()).encode()),
    ]
    return Record(topic, msg.value(), msg.key(), original + ours)


class DeadLetterWriter:
    def __init__(self, producer, topic: str, timeout_s: float = 30.0):
        self.producer = producer
        self.topic = topic
        self.timeout_s = timeout_s

    def send(self, letters: Sequence[DeadLetter]) -> None:
        """Every letter acknowledged by the broker, or SinkUnavailable."""
        produce_and_confirm(self.producer, [dead_letter_record(self.topic, d) for d in letters],
                            self.timeout_s, SINK)
