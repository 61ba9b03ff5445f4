"""The consumer's HTTP port: /metrics, /healthz (alive), /readyz (ready to work).

Alive (/healthz, the liveness probe) means the consumer loop polled within
`loop_stall_s` and every liveness check (the model backend answering, run on
a schedule) passes; a hung scorer fails it and Kubernetes restarts the pod.
Ready (/readyz) means the model is loaded, the consumer holds a group
assignment (an empty one counts: a spare replica is healthy), every readiness
check (the verdict store reachable) passes and it is not shutting down.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable, Protocol

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest


class Check(Protocol):
    """A probe run elsewhere (scorers.health.ScheduledCheck); problem() must not block."""

    def problem(self) -> str | None: ...


class Health:
    """Flags and checks, set by the consumer's thread and read by the HTTP thread."""

    def __init__(self, loop_stall_s: float | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.model_loaded = False
        self.assigned = False
        self.stopping = False
        self.loop_stall_s = loop_stall_s  # None: the loop is not watched
        self.liveness: list[Check] = []
        self.readiness: list[Check] = []
        self._clock = clock
        self._last_beat: float | None = None

    def beat(self) -> None:
        """The consumer loop is making progress (it polled, or is retrying a write)."""
        self._last_beat = self._clock()

    def live_problems(self) -> list[str]:
        out = []
        last = self._last_beat
        if self.loop_stall_s is not None and last is not None and not self.stopping:
            idle = self._clock() - last
            if idle > self.loop_stall_s:
                out.append(f"consumer loop has not polled for {idle:.0f} s")
        out.extend(p for p in (c.problem() for c in self.liveness) if p)
        return out

    def problems(self) -> list[str]:
        out = []
        if not self.model_loaded:
            out.append("model not loaded")
        if not self.assigned:
            out.append("consumer has no group assignment")
        out.extend(p for p in (c.problem() for c in self.readiness) if p)
        if self.stopping:
            out.append("shutting down")
        return out


class MetricsServer:
    """ThreadingHTTPServer in a daemon thread; `port` is the bound port (0 picks a free one)."""

    def __init__(self, registry: CollectorRegistry, health: Health, host: str = "127.0.0.1", port: int = 9108):
        handler = _handler(registry, health)
        self._server = ThreadingHTTPServer((host, port), handler)
        self._server.daemon_threads = True
        self.host, self.port = self._server.server_address[:2]
        self._thread = threading.Thread(target=self._server.serve_forever, name="metrics-http", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(5)


def _handler(registry: CollectorRegistry, health: Health):
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's naming
            path = self.path.split("?", 1)[0]
            if path == "/metrics":
                self._send(200, generate_latest(registry), CONTENT_TYPE_LATEST)
            elif path == "/healthz":
                problems = health.live_problems()
                body = json.dumps({"alive": not problems, "problems": problems}).encode() + b"\n"
                self._send(503 if problems else 200, body, "application/json")
            elif path == "/readyz":
                problems = health.problems()
                body = json.dumps({"ready": not problems, "problems": problems}).encode() + b"\n"
                self._send(503 if problems else 200, body, "application/json")
            else:
                self._send(404, b"not found\n", "text/plain")

        def _send(self, status: int, body: bytes, content_type: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args) -> None:  # scrapes and probes would flood the log
            pass

    return Handler
