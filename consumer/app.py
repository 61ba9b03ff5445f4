"""The streaming job: poll -> decode -> score -> sink -> commit, one batch in flight.

Delivery is at-least-once (consumer/checkpoint.py): offsets are stored and
committed only after the dead letters were acknowledged and every sink stored
every document of the batch. While a sink fails, the assigned partitions are
paused and the same batch is retried with capped backoff; polling goes on
(paused) so the group keeps this member.

Rebalance: on revoke, the in-flight batch's writes are retried for up to
consumer.revoke_timeout_s and, once written, its offsets are committed before
the partitions go; if the sinks stay down that long, the batch is left
uncommitted to the new owner, which replays it (the same ids: overwrites). On
lost, nothing is committed. stop() (SIGTERM) ends polling; the batch in
flight is scored, written and committed, and the consumer closed, all within
consumer.shutdown_timeout_s (scoring is cut short and the batch left
uncommitted if that time runs out).

Health: every poll beats `health`; /healthz fails when the loop stops polling.

Trace topics (kafka.input_format otlp_proto | otlp_json): spans are held in a join buffer
(consumer/otlp/join.py) until their trace is released; a batch commits only below the oldest
held message, and the loop also runs a batch without new messages when a held trace's wait is
over. A revoke or loss forgets the buffer: with the eager assignment the group uses, every
partition comes back at its committed offset, so the held messages are read again.
"""

from __future__ import annotations

import threading
import time
import traceback
from typing import Callable

import structlog
from confluent_kafka import KafkaException, TopicPartition

from groundwatch.config.logs import get_logger
from groundwatch.config.settings import Settings
from groundwatch.consumer.backoff import Backoff
from groundwatch.consumer.batch import Batch
from groundwatch.consumer.checkpoint import Checkpoint, Sinks
from groundwatch.consumer.dead_letters import DeadLetterWriter
from groundwatch.consumer.decode import Limits
from groundwatch.consumer.late import retry_late
from groundwatch.consumer.prepare import prepare, score_isolated
from groundwatch.consumer.store_probe import StoreProbe
from groundwatch.export.base import SinkError, SinkUnavailable
from groundwatch.export.metrics import Metrics
from groundwatch.export.metrics_server import Health
from groundwatch.scorers.deadline import Deadline

log = get_logger(__name__)

LAG_INTERVAL_S = 15.0
CLOSE_RESERVE_S = 5.0  # of the shutdown time, kept for leaving the group and closing (at most a quarter)


