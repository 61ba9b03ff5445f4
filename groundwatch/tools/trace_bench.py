"""groundwatch bench's trace path: the consumer's decode-and-score stage on traces against the same responses
as JSON.

The bench responses are written as traces by the real OpenTelemetry SDK (groundwatch/tools/as_traces.py,
the two conventions in turn, one export request a message, otlp_proto and otlp_json). The responses
those traces assemble into, sent as groundwatch.response.v1 JSON, are the JSON path's input: so both
paths judge exactly the same responses. Each path runs the streaming job's own stage on Kafka messages
in batches of `batch_size`: JSON through consumer/prepare.py (decode, score), traces through
consumer/otlp/stream.py (decode, join, release, assemble, score). A fresh scorer each time (empty pair
and embedding caches); the three paths interleaved, median of `repeats`. Broker and store are left out:
they are the same for both. The verdicts of every path must be identical (claim verdicts, score, flags).
"""

from __future__ import annotations

import statistics
import time

ENCODINGS = ("otlp_proto", "otlp_json")


def run_trace_path(spec: dict) -> dict:
    from confluent_kafka import Message

    from groundwatch.config.scorer import ScorerConfig
    from groundwatch.consumer.otlp.assemble import assemble
    from groundwatch.consumer.otlp.decode import decode_request
    from groundwatch.evaluation.bench.whole_path import fresh_scorer
    from groundwatch.scorers.nli.factory import backend_for
    from groundwatch.tools.as_traces import CONVENTIONS, TraceWriter, export_request

    config = ScorerConfig(model_dir=spec["model_dir"], providers=spec["providers"], max_length=spec["max_length"],
                          threads=spec.get("threads"))
    backend = backend_for(config, "onnx")
    backend.warmup()
    writer = TraceWriter()
    traces = [writer.trace(r, CONVENTIONS[i % 2]) for i, r in enumerate(spec["responses"])]
    values = {e: [export_request(t, e) for t in traces] for e in ENCODINGS}
    responses = [r for _, r in assemble(s for v in values["otlp_proto"] for s in decode_request(v, "otlp_proto"))]
    values["json"] = [r.model_dump_json(exclude_none=True).encode() for r in responses]
    messages = {path: [Message(topic=path, partition=0, offset=i, value=v, timestamp=(1, 0))
                       for i, v in enumerate(vs)] for path, vs in values.items()}

    seconds: dict[str, list[float]] = {path: [] for path in messages}
    verdicts: dict[str, dict] = {}
    order = list(messages)
    for repeat in range(spec.get("repeats", 3)):
        for path in order[repeat % len(order):] + order[:repeat % len(order)]:  # each path first once in turn
            scorer = fresh_scorer(config, backend)
            taken, judged = _stage(path, messages[path], scorer, spec["batch_size"])
            scorer.close()
            seconds[path].append(taken)
            verdicts[path] = judged
    reference = verdicts["json"]
    differing = {e: sum(1 for rid, v in reference.items() if verdicts[e].get(rid) != v)
                 + len(set(verdicts[e]) - set(reference)) for e in ENCODINGS}
    median = {path: statistics.median(s) for path, s in seconds.items()}
    n = len(responses)
    return {"trace_path": True, "responses": n, "traces": len(traces), "repeats": len(seconds["json"]),
            "seconds": seconds, "responses_per_s": {path: n / median[path] for path in median},
            "trace_vs_json": {e: median["json"] / median[e] for e in ENCODINGS},
            "verdicts_compared": len(reference), "verdicts_differing": differing,
            "verdicts_identical": all(d == 0 for d in differing.values()) and len(reference) == n,
            "provider": backend.provider, "precision": backend.precision}


def _stage(path: str, messages: list, scorer, batch_size: int) -> tuple[float, dict]:
    """Seconds the consumer's stage takes over `messages`, and request id -> what its verdict says."""
    from groundwatch.config.settings import Settings
    from groundwatch.consumer.batch import Batch
    from groundwatch.consumer.decode import Limits
    from groundwatch.consumer.otlp.join import TraceJoin
    from groundwatch.consumer.otlp.stream import prepare_traces
    from groundwatch.consumer.prepare import prepare
    from groundwatch.export.metrics import Metrics

    metrics = Metrics()
    settings = Settings(kafka={"input_format": path if path != "json" else "groundwatch.response.v1"},
                        scorer=scorer.config)
    join = TraceJoin(settings.traces) if path != "json" else None
    limits = Limits.from_config(settings.scorer)
    judged = {}
    start = time.perf_counter()
    for i in range(0, len(messages), batch_size):
        batch = Batch(messages[i:i + batch_size])
        if join is None:
            prepare(batch, scorer, limits, metrics)
        else:
            prepare_traces(batch, join, scorer, settings, metrics)
        for v in batch.verdicts:
            judged[v.request_id] = ([c.verdict.value for c in v.claims], round(v.response.score, 6),
                                    sorted(v.flags))
    taken = time.perf_counter() - start
    if join is not None and len(join):
        raise RuntimeError(f"{len(join)} traces still held after the last batch")
    return taken, judged
