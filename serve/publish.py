"""Optional: each verdict served inline also goes to the consumer's sinks (OpenSearch, alerts).

So the dashboards, reports and alert routes see inline traffic too. Publishing
is best effort and off the request path: a background thread writes what is
queued in bulk, retries a failing sink a few times with backoff, then drops
the batch (counted as sink_failures{reason="dropped"}); a full queue drops too.
The check's answer never waits for a sink. Documents use the verdict's doc_id,
so a verdict also scored by the consumer overwrites instead of duplicating.
"""

from __future__ import annotations

import queue
import threading
import time
from typing import Callable, Sequence

from groundwatch.config.logs import get_logger
from groundwatch.config.settings import Settings
from groundwatch.export.base import SinkError
from groundwatch.export.metrics import Metrics
from groundwatch.scorers.records import ResponseVerdict

log = get_logger(__name__)

ATTEMPTS = 3
MAX_BULK = 500


class Publisher:
    def __init__(self, sinks: Sequence, metrics: Metrics, max_queue: int = 10_000, retry_s: float = 0.5,
                 producer=None, server_down: dict[str, Callable[[], bool]] | None = None):
        """server_down: per sink name, whether its server's outage was already logged (then a failed
        write to it is no second warning)."""
        self.sinks = list(sinks)
        self.server_down = server_down or {}
        self.metrics = metrics
        self.retry_s = retry_s
        self.producer = producer
        self.published = 0
        self._failing: set[str] = set()  # sinks whose outage was already warned about
        self._queue: queue.Queue[ResponseVerdict | None] = queue.Queue(maxsize=max_queue)
        self._thread = threading.Thread(target=self._run, name="serve-publisher", daemon=True)
        self._thread.start()

    def publish(self, verdicts: Sequence[ResponseVerdict]) -> None:
        for verdict in verdicts:
            try:
                self._queue.put_nowait(verdict)
            except queue.Full:
                self.metrics.sink_failure("publish", "dropped")

    def close(self, timeout: float = 30.0) -> None:
        self._queue.put(None)
        self._thread.join(timeout)
        for sink in self.sinks:
            try:
                sink.close()
            except Exception as exc:  # noqa: BLE001 - closing the rest matters more
                log.warning("sink_close_failed", sink=sink.name, error_class=type(exc).__name__)
        if self.producer is not None:
            self.producer.flush(5)

    def _run(self) -> None:
        while True:
            try:
                first = self._queue.get(timeout=1.0)
            except queue.Empty:
                if self.producer is not None:
                    self.producer.poll(0)  # runs the Kafka client's error and log callbacks while idle
                continue
            if first is None:
                return
            batch = [first]
            stop = False
            while len(batch) < MAX_BULK:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stop = True
                    break
                batch.append(item)
            for sink in self.sinks:
                self._write(sink, batch)
            self.published += len(batch)
            if stop:
                return

    def _write(self, sink, batch: list[ResponseVerdict]) -> None:
        for attempt in range(1, ATTEMPTS + 1):
            try:
                sink.write(batch)
                if sink.name in self._failing:
                    self._failing.discard(sink.name)
                    log.info("publish_recovered", sink=sink.name)
                return
            except SinkError as exc:
                self.metrics.sink_failure(sink.name, exc.reason)
                self._failed(sink.name, exc.reason, attempt, len(batch))
            except Exception as exc:  # noqa: BLE001 - a sink bug must not end publishing
                self.metrics.sink_failure(sink.name, "error")
                self._failed(sink.name, type(exc).__name__, attempt, len(batch))
            if attempt < ATTEMPTS:
                time.sleep(self.retry_s * 2 ** (attempt - 1))
        self.metrics.sink_failure(sink.name, "dropped")
        log.debug("publish_dropped", sink=sink.name, verdicts=len(batch))

    def _failed(self, sink: str, reason: str, attempt: int, verdicts: int) -> None:
        """One warning per outage of a sink; its retries and drops go to debug and the failure counters."""
        first = sink not in self._failing and not self.server_down.get(sink, lambda: False)()
        self._failing.add(sink)
        (log.warning if first else log.debug)(
            "publish_failed", sink=sink, reason=reason, attempt=attempt, verdicts=verdicts,
            then=f"{ATTEMPTS} tries per batch, then it is dropped (sink_failures_total reason=dropped)")


def build_publisher(settings: Settings, metrics: Metrics) -> Publisher:
    """OpenSearch and (when alerts are enabled) the alerts topic and webhook, as the consumer has them."""
    from confluent_kafka import Producer

    from groundwatch.export.alerts import AlertSink, Webhook
    from groundwatch.export.delivery import producer_config
    from groundwatch.export.kafka_log import KafkaLog
    from groundwatch.export.opensearch_sink import OpenSearchSink
    from groundwatch.scorers.redaction import Redactor

    k = settings.kafka
    # The same redaction as the consumer's store: inline traffic must not keep what the job masks.
    sinks: list = [OpenSearchSink(settings.opensearch, redactor=Redactor.from_settings(settings.redaction),
                                  on_conflict=metrics.conflicting_duplicate)]
    producer, server_down = None, {}
    if settings.alerts.enabled:
        a = settings.alerts
        # A down cluster is one warning, not librdkafka's stderr line per reconnect.
        kafka_log = KafkaLog(k.bootstrap_servers)
        server_down["alerts"] = kafka_log.down
        producer = Producer(producer_config({**k.client_config(), **kafka_log.client_hooks()}, k.produce_timeout_s))
        webhook = (Webhook(a.webhook_url, a.webhook_token.get_secret_value() if a.webhook_token else None)
                   if a.webhook_url else None)
        sinks.append(AlertSink(producer, k.alerts_topic, k.produce_timeout_s, webhook,
                               on_webhook_failure=lambda reason: metrics.sink_failure("webhook", reason)))
    return Publisher(sinks, metrics, settings.serve.publish_queue, producer=producer, server_down=server_down)
