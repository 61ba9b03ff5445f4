"""The probe's figures for Prometheus: pushed to a Pushgateway, or served until scraped.

A probe is a batch job, so its gauges live in their own registry, never in the
consumer's: source="probe" keeps them apart from the consumer's online recall.
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from prometheus_client import CollectorRegistry, Gauge, push_to_gateway
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest

from groundwatch.export.metric_names import METRIC_NAMES
from groundwatch.recall_probe.probe import ProbeResult

RECALL = "groundwatch_recall_at_k"
MRR = "groundwatch_recall_probe_mrr"
assert {RECALL, MRR} <= METRIC_NAMES


def probe_registry(result: ProbeResult) -> CollectorRegistry:
    registry = CollectorRegistry()
    recall = Gauge(RECALL, "Share of gold passages retrieved in the top k", ["k", "source"], registry=registry)
    for k in result.ks:
        recall.labels(k=str(k), source="probe").set(result.recall(k))
    Gauge(MRR, "Mean reciprocal rank of the first gold passage over the probe set",
          registry=registry).set(result.mrr)
    return registry


def push(gateway: str, registry: CollectorRegistry, job: str, timeout_s: float = 10.0) -> None:
    """PUT replaces the job's previous push, so a removed k does not linger."""
    push_to_gateway(gateway, job=job, registry=registry, timeout=timeout_s)


def serve_until_scraped(registry: CollectorRegistry, port: int, host: str = "0.0.0.0",
                        timeout_s: float = 300.0) -> bool:
    """Serve /metrics until one scrape has been answered; False if none came in time."""
    scraped = threading.Event()
    body = generate_latest(registry)

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - http.server's naming
            if self.path.split("?")[0] != "/metrics":
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Type", CONTENT_TYPE_LATEST)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            scraped.set()

        def log_message(self, *args):  # scrapes are not worth a log line each
            pass

    server = ThreadingHTTPServer((host, port), Handler)
    thread = threading.Thread(target=server.serve_forever, name="probe-metrics", daemon=True)
    thread.start()
    try:
        return scraped.wait(timeout_s)
    finally:
        server.shutdown()
        server.server_close()
