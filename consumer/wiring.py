"""Builds the streaming job from settings: Kafka clients, sinks, metrics and the app."""

from __future__ import annotations

import socket
from dataclasses import dataclass, field

from groundwatch.config.logs import get_logger
from groundwatch.config.settings import Settings
from groundwatch.consumer.app import StreamApp
from groundwatch.consumer.checkpoint import Sinks
from groundwatch.consumer.dead_letters import DeadLetterWriter
from groundwatch.export.kafka_log import KafkaLog
from groundwatch.export.alerts import AlertSink, Webhook
from groundwatch.export.delivery import producer_config
from groundwatch.export.metrics import Metrics
from groundwatch.export.metrics_server import Health
from groundwatch.export.opensearch_sink import OpenSearchSink
from groundwatch.export.retention import RetentionKeeper
from groundwatch.export.trace_sinks import trace_sinks
from groundwatch.scorers.health import ScheduledCheck
from groundwatch.scorers.redaction import Redactor

log = get_logger(__name__)


def consumer_config(settings: Settings, kafka_log: KafkaLog) -> dict:
    k = settings.kafka
    return {
        **k.client_config(),
        **kafka_log.client_hooks(),  # a down cluster is one warning, not a stderr line per reconnect
        "group.id": k.group_id,
        "client.id": f"groundwatch-{socket.gethostname()}",
        "enable.auto.commit": False,
        "enable.auto.offset.store": False,  # stored only after the sinks confirmed the batch
        "auto.offset.reset": k.auto_offset_reset,
        "session.timeout.ms": k.session_timeout_ms,
        "max.poll.interval.ms": k.max_poll_interval_ms,
    }


@dataclass
class Job:
    """The app and what it owns; close() after run() returned."""

    app: StreamApp
    producer: object
    sinks: list
    keeper: RetentionKeeper | None = None  # template, alias, retention (and the sweep without ISM)
    checks: list[ScheduledCheck] = field(default_factory=list)  # health probes on their own threads

    def close(self) -> None:
        """Stop probes, close sinks, flush the producer: within what is left of the shutdown deadline."""
        for check in self.checks:
            check.stop()
        if self.keeper is not None:
            self.keeper.close()
        for sink in self.sinks:
            try:
                sink.close()
            except Exception as exc:  # noqa: BLE001 - closing the rest matters more
                log.warning("sink_close_failed", sink=sink.name, error=type(exc).__name__)
        left = self.app.shutdown_left()
        self.producer.flush(5.0 if left is None else min(5.0, left))


def build_job(settings: Settings, scorer, metrics: Metrics, health: Health, on_batch_done=None,
              kafka_log: KafkaLog | None = None) -> Job:
    """kafka_log: the one the start-up check used, so a cluster it found down is not announced twice."""
    from confluent_kafka import Consumer, Producer

    k = settings.kafka
    kafka_log = kafka_log or KafkaLog(k.bootstrap_servers)
    producer = Producer(producer_config({**k.client_config(), **kafka_log.client_hooks()}, k.produce_timeout_s,
                                        k.dead_letter_max_bytes))
    sinks = Sinks(store=OpenSearchSink(settings.opensearch, redactor=Redactor.from_settings(settings.redaction),
                                       on_conflict=metrics.conflicting_duplicate))
    # Idempotent set-up of the store at start-up, on a thread of its own: an unreachable
    # server must not delay the start (the sink also installs the template on first write).
    keeper = RetentionKeeper(sinks.store.client, settings.opensearch, on_delete=metrics.retention_deletion).start()
    if settings.alerts.enabled:
        a = settings.alerts
        webhook = None
        if a.webhook_url:
            webhook = Webhook(a.webhook_url, a.webhook_token.get_secret_value() if a.webhook_token else None)
        sinks.others.append(AlertSink(producer, k.alerts_topic, k.produce_timeout_s, webhook,
                               on_webhook_failure=lambda reason: metrics.sink_failure("webhook", reason)))
    sinks.others.extend(trace_sinks(settings, metrics))  # verdicts into the judged traces (OTLP, Phoenix), when enabled
    dead_letters = DeadLetterWriter(producer, k.dead_letter_topic, k.produce_timeout_s, k.dead_letter_max_bytes)
    consumer = Consumer(consumer_config(settings, kafka_log))
    app = StreamApp(settings, consumer, scorer, dead_letters, sinks, metrics, health, on_batch_done=on_batch_done)
    return Job(app, producer, sinks.ordered(), keeper, health_checks(settings, scorer, sinks.store, health))


def health_checks(settings: Settings, scorer, store, health: Health) -> list[ScheduledCheck]:
    """Liveness: the loop polls, the scorer answers (backend.health() on a schedule);
    readiness: the verdict store answers. Started here, stopped by Job.close."""
    c = settings.consumer
    health.loop_stall_s = c.loop_stall_s
    scoring = ScheduledCheck("scorer", scorer.health, c.health_interval_s, c.health_timeout_s).start()
    storing = ScheduledCheck(store.name, store.reachable, c.health_interval_s, c.health_timeout_s,
                             first_failure_said=True).start()  # the start-up check named a down store
    health.liveness.append(scoring)
    health.readiness.append(storing)
    return [scoring, storing]
