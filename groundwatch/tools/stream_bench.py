"""A fixed volume of traffic through broker -> consumer -> OpenSearch, measured.

Replays responses (cycled, fresh request ids, timestamp now) into a new topic while
the streaming job runs in this process, then reports responses/s, claims/s, end-to-end
latency (produce timestamp -> indexed and committed), peak RSS and where the job's time
went. A measurement, not a test: nothing here asserts a speed.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

from groundwatch.config.settings import Settings
from groundwatch.evaluation.bench.memory import peak_rss_mb
from groundwatch.scorers.jsonl import read_jsonl


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
    examples = [record for _, record in read_jsonl(path)]
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


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))] if ordered else float("nan")


def measure(settings: Settings, values: list[bytes], run_id: str, bootstrap: str, opensearch_url: str, *,
            batch_size: int | None = None, partitions: int = 1, rate: float = 0.0, timeout_s: float = 600.0,
            progress: bool = False) -> dict:
    """Runs the streaming job in a thread on a new topic, produces `values` into it and measures.

    RuntimeError when the model cannot be loaded or the broker does not take the messages.
    """
    from confluent_kafka import Producer
    from tqdm import tqdm
    from confluent_kafka.admin import AdminClient, NewTopic

    from groundwatch.consumer.dead_letters import TOPIC_CONFIG
    from groundwatch.consumer.wiring import build_job
    from groundwatch.export.metrics import Metrics
    from groundwatch.export.metrics_server import Health
    from groundwatch.export.opensearch_sink import OpenSearchSink
    from groundwatch.scorers.verdicts.calibration import for_model
    from groundwatch.scorers.errors import ModelLoadError
    from groundwatch.scorers.pipeline import Scorer

    topic = f"bench-{run_id}"
    kafka = {"bootstrap_servers": bootstrap, "input_topic": topic, "group_id": f"bench-{run_id}",
             "dead_letter_topic": f"{topic}-dlq", "alerts_topic": f"{topic}-alerts", "session_timeout_ms": 6000}
    if batch_size:
        kafka["batch_size"] = batch_size
    settings = settings.model_copy(update={
        "kafka": settings.kafka.model_copy(update=kafka),
        "opensearch": settings.opensearch.model_copy(update={
            "url": opensearch_url, "alias": f"bench-{run_id}", "index_prefix": f"bench-{run_id}",
            "number_of_replicas": 0})})
    admin = AdminClient({"bootstrap.servers": bootstrap})
    for future in admin.create_topics([NewTopic(topic, partitions, 1),
                                       NewTopic(f"{topic}-dlq", 1, 1, config=TOPIC_CONFIG),
                                       NewTopic(f"{topic}-alerts", 1, 1)]).values():
        future.result(30)

    metrics, health = Metrics(), Health()
    scorer_s = [0.0]

    def stage_timer(stage: str, seconds: float) -> None:
        scorer_s[0] += seconds
        metrics.observe_stage(stage, seconds)

    try:
        # The model directory's own calibration.json and window, as `groundwatch consume` gets them.
        scorer = Scorer.from_config(for_model(settings.scorer), stage_timer=stage_timer,
                                    on_batch=metrics.observe_nli_batch,
                                    on_pair_cache=metrics.observe_pair_cache)
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
        deadline = time.monotonic() + timeout_s
        while not health.assigned and time.monotonic() < deadline:
            time.sleep(0.1)
        produce_start = time.time()
        produce(Producer({"bootstrap.servers": bootstrap, "linger.ms": 5}), topic, values, rate)
        with tqdm(total=len(values), desc="committed", unit="resp", disable=not progress, file=sys.stderr) as bar:
            while len(done_at) < len(values) and time.monotonic() < deadline:
                time.sleep(0.05)
                bar.update(len(done_at) - bar.n)
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
        "latency_p50_s": round(percentile(latencies, 0.50), 3),
        "latency_p99_s": round(percentile(latencies, 0.99), 3),
        "peak_rss_mb": round(peak_rss_mb(), 1),
        "scorer_share": round(scorer_s[0] / elapsed, 3) if done_at else 0.0,
        "decode_share": round(stage("decode") / elapsed, 3) if done_at else 0.0,
        "opensearch_share": round(stage("sink") / elapsed, 3) if done_at else 0.0,
        "batch_size": settings.kafka.batch_size, "rate": rate, "partitions": partitions,
        "model": scorer.model, "provider": scorer.backend.provider, "precision": scorer.backend.precision,
    }


def produce(producer, topic: str, values: list[bytes], rate: float) -> None:
    """Every value into the topic, keyed by request_id, `rate` per second (0: all at once)."""
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


def table(f: dict) -> str:
    """The figures of `measure` as the table `groundwatch bench-stream` prints."""
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
