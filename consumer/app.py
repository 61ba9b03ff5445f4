"""The streaming job: poll -> decode -> score -> sink -> commit, one batch in flight.

Delivery is at-least-once. Offsets are stored and committed only after the
dead letters were acknowledged and every sink stored every document of the
batch. While a sink fails, the assigned partitions are paused and the same
batch is retried with capped backoff; polling goes on (paused) so the group
keeps this member. Rebalance: on revoke, finish the batch if the sinks
allow and commit it; on lost, drop it uncommitted. stop() (SIGTERM) ends
polling, finishes the batch, commits and closes within shutdown_timeout_s.
"""

from __future__ import annotations

import threading
import time
from typing import Callable

import structlog
from confluent_kafka import KafkaException, TopicPartition

from config.logs import get_logger
from config.settings import Settings
from consumer.backoff import Backoff
from consumer.batch import Batch
from consumer.checkpoint import Checkpoint, Sinks
from consumer.dead_letters import DeadLetterWriter
from consumer.decode import Limits
from consumer.prepare import prepare
from export.base import SinkError
from export.metrics import Metrics
from export.metrics_server import Health
from scorers.deadline import Deadline

log = get_logger(__name__)

LAG_INTERVAL_S = 15.0


def _names(partitions) -> list[str]:
    return [f"{tp.topic}[{tp.partition}]" for tp in partitions]


