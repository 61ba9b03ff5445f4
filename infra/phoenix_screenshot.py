"""A verdict beside its trace in the Arize Phoenix UI, as a PNG for docs/opentelemetry.md.

    python -m infra.phoenix_screenshot --out docs/img/phoenix-verdict.png

Starts Phoenix from its own venv (infra/install_phoenix.sh) on free loopback ports, traces one
OpenInference RAG answer with the real SDK and sends it to Phoenix, scores it with the shipped
model, writes the verdict with both trace sinks (annotation and verdict span), then opens the
trace's page in headless Chromium and saves the screenshot. Stops Phoenix by PID.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import httpx
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

from groundwatch.config.scorer import ScorerConfig
from groundwatch.config.verdict_sinks import OtlpVerdictSettings, PhoenixSettings
from groundwatch.consumer.otlp.assemble import assemble
from groundwatch.consumer.otlp.decode import decode_request
from groundwatch.export.otlp_sink import OtlpVerdictSink
from groundwatch.export.phoenix_sink import PhoenixAnnotationSink
from groundwatch.export.trace_verdict import judged_span
from groundwatch.scorers.pipeline import Scorer
from tests.integration.phoenix_server import Phoenix, free_port
from tests.otlp_apps import App, Doc, openinference_app, otlp_proto

QUESTION = "How long do I have to return a phone?"
ANSWER = ("You can return a phone within 30 days of delivery. "
          "Returns are free and every phone comes with a two-year warranty.")
DOCS = [Doc("kb-returns", "Phones may be returned within 30 days of delivery for a full refund.", 0.91),
        Doc("kb-shipping", "Return shipping costs $9 unless the item arrived damaged.", 0.62)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/img/phoenix-verdict.png"))
    parser.add_argument("--wait-ms", type=int, default=20000, help="time the UI gets to render")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as work:
        phoenix = Phoenix(Path(work), free_port(), free_port()).start()
        try:
            url = _trace_page(phoenix)
            _screenshot(url, args.out, Path(work) / "chromium", args.wait_ms)
        finally:
            phoenix.stop()
    print(f"wrote {args.out}")
    return 0


def _trace_page(phoenix: Phoenix) -> str:
    app = App("shop-assistant")
    openinference_app(app, QUESTION, ANSWER, DOCS)
    spans = app.finished()
    exporter = OTLPSpanExporter(endpoint=f"{phoenix.url}/v1/traces", timeout=10)
    exporter.export(spans)
    exporter.shutdown()
    time.sleep(3.0)  # Phoenix inserts spans in the background
    scorer = Scorer.from_config(ScorerConfig())
    try:
        verdicts = scorer.score([r for _, r in assemble(decode_request(otlp_proto(spans), "otlp_proto"))])
    finally:
        scorer.close()
    for sink in (PhoenixAnnotationSink(PhoenixSettings(enabled=True, url=phoenix.url)),
                 OtlpVerdictSink(OtlpVerdictSettings(enabled=True, endpoint=f"{phoenix.url}/v1/traces"))):
        sink.write(verdicts)
        sink.close()
    time.sleep(3.0)
    trace_id, span_id = judged_span(verdicts[0])
    projects = httpx.get(f"{phoenix.url}/v1/projects", timeout=10).json()["data"]
    project = next(p["id"] for p in projects if p["name"] == "default")
    return f"{phoenix.url}/projects/{project}/traces/{trace_id}?selectedSpanNodeId={_node(phoenix, span_id)}"


def _node(phoenix: Phoenix, span_id: str) -> str:
    spans = httpx.get(f"{phoenix.url}/v1/projects/default/spans", params={"span_id": span_id}, timeout=10)
    return spans.json()["data"][0]["id"]


def _screenshot(url: str, out: Path, profile: Path, wait_ms: int) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
                    "--disable-background-networking", "--disable-component-update", f"--user-data-dir={profile}",
                    "--window-size=1600,1000", f"--virtual-time-budget={wait_ms}", f"--screenshot={out.resolve()}",
                    url], check=True, capture_output=True, timeout=180)


if __name__ == "__main__":
    raise SystemExit(main())
