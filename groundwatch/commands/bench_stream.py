"""groundwatch bench-stream: a fixed volume of traffic through broker -> consumer -> OpenSearch.

Replays examples/responses.jsonl (cycled, fresh request ids, timestamp now)
into a new topic while the consumer runs in this process, then prints
responses/s, claims/s, end-to-end latency (produce timestamp -> indexed and
committed), peak RSS and where the consumer's time went. Without --bootstrap
and --opensearch it starts a local Tansu + osmem-server stack for the run.
A measurement, not a test: nothing here asserts a speed.
"""

from __future__ import annotations

import json
import resource
import sys
import tempfile
import threading
import time
import uuid
from datetime import datetime, timezone
from pathlib import Path

from groundwatch.commands.common import add_settings_args, build_scorer, fail, settings_from

CHECKOUT = Path(__file__).resolve().parents[2]


def register(sub) -> None:
    p = sub.add_parser("bench-stream", help="measure the streaming job end to end on a local or given stack")
    p.add_argument("--n", type=int, default=200, help="responses to replay (default 200)")
    p.add_argument("--input", default=str(CHECKOUT / "examples" / "responses.jsonl"),
                   help="JSONL responses to cycle through (default: examples/responses.jsonl)")
    p.add_argument("--rate", type=float, default=0.0,
                   help="responses produced per second; 0: all at once (latency then includes queueing)")
    p.add_argument("--batch-size", type=int, help="kafka.batch_size for the run")
    p.add_argument("--partitions", type=int, default=1)
    p.add_argument("--bootstrap", help="an existing broker host:port (default: start a local stack)")
    p.add_argument("--opensearch", help="an existing OpenSearch URL (default: start a local stack)")
    p.add_argument("--timeout", type=float, default=600.0, help="give up after this many seconds")
    p.add_argument("--exact-repeats", action="store_true",
                   help="replay cycled examples unchanged (the scorer's caches then answer the repeats)")
    p.add_argument("--json-out", help="also write the figures to this JSON file")
    add_settings_args(p)
    p.set_defaults(func=run)


def _letters(i: int) -> str:
    out = ""
    while True:
        i, r = divmod(i, 26)
        out = chr(97 + r) + out
        if not i:
            return out


def traffic(path: str | Path, n: int, run_id: str, exact: bool = False) -> list[bytes]:
    """n records cycled from the file, each with a new request id and the current time.

    Unless `exact`, each copy's passages get a distinct tag (letters, so no number
    check is affected): the scorer's caches would otherwise answer every repeat
    and the figures would leave out the model.
    """
    examples = [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]
    if not examples:
        raise ValueError(f"{path} has no responses")
    now = datetime.now(timezone.utc).isoformat()
    out = []
    for i in range(n):
        record = dict(examples[i % len(examples)])
        record["request_id"] = f"bench-{run_id}-{i:06d}-{record.get('request_id', '')}"
        record["timestamp"] = now
        if not exact and i >= len(examples):
            tag = f" (copy {_letters(i)})"
            record["passages"] = [{**p, "text": p.get("text", "") + tag} for p in record.get("passages", [])]
        out.append(json.dumps(record).encode())
    return out


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))] if ordered else float("nan")


def _start_stack(workdir: Path):
    try:
        from infra.stack import start_osmem, start_tansu
    except ImportError:  # infra/ is a tool of the source checkout, not an installed package
        if not (CHECKOUT / "infra" / "stack.py").is_file():
            raise RuntimeError("no local stack tooling (infra/); pass --bootstrap and --opensearch") from None
        sys.path.insert(0, str(CHECKOUT))
        from infra.stack import start_osmem, start_tansu
    tansu = start_tansu(workdir)
    try:
        return tansu, start_osmem(workdir)
    except BaseException:
        tansu.stop()
        raise


def run(args) -> int:
    from config.logs import configure

    configure("json", "warning")  # the figures are the output; only warnings from the job
    settings = settings_from(args)
    run_id = uuid.uuid4().hex[:8]
    try:
        values = traffic(args.input, args.n, run_id, args.exact_repeats)
    except (OSError, ValueError) as exc:
        return fail(f"cannot build traffic from {args.input}: {exc}")
    servers = []
    try:
        if not (args.bootstrap and args.opensearch):
            servers = list(_start_stack(Path(tempfile.mkdtemp(prefix="groundwatch-bench-"))))
        bootstrap = args.bootstrap or servers[0].address
        opensearch_url = args.opensearch or servers[1].url
        figures = _measure(settings, args, values, run_id, bootstrap, opensearch_url)
    except RuntimeError as exc:
        return fail(str(exc))
    finally:
        for server in servers:
            server.stop()
    print(_table(figures))
    print(json.dumps(figures))
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(figures, indent=2) + "\n")
    return 0 if figures["indexed"] == args.n else 1