def plain_traceback(exc: BaseException) -> str:
    """The traceback as text, without the local variables a rich renderer would add (they hold records)."""
    return "".join(traceback.format_exception(exc)).rstrip()


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
        self.producer = dead_letters.producer  # dead letters' and alerts' client
        self.metrics = metrics
        self.health = health
        self.on_batch_done = on_batch_done or (lambda batch: None)
        self.batch_size = min(settings.kafka.batch_size, settings.consumer.max_inflight_responses)
        self.limits = Limits.from_config(settings.scorer)
        self._backoff = Backoff(settings.consumer.sink_retry_initial_s, settings.consumer.sink_retry_max_s)
        self._stop = threading.Event()
        self._deadline: float | None = None  # after stop(): scoring and writes end here
        self._end: float | None = None       # after stop(): everything, closing included, ends here
        self._inflight: Batch | None = None
        self._scoring: Deadline | None = None  # the scorer's deadline while a batch is being scored
        self._paused = False
        self._batches = 0
        self._next_lag = 0.0
        self._assigned: frozenset[tuple[str, int]] = frozenset()
        self.join = None  # the trace join buffer, on trace topics only
        if settings.kafka.input_format != "groundwatch.response.v1":
            from groundwatch.consumer.otlp.join import TraceJoin
            from groundwatch.consumer.otlp.passage_store import build_passage_store

            self.join = TraceJoin(settings.traces)
            self._store = build_passage_store(settings)

    @property
    def assigned(self) -> frozenset[tuple[str, int]]:
        """(topic, partition) owned now; safe to read from other threads (the Kafka client is not)."""
        return self._assigned

    # -- control --------------------------------------------------------------

    def stop(self) -> None:
        """Ask the loop to finish its batch, commit and close (safe from a signal handler)."""
        if not self._stop.is_set():
            timeout = self.settings.consumer.shutdown_timeout_s
            self._end = time.monotonic() + timeout
            self._deadline = self._end - min(CLOSE_RESERVE_S, timeout / 4)
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
                self.health.beat()
                self._report_lag()
                self.producer.poll(0)  # its error and log callbacks run only when polled: none piles up
                if messages or (self.join is not None and self.join.due()):
                    clean = self._process(messages) and clean
                    idle_since = time.monotonic()
                elif (idle_exit_s is not None and self.health.assigned and not self.join
                      and time.monotonic() - idle_since > idle_exit_s):
                    log.info("consumer_idle_exit", idle_s=idle_exit_s)
                    break
        except Exception:
            log.exception("consumer_failed", batch=self._batches)  # uncommitted: the next run replays it
            raise
        finally:
            self._inflight = None  # an unfinished batch must not be written by the revoke in close()
            self.health.stopping = True
            self._close_consumer()
            log.info("consumer_closed", batches=self._batches, clean=clean)
        return 0 if clean else 1

    def shutdown_left(self) -> float | None:
        """Seconds left of the shutdown deadline (None before stop())."""
        return None if self._end is None else max(0.0, self._end - time.monotonic())

    def _close_consumer(self) -> None:
        """Leave the group and close; after stop(), no longer than the shutdown deadline allows."""
        closer = threading.Thread(target=self._close_quietly, name="kafka-close", daemon=True)
        closer.start()
        closer.join(self.shutdown_left())
        if closer.is_alive():
            log.error("consumer_close_timed_out", timeout_s=self.settings.consumer.shutdown_timeout_s)

    def _close_quietly(self) -> None:
        try:
            self.consumer.close()
        except Exception as exc:  # noqa: BLE001 - closing is the last thing; say so and go on
            log.warning("consumer_close_failed", error_class=type(exc).__name__)

    # -- one batch ------------------------------------------------------------

    def _process(self, messages: list) -> bool:
        self._batches += 1
        batch = Batch(messages, number=self._batches)
        self._inflight = batch
        self.metrics.set_inflight(len(batch))
        with structlog.contextvars.bound_contextvars(batch=batch.number):
            deadline = self._scoring_deadline()
            deadline.tighten(time.monotonic() + self.settings.consumer.first_try_s, "batch")
            try:
                if self.join is None:
                    late = prepare(batch, self.scorer, self.limits, self.metrics, deadline)
                else:
                    from groundwatch.consumer.otlp.stream import prepare_traces

                    late = prepare_traces(batch, self.join, self.scorer, self.settings, self.metrics, deadline,
                                          self._store)
            finally:
                self._scoring = None
            if late and not batch.interrupted:  # a deadline overrun is backpressure (consumer/late.py)
                retry_late(batch, late, self._score_again, self.metrics, self.settings.consumer.late_tries_alone,
                           self._pause_before_retry, lambda: self.checkpoint.flush(batch))
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
        return done or not batch.ours()  # a batch emptied by a rebalance (or an idle join tick) lost nothing

    def _scoring_deadline(self) -> Deadline:
        """A fresh scorer deadline, never past the shutdown deadline; stop() tightens it while it runs."""
        self._scoring = deadline = Deadline.from_config(self.settings.scorer)
        if self._deadline is not None:
            deadline.tighten(self._deadline, "shutdown")
        return deadline

    def _score_again(self, responses: list) -> list:
        try:
            return score_isolated(self.scorer, responses, self._scoring_deadline())
        finally:
            self._scoring = None

    def _pause_before_retry(self) -> bool:
        """Pause and keep polling a moment before scoring late responses again; False once stopping."""
        if self._stop.is_set():
            return False
        self._pause()
        # At least one poll between two scorer calls: each may take scorer.batch_deadline_s (at most half of
        # kafka.max_poll_interval_ms), so two back to back could cost this member its partitions.
        self._wait(max(self.settings.consumer.late_retry_wait_s, 0.05))
        return not self._stop.is_set()

    def _deliver_with_retry(self, batch: Batch) -> bool:
        """Write and commit the batch, retrying until done, its partitions gone or the shutdown deadline."""
        def wait(delay: float, probe: StoreProbe | None) -> bool:
            self._pause()
            self._wait(delay, probe)
            # A revoke during the wait finished it, or every partition of it went to another member.
            return not batch.committed and batch.ours()

        return self._retry(batch, self._backoff, None, wait) or batch.committed

    def _retry(self, batch: Batch, backoff: Backoff, until: float | None,
               wait: Callable[[float, StoreProbe | None], bool]) -> bool:
        """checkpoint.attempt until it succeeds (True), or False at `until`, the shutdown deadline,
        or when wait(delay, probe) says the batch is no longer ours to write. While the store is
        unreachable, the wait ends early when a probe finds it answering again."""
        backoff.reset()
        while True:
            try:
                self.checkpoint.attempt(batch)
                return True
            except SinkError as exc:
                self.metrics.sink_failure(exc.sink, exc.reason)
                ends = [t for t in (until, self._deadline) if t is not None]
                left = min(ends) - time.monotonic() if ends else None
                if left is not None and left <= 0:  # out of retries: now the traceback is worth its lines
                    log.error("retry_time_out_leaves_batch_unwritten", sink=exc.sink, reason=exc.reason,
                              responses=len(batch), exception=plain_traceback(exc))
                    return False
                delay = backoff.next() if left is None else min(backoff.next(), left)
                # A healthy retry is one line: what failed and when the next try is; the traceback at debug.
                log.warning("sink_failed", sink=exc.sink, reason=exc.reason, error=str(exc),
                            responses=len(batch), retry_in_s=round(delay, 2))
                log.debug("sink_failed_traceback", sink=exc.sink, exception=plain_traceback(exc))
                if not wait(delay, self._probe_for(exc)):
                    return False

    def _probe_for(self, exc: SinkError) -> StoreProbe | None:
        """A probe of the store when it is the sink that could not be reached; None otherwise."""
        store = self.checkpoint.sinks.store
        answers = getattr(store, "reachable", None)
        if answers is None or not isinstance(exc, SinkUnavailable) or exc.sink != store.name:
            return None
        return StoreProbe(answers, self.settings.consumer.sink_probe_interval_s)

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

    def _wait(self, seconds: float, probe: StoreProbe | None = None) -> None:
        """Sleep by polling with every partition paused; serves heartbeats and rebalances. With a
        probe, the sleep ends as soon as the probe finds the store answering."""
        start = time.monotonic()
        end = start + seconds
        while (left := end - time.monotonic()) > 0 and not self._past_deadline():
            if probe is not None and probe.answers():
                log.info("store_answers_again", waited_s=round(time.monotonic() - start, 2),
                         backoff_left_s=round(left, 2))
                return
            self._pause()  # a rebalance may have brought new partitions, unpaused
            step = min(left, 0.5) if probe is None else min(left, 0.5, max(probe.due_in(), 0.05))
            stray = self._usable(self.consumer.consume(self.batch_size, step))
            self.health.beat()
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
        self.health.assigned = True  # an empty assignment counts: a spare replica is ready
        log.info("partitions_assigned", partitions=_names(partitions))

    def _on_revoke(self, consumer, partitions) -> None:
        """Finish the in-flight batch before its partitions go: write (retrying up to
        consumer.revoke_timeout_s) and commit; if it cannot be written by then, leave it uncommitted."""
        revoked = {(tp.topic, tp.partition) for tp in partitions}
        self.health.assigned = False
        batch = self._inflight
        if batch is not None and not batch.prepared:  # late responses still being scored again
            batch.drop(revoked)  # nothing of those partitions is written or committed: the new owner reads it
        elif batch is not None and batch.prepared and not batch.committed and batch.partitions() & revoked:
            until = time.monotonic() + self.settings.consumer.revoke_timeout_s
            backoff = Backoff(self.settings.consumer.sink_retry_initial_s, self.settings.consumer.sink_retry_max_s)
            if self._retry(batch, backoff, until, self._sleep):
                log.info("revoke_finished_batch", responses=len(batch), partitions=_names(partitions))
            else:
                log.warning("revoke_leaves_batch_uncommitted", responses=len(batch), partitions=_names(partitions))
                batch.drop(revoked)
        self._release(partitions)
        self._assigned = self._assigned - revoked
        log.info("partitions_revoked", partitions=_names(partitions))

    def _sleep(self, seconds: float, probe: StoreProbe | None = None) -> bool:
        """Wait inside a rebalance callback (no polling there; librdkafka's own thread heartbeats)."""
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0 and not self._past_deadline():
            if probe is not None and probe.answers():
                return True
            time.sleep(min(left, 0.5))
            self.health.beat()
        return True

    def _on_lost(self, consumer, partitions) -> None:
        lost = {(tp.topic, tp.partition) for tp in partitions}
        self.health.assigned = False
        if self._inflight is not None:
            self._inflight.drop(lost)
        self._release(partitions)
        self._assigned = self._assigned - lost
        log.warning("partitions_lost", partitions=_names(partitions))

    def _release(self, partitions) -> None:
        if self.join is not None:
            self.join.clear()  # the held messages are read again from the committed offsets
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
