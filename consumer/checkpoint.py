"""The checkpoint stage: dead letters -> verdict store -> other sinks -> offset commit.

One place decides when a batch is done. `attempt` makes one pass and raises
SinkError when a write failed for a reason that may pass (the caller pauses,
waits and calls it again); each sink that already stored the batch is skipped
on the next pass. A document a sink refuses for good (too large, mapping
rejected, another 4xx for that document) is not retried: its message goes to
the dead-letter topic with the reason, and the rest of the batch goes on.
Offsets are stored and committed only after every step succeeded. While
late responses of the batch are scored again (consumer/late.py), `flush` writes
what is already settled, without committing, so those verdicts do not wait.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import structlog
from confluent_kafka import KafkaException

from groundwatch.config.logs import get_logger
from groundwatch.consumer.batch import Batch
from groundwatch.consumer.dead_letters import DeadLetter, DeadLetterWriter
from groundwatch.consumer.offsets import store_and_commit
from groundwatch.consumer.prepare import message_context
from groundwatch.export.base import ItemFailure, Sink, SinkError, VerdictStore
from groundwatch.export.metrics import Metrics

log = get_logger(__name__)


@dataclass
class Sinks:
    """Sinks by role. The store holds the verdicts and is written first; the others (alerts)
    follow it, so an alert never points at a document that is not stored."""

    store: VerdictStore
    others: list[Sink] = field(default_factory=list)

    def ordered(self) -> list[Sink]:
        return [self.store, *self.others]


class Checkpoint:
    def __init__(self, consumer, dead_letters: DeadLetterWriter, sinks: Sinks, metrics: Metrics):
        self.consumer = consumer
        self.dead_letters = dead_letters
        self.sinks = sinks
        self.metrics = metrics

    def delivered(self, batch: Batch) -> bool:
        """Every write of the batch done: its offsets may be committed."""
        return (batch.prepared and not batch.interrupted and not batch.pending
                and all(s.name in batch.written for s in self.sinks.ordered()))

    def attempt(self, batch: Batch) -> None:
        """One pass over what is left; SinkError when a write failed and may succeed later."""
        self._send_dead_letters(batch)
        for sink in self.sinks.ordered():
            if sink.name not in batch.written:
                self._write(sink, batch)
                batch.written.add(sink.name)
                self._send_dead_letters(batch)  # documents this sink refused for good
        if not batch.committed:
            self.commit(batch)

    def flush(self, batch: Batch) -> None:
        """Write what is settled now, in the same order (dead letters, the store, the other sinks),
        without committing. A write that fails is left to `attempt`, which retries it."""
        try:
            self._send_dead_letters(batch)
            for sink in self.sinks.ordered():
                if batch.unwritten(sink.name):
                    self._write(sink, batch)
                    self._send_dead_letters(batch)
        except SinkError as exc:
            self.metrics.sink_failure(exc.sink, exc.reason)
            log.warning("early_write_failed", sink=exc.sink, reason=exc.reason, error=str(exc))

    def commit(self, batch: Batch) -> None:
        """Store and commit the batch's offsets (call only when `delivered`)."""
        offsets = batch.offsets()
        try:
            store_and_commit(self.consumer, offsets)
            log.info("batch_committed", responses=len(batch), indexed=len(batch.scored),
                     dead_letters=len(batch.dead), offsets={f"{tp.topic}[{tp.partition}]": tp.offset for tp in offsets})
        except KafkaException as exc:
            # Written but not committed: a replay rewrites the same ids, nothing is lost.
            error = exc.args[0]
            self.metrics.sink_failure("kafka_commit", error.name().strip("_").lower())
            log.warning("commit_failed", error=error.str())
        batch.committed = True

    # -- steps ----------------------------------------------------------------

    def _send_dead_letters(self, batch: Batch) -> None:
        if not batch.pending:
            return
        self.dead_letters.send(batch.pending)
        for letter in batch.pending:
            self.metrics.dead_letter(letter.stage, letter.reason)
            with structlog.contextvars.bound_contextvars(**message_context(letter.message)):
                log.warning("dead_lettered", stage=letter.stage, reason=letter.reason,
                            error_class=letter.error_class)
        batch.pending = []

    def _write(self, sink: Sink, batch: Batch) -> None:
        items = batch.unwritten(sink.name)  # all of them, unless some were written early (flush)
        start = time.perf_counter()
        try:
            if sink is self.sinks.store:  # the message times date the index of an undated response
                sink.write([s.verdict for s in items], [s.event_time for s in items])
            else:
                sink.write([s.verdict for s in items])
        except SinkError as exc:
            refused = exc.refused
            if not refused:
                raise
            # Refused whatever happens: dead-letter those, retry the rest if anything else failed.
            self.metrics.sink_failure(exc.sink, exc.reason)
            letters = refused_letters(batch, sink.name, refused)
            log.error("documents_refused", sink=sink.name, count=len(letters),
                      reasons=sorted({f.label for f in refused}))
            batch.add_dead_letters(letters)
            if len(refused) < len(exc.failures):
                raise
        finally:
            if sink is self.sinks.store:
                self.metrics.observe_stage("sink", time.perf_counter() - start)
        for s in items:  # stored, or refused for good and dead-lettered
            s.sinks.add(sink.name)


def refused_letters(batch: Batch, sink: str, refused: list[ItemFailure]) -> list[DeadLetter]:
    """A dead letter (stage "sink") for each scored message whose document was refused for good."""
    by_id = {f.doc_id: f for f in refused}
    letters = []
    for s in batch.scored:
        failure = by_id.get(s.verdict.doc_id)
        if failure:
            letters.append(DeadLetter(s.message, "sink", "DocumentRejected",
                                      f"{sink}: {failure.status} {failure.error_type}: {failure.reason}",
                                      failure.label))
    return letters
