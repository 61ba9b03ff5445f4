"""librdkafka's voice in the job's logs: one warning while the cluster cannot be reached, not a line per
reconnect. librdkafka retries every broker about once a second and, left alone, writes a
`%3|...|FAIL|...` line to stderr and raises a transport error for each try."""

from __future__ import annotations

import time
from typing import Callable

from groundwatch.config.logs import get_logger

log = get_logger("groundwatch.kafka")

# Error names that mean "no broker answers": the same news on every retry.
UNREACHABLE = {"_TRANSPORT", "_ALL_BROKERS_DOWN", "_RESOLVE"}
# A cluster still down after this long is worth one more warning.
REPEAT_S = 300.0


def short_reason(text: str) -> str:
    """'connection refused' or 'host not found' from librdkafka's text, else the text itself."""
    lowered = text.lower()
    if "connection refused" in lowered:
        return "connection refused"
    if "resolve" in lowered:
        return "host not found"
    return text[:200]


class KafkaLog:
    """The `logger` and `error_cb` of the job's Kafka clients, shared by the start-up check."""

    def __init__(self, bootstrap_servers: str, repeat_s: float = REPEAT_S,
                 clock: Callable[[], float] = time.monotonic):
        self.bootstrap_servers = bootstrap_servers
        self.repeat_s = repeat_s
        self._clock = clock
        self._warned_at: float | None = None
        self._last_seen_at: float | None = None  # the latest "no broker answers", warned or not

    def unreachable(self, error_text: str) -> None:
        """Warn once (again after repeat_s); the retries in between go to debug."""
        now = self._clock()
        self._last_seen_at = now
        quiet = self._warned_at is not None and now - self._warned_at < self.repeat_s
        if not quiet:
            self._warned_at = now
        (log.debug if quiet else log.warning)(
            "kafka_not_reachable_yet", bootstrap_servers=self.bootstrap_servers,
            reason=short_reason(error_text), retrying=True)

    def down(self, within_s: float = 10.0) -> bool:
        """Whether the cluster was reported unreachable lately (librdkafka retries about once a second)."""
        return self._last_seen_at is not None and self._clock() - self._last_seen_at < within_s

    def error(self, error) -> None:
        """error_cb: a down cluster is one warning; any other client error is one line each."""
        if error.name() in UNREACHABLE:
            self.unreachable(error.str())
        else:
            log.warning("kafka_client_error", code=error.name(), error=error.str())

    def log(self, level: int, fmt: str, *args) -> None:
        """librdkafka's own log lines (the `logger` property): they repeat what error_cb reports, so debug."""
        log.debug("librdkafka", line=fmt % args if args else fmt, level_no=level)

    def client_hooks(self) -> dict:
        return {"logger": self, "error_cb": self.error}
