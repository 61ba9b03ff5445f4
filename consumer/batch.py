"""The one batch in flight: its messages, what became of each, and which writes are done.

Sinks done are remembered by name so a retry repeats only what failed (a
retried OpenSearch write does not send the alerts a second time); each scored
message also remembers the sinks that stored it, so verdicts written early,
while late responses of the batch are scored again, are not written twice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone

from confluent_kafka import TIMESTAMP_NOT_AVAILABLE, TopicPartition

from groundwatch.consumer.dead_letters import DeadLetter
from groundwatch.consumer.offsets import next_offsets
from groundwatch.scorers.records import ResponseVerdict


def message_time(msg) -> datetime | None:
    """The Kafka message's timestamp (create or log-append time): the same on every replay."""
    kind, millis = msg.timestamp()
    if kind == TIMESTAMP_NOT_AVAILABLE or millis is None or millis < 0:
        return None
    return datetime.fromtimestamp(millis / 1000, timezone.utc)


@dataclass
class Scored:
    message: object  # confluent_kafka.Message
    verdict: ResponseVerdict
    sinks: set[str] = field(default_factory=set)  # names of the sinks that stored this verdict

    @property
    def event_time(self) -> datetime | None:
        return message_time(self.message)


@dataclass
class Batch:
    messages: list
    number: int = 0
    scored: list[Scored] = field(default_factory=list)
    dead: list[DeadLetter] = field(default_factory=list)     # every dead letter of the batch
    pending: list[DeadLetter] = field(default_factory=list)  # those not yet acknowledged
    prepared: bool = False  # decoded and scored: only then may it be written and committed
    interrupted: bool = False  # scoring cut short by shutdown: never written, never committed
    written: set[str] = field(default_factory=set)  # names of the sinks that stored it
    committed: bool = False
    # Trace topics (consumer/otlp/stream.py): the offsets the join allows, below the oldest held message.
    commit_to: list[TopicPartition] | None = None
    gone: set[tuple[str, int]] = field(default_factory=set)  # partitions revoked or lost while in flight

    @property
    def verdicts(self) -> list[ResponseVerdict]:
        return [s.verdict for s in self.scored]

    @property
    def event_times(self) -> list[datetime | None]:
        return [s.event_time for s in self.scored]

    def unwritten(self, sink: str) -> list[Scored]:
        return [s for s in self.scored if sink not in s.sinks]

    def partitions(self) -> set[tuple[str, int]]:
        """Every partition the batch writes or commits for: on a trace topic its verdicts and offsets may
        belong to messages polled by earlier batches (a join tick polls none)."""
        held = [*self.messages, *(s.message for s in self.scored), *(d.message for d in self.dead)]
        return ({(m.topic(), m.partition()) for m in held}
                | {(tp.topic, tp.partition) for tp in self.commit_to or ()})

    def ours(self) -> bool:
        """Is anything of the batch left to write or commit here (not all of it gone with its partitions)?"""
        return bool(self.messages or self.scored or self.dead or self.commit_to)

    def offsets(self) -> list[TopicPartition]:
        return next_offsets(self.messages) if self.commit_to is None else self.commit_to

    def add_dead_letters(self, letters: list[DeadLetter]) -> None:
        """Dead letters for messages of this batch; a scored message among them is no longer written."""
        gone = {id(d.message) for d in letters}
        self.scored = [s for s in self.scored if id(s.message) not in gone]
        self.dead.extend(letters)
        self.pending.extend(letters)

    def owns(self, message) -> bool:
        """Is the message's partition still this batch's? (A response read from spans comes with the message
        of its answer span, which may be of an earlier batch: not one of `messages`.)"""
        return (message.topic(), message.partition()) not in self.gone

    def drop(self, partitions: set[tuple[str, int]]) -> None:
        """Forget the messages of partitions this consumer no longer owns (revoked or lost)."""
        self.gone |= partitions
        keep = lambda m: (m.topic(), m.partition()) not in partitions  # noqa: E731
        self.messages = [m for m in self.messages if keep(m)]
        self.scored = [s for s in self.scored if keep(s.message)]
        self.dead = [d for d in self.dead if keep(d.message)]
        self.pending = [d for d in self.pending if keep(d.message)]
        if self.commit_to is not None:
            self.commit_to = [tp for tp in self.commit_to if (tp.topic, tp.partition) not in partitions]

    def __len__(self) -> int:
        return len(self.messages)
