"""The consumer's HTTP port: /metrics, /healthz (process alive), /readyz (ready to work).

Ready means the model is loaded and the consumer joined its group (an empty
assignment counts: a spare replica is healthy) and is not shutting down.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest


class Health:
    """Readiness flags, set by the consumer's thread and read by the HTTP thread."""

    def __init__(self) -> None:
        self.model_loaded = False
        self.assigned = False
        self.stopping = False

    def problems(self) -> list[str]:
        out = []
        if not self.model_loaded:
            out.append("model not loaded")
        if not self.assigned:
            out.append("consumer has no group assignment yet")
        if self.stopping:
            out.append("shutting down")
        return out


class MetricsServer:
    """ThreadingHTTPServer in a daemon thread; `port` is the bound port (0 picks a free one)."""

    def __init__(self, registry: CollectorRegistry, health: Health, host: str = "0.0.0.0", port: int = 9108):
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
                self._send(200, b"ok\n", "text/plain")
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