def _measure(settings, args, values: list[bytes], run_id: str, bootstrap: str, opensearch_url: str) -> dict:
    from confluent_kafka import Producer
    from confluent_kafka.admin import AdminClient, NewTopic

    from consumer.wiring import build_job
    from export.metrics import Metrics
    from export.metrics_server import Health
    from export.opensearch_sink import OpenSearchSink
    from scorers.errors import ModelLoadError

    topic = f"bench-{run_id}"
    kafka = {"bootstrap_servers": bootstrap, "input_topic": topic, "group_id": f"bench-{run_id}",
             "dead_letter_topic": f"{topic}-dlq", "alerts_topic": f"{topic}-alerts", "session_timeout_ms": 6000}
    if args.batch_size:
        kafka["batch_size"] = args.batch_size
    settings = settings.model_copy(update={
        "kafka": settings.kafka.model_copy(update=kafka),
        "opensearch": settings.opensearch.model_copy(update={
            "url": opensearch_url, "alias": f"bench-{run_id}", "index_prefix": f"bench-{run_id}",
            "number_of_replicas": 0})})
    admin = AdminClient({"bootstrap.servers": bootstrap})
    for future in admin.create_topics([NewTopic(topic, args.partitions, 1), NewTopic(f"{topic}-dlq", 1, 1),
                                       NewTopic(f"{topic}-alerts", 1, 1)]).values():
        future.result(30)

    metrics, health = Metrics(), Health()
    scorer_s = [0.0]

    def stage_timer(stage: str, seconds: float) -> None:
        scorer_s[0] += seconds
        metrics.observe_stage(stage, seconds)

    try:
        scorer = build_scorer(settings, stage_timer=stage_timer, on_batch=metrics.observe_nli_batch)
    except ModelLoadError as exc:
        raise RuntimeError(f"{exc} (pass --model DIR)") from None
    scorer.backend.warmup()
    health.model_loaded = True
    done_at: list[tuple[float, float]] = []  # (produce time, committed time) per message
    claims = [0]

    def on_batch_done(batch) -> None:
        now = time.time()
        done_at.extend((m.timestamp()[1] / 1000.0, now) for m in batch.messages)
        claims[0] += sum(1 for v in batch.verdicts for c in v.claims if c.scored)

    job = build_job(settings, scorer, metrics, health, on_batch_done=on_batch_done)
    thread = threading.Thread(target=job.app.run, name="bench-consumer", daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + args.timeout
        while not health.assigned and time.monotonic() < deadline:
            time.sleep(0.1)
        produce_start = time.time()
        _produce(Producer({"bootstrap.servers": bootstrap, "linger.ms": 5}), topic, values, args.rate)
        while len(done_at) < len(values) and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        job.app.stop()
        thread.join(settings.consumer.shutdown_timeout_s + 5)
        job.close()
        scorer.close()
    elapsed = max(t for _, t in done_at) - produce_start if done_at else float("nan")
    sink = OpenSearchSink(settings.opensearch)
    try:
        sink.client.indices.refresh(index=settings.opensearch.alias)
        indexed = sink.client.count(index=settings.opensearch.alias)["count"]
    finally:
        sink.close()
    latencies = [committed - produced for produced, committed in done_at]

    def stage(name: str) -> float:
        return metrics.registry.get_sample_value("groundwatch_stage_seconds_sum", {"stage": name}) or 0.0

    return {
        "responses": len(values), "processed": len(done_at), "indexed": indexed, "claims_checked": claims[0],
        "elapsed_s": round(elapsed, 3),
        "responses_per_s": round(len(done_at) / elapsed, 2) if done_at else 0.0,
        "claims_per_s": round(claims[0] / elapsed, 2) if done_at else 0.0,
        "latency_p50_s": round(_percentile(latencies, 0.50), 3),
        "latency_p99_s": round(_percentile(latencies, 0.99), 3),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "scorer_share": round(scorer_s[0] / elapsed, 3) if done_at else 0.0,
        "decode_share": round(stage("decode") / elapsed, 3) if done_at else 0.0,
        "opensearch_share": round(stage("sink") / elapsed, 3) if done_at else 0.0,
        "batch_size": settings.kafka.batch_size, "rate": args.rate, "partitions": args.partitions,
        "model": scorer.model, "provider": scorer.backend.provider, "precision": scorer.backend.precision,
    }


def _produce(producer, topic: str, values: list[bytes], rate: float) -> None:
    start = time.monotonic()
    for i, value in enumerate(values):
        if rate > 0:
            wait = start + i / rate - time.monotonic()
            if wait > 0:
                time.sleep(wait)
        while True:
            try:
                producer.produce(topic, value=value, key=json.loads(value)["request_id"].encode())
                break
            except BufferError:
                producer.poll(0.1)
        producer.poll(0)
    if producer.flush(60):
        raise RuntimeError("the broker did not take every benchmark message within 60 s")


def _table(f: dict) -> str:
    rows = [
        ("responses processed / indexed", f"{f['processed']} / {f['indexed']} of {f['responses']}"),
        ("elapsed (first produce -> last commit)", f"{f['elapsed_s']} s"),
        ("responses/s", f"{f['responses_per_s']}"),
        ("claims checked/s", f"{f['claims_per_s']}"),
        ("latency p50 / p99 (produce -> indexed)", f"{f['latency_p50_s']} s / {f['latency_p99_s']} s"),
        ("peak RSS (consumer process)", f"{f['peak_rss_mb']} MB"),
        ("time share: scorer / decode / opensearch", f"{f['scorer_share']:.0%} / {f['decode_share']:.0%} / "
                                                     f"{f['opensearch_share']:.0%}"),
        ("model", f"{f['model']} ({f['provider']}, {f['precision']})"),
    ]
    width = max(len(name) for name, _ in rows)
    return "\n".join(f"{name:<{width}}  {value}" for name, value in rows)