class StreamApp:
    def __init__(self, settings: Settings, consumer, scorer, dead_letters: DeadLetterWriter,
                 sinks: Sinks, metrics: Metrics, health: Health,
                 on_batch_done: Callable[[Batch], None] | None = None):
        self.settings = settings
        self.consumer = consumer
        self.scorer = scorer
        self.checkpoint = Checkpoint(consumer, dead_letters, sinks, metrics)
        self.metrics = metrics
        self.health = health
        self.on_batch_done = on_batch_done or (lambda batch: None)
        self.batch_size = min(settings.kafka.batch_size, settings.consumer.max_inflight_responses)
        self.limits = Limits(settings.scorer.max_record_bytes, settings.scorer.max_passages)
        self._backoff = Backoff(settings.consumer.sink_retry_initial_s, settings.consumer.sink_retry_max_s)
        self._stop = threading.Event()
        self._deadline: float | None = None
        self._inflight: Batch | None = None
        self._scoring: Deadline | None = None  # the scorer's deadline while a batch is being scored
        self._paused = False
        self._batches = 0
        self._next_lag = 0.0
        self._assigned: frozenset[tuple[str, int]] = frozenset()

    @property
    def assigned(self) -> frozenset[tuple[str, int]]:
        """(topic, partition) owned now; safe to read from other threads (the Kafka client is not)."""
        return self._assigned

    # -- control --------------------------------------------------------------

    def stop(self) -> None:
        """Ask the loop to finish its batch, commit and close (safe from a signal handler)."""
        if not self._stop.is_set():
            self._deadline = time.monotonic() + self.settings.consumer.shutdown_timeout_s
            scoring = self._scoring
            if scoring is not None:  # scoring must not outlive the shutdown deadline either
                scoring.tighten(self._deadline, "shutdown")
            self.health.stopping = True
            self._stop.set()

    def run(self, idle_exit_s: float | None = None) -> int:
        """Consume until stop(); 0 when every polled batch was committed, 1 when one was left unwritten."""
        topic = self.settings.kafka.input_topic
        self.consumer.subscribe([topic], on_assign=self._on_assign, on_revoke=self._on_revoke,
                                on_lost=self._on_lost)
        log.info("consumer_started", topic=topic, group=self.settings.kafka.group_id, batch_size=self.batch_size)
        clean, idle_since = True, time.monotonic()
        try:
            while not self._stop.is_set():
                messages = self._usable(self.consumer.consume(self.batch_size, self.settings.kafka.poll_timeout_s))
                self._report_lag()
                if messages:
                    clean = self._process(messages) and clean
                    idle_since = time.monotonic()
                elif idle_exit_s is not None and self.health.assigned and time.monotonic() - idle_since > idle_exit_s:
                    log.info("consumer_idle_exit", idle_s=idle_exit_s)
                    break
        except Exception:
            log.exception("consumer_failed", batch=self._batches)  # uncommitted: the next run replays it
            raise
        finally:
            self._inflight = None  # an unfinished batch must not be written by the revoke in close()
            self.health.stopping = True
            self.consumer.close()
            log.info("consumer_closed", batches=self._batches, clean=clean)
        return 0 if clean else 1

    # -- one batch ------------------------------------------------------------

    def _process(self, messages: list) -> bool:
        self._batches += 1
        batch = Batch(messages, number=self._batches)
        self._inflight = batch
        self.metrics.set_inflight(len(batch))
        with structlog.contextvars.bound_contextvars(batch=batch.number):
            self._scoring = deadline = Deadline.from_config(self.settings.scorer)
            if self._deadline is not None:
                deadline.tighten(self._deadline, "shutdown")
            try:
                prepare(batch, self.scorer, self.limits, self.metrics, deadline)
            finally:
                self._scoring = None
            if batch.interrupted:  # shutdown came first: nothing written, nothing committed, read again later
                log.warning("shutdown_interrupts_batch", responses=len(batch))
                done = False
            else:
                done = self._deliver_with_retry(batch)
            self._resume()
        self._inflight = None
        self.metrics.set_inflight(0)
        if done:
            self.on_batch_done(batch)
        return done or not batch.messages  # a batch emptied by a rebalance lost nothing

    def _deliver_with_retry(self, batch: Batch) -> bool:
        self._backoff.reset()
        while True:
            try:
                self.checkpoint.attempt(batch)
                return True
            except SinkError as exc:
                self.metrics.sink_failure(exc.sink, exc.reason)
                if self._past_deadline():
                    log.error("shutdown_leaves_batch_unwritten", sink=exc.sink, responses=len(batch))
                    return False
                delay = self._backoff.next()
                if self._deadline is not None:
                    delay = min(delay, max(0.0, self._deadline - time.monotonic()))
                log.warning("sink_failed", sink=exc.sink, reason=exc.reason, error=str(exc),
                            responses=len(batch), retry_in_s=round(delay, 2))
                self._pause()
                self._wait(delay)
                if batch.committed:  # a revoke during the wait finished it
                    return True
                if not batch.messages:  # every partition of it went to another member
                    return False

    # -- backpressure ---------------------------------------------------------

    def _pause(self) -> None:
        assigned = self.consumer.assignment()
        if assigned:
            self.consumer.pause(assigned)
            if not self._paused:
                log.info("partitions_paused", partitions=_names(assigned))
        self._paused = True

    def _resume(self) -> None:
        if not self._paused:
            return
        assigned = self.consumer.assignment()
        if assigned:
            self.consumer.resume(assigned)
            log.info("partitions_resumed", partitions=_names(assigned))
        self._paused = False

    def _wait(self, seconds: float) -> None:
        """Sleep by polling with every partition paused; serves heartbeats and rebalances."""
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0 and not self._past_deadline():
            self._pause()  # a rebalance may have brought new partitions, unpaused
            stray = self._usable(self.consumer.consume(self.batch_size, min(left, 0.5)))
            if stray:  # fetched before the pause took effect: read them again later
                first: dict[tuple[str, int], int] = {}
                for m in stray:
                    key = (m.topic(), m.partition())
                    first[key] = min(first.get(key, m.offset()), m.offset())
                for (topic, partition), offset in first.items():
                    self.consumer.seek(TopicPartition(topic, partition, offset))
                log.info("rewound_while_paused", messages=len(stray))

    def _past_deadline(self) -> bool:
        return self._deadline is not None and time.monotonic() >= self._deadline

    # -- group membership -----------------------------------------------------

    def _on_assign(self, consumer, partitions) -> None:
        self._assigned = self._assigned | {(tp.topic, tp.partition) for tp in partitions}
        self.health.assigned = True
        log.info("partitions_assigned", partitions=_names(partitions))

    def _on_revoke(self, consumer, partitions) -> None:
        revoked = {(tp.topic, tp.partition) for tp in partitions}
        batch = self._inflight
        if batch is not None and batch.prepared and not batch.committed and batch.partitions() & revoked:
            try:
                self.checkpoint.attempt(batch)
            except SinkError as exc:
                self.metrics.sink_failure(exc.sink, exc.reason)
                log.warning("revoke_drops_unwritten", sink=exc.sink, partitions=_names(partitions))
                batch.drop(revoked)
        self._release(partitions)
        self._assigned = self._assigned - revoked
        log.info("partitions_revoked", partitions=_names(partitions))

    def _on_lost(self, consumer, partitions) -> None:
        lost = {(tp.topic, tp.partition) for tp in partitions}
        if self._inflight is not None:
            self._inflight.drop(lost)
        self._release(partitions)
        self._assigned = self._assigned - lost
        log.warning("partitions_lost", partitions=_names(partitions))

    def _release(self, partitions) -> None:
        # librdkafka keeps a partition's pause across unassign/assign: a partition paused
        # now would come back paused at the next assignment and never be read.
        try:
            self.consumer.resume(partitions)
        except KafkaException as exc:
            log.warning("resume_failed", error=exc.args[0].str(), partitions=_names(partitions))
        for tp in partitions:
            self.metrics.forget_lag(tp.topic, tp.partition)

    # -- helpers --------------------------------------------------------------

    def _usable(self, messages: list) -> list:
        out = []
        for msg in messages or ():
            error = msg.error()
            if error is None:
                out.append(msg)
            elif error.fatal():
                raise KafkaException(error)
            else:
                log.warning("kafka_error", code=error.name(), error=error.str())
        return out

    def _report_lag(self) -> None:
        now = time.monotonic()
        if now < self._next_lag:
            return
        self._next_lag = now + LAG_INTERVAL_S
        try:
            for tp in self.consumer.position(self.consumer.assignment()):
                if tp.offset >= 0:
                    _, high = self.consumer.get_watermark_offsets(tp, timeout=1.0, cached=False)
                    self.metrics.set_lag(tp.topic, tp.partition, max(0, high - tp.offset))
        except KafkaException as exc:
            log.debug("lag_unavailable", error=str(exc))
