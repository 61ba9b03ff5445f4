"""Peak RSS of the trace join buffer under a stream of traces that never close.

    python -m infra.join_memory --max-held-bytes 8000000 --requests 20000

Each request is one OTLP export request (five RAG traces' child spans, written by the real SDK,
no root spans) decoded as the consumer decodes it, under fresh trace ids each time, so no trace
is ever released except by eviction. Prints the held traces and bytes at the end and the peak
RSS, beside the RSS after the first 50 requests (the process without a full buffer).
"""

from __future__ import annotations

import argparse
from dataclasses import replace

from confluent_kafka import Message

from groundwatch.config.traces import TraceSettings
from groundwatch.consumer.otlp.decode import decode_request
from groundwatch.consumer.otlp.join import TraceJoin
from groundwatch.evaluation.bench.memory import peak_rss_mb
from tests.otlp_apps import App, Doc, openinference_app, otlp_proto


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-held-bytes", type=int, default=8_000_000)
    parser.add_argument("--requests", type=int, default=20_000)
    args = parser.parse_args(argv)
    app = App("shop")
    passage = "Refunds are accepted within 30 days of delivery. " * 8
    for k in range(5):
        openinference_app(app, f"Question {k}?", "Refunds are accepted within 30 days of delivery.",
                          [Doc(f"d{j}", passage, 0.5) for j in range(5)])
    value = otlp_proto([s for s in app.finished() if s.parent is not None])
    join = TraceJoin(TraceSettings(max_held_bytes=args.max_held_bytes, max_held_traces=10**9, release_wait_s=3600))
    early = 0.0
    for i in range(args.requests):
        msg = Message(topic="otlp_spans", partition=0, offset=i, value=value)
        spans = [replace(s, trace_id=f"{i:08x}{s.trace_id[8:]}") for s in decode_request(value, "otlp_proto")]
        join.seen(msg)
        join.add(msg, spans)
        join.release()  # what was evicted leaves, as the consumer scores it
        if i == 50:
            early = peak_rss_mb()
    print(f"max_held_bytes={args.max_held_bytes} requests={args.requests} request_bytes={len(value)} "
          f"held_traces={len(join)} held_bytes={join.bytes} rss_after_50_requests_mb={early:.1f} "
          f"peak_rss_mb={peak_rss_mb():.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
