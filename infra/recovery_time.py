"""How long after the store comes back does the consumer commit again? A measurement, not a test.

A local stack of its own (Tansu, osmem-server), the streaming job in this process at the default
consumer settings (backoff 0.5 s doubling to consumer.sink_retry_max_s = 30 s, the store probe
every consumer.sink_probe_interval_s), the fake NLI backend (delivery only) and a steady trickle of
responses. Each run stops osmem-server for --outage-s, starts it again and times the first commit
after it answers. `--no-probe` sets the probe interval past any wait: the consumer then sits out
its backoff, as it did before the probe existed.

    python -m infra.recovery_time [--runs 3] [--outage-s 45] [--no-probe]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import threading
import time
from pathlib import Path

from confluent_kafka import Producer
from confluent_kafka.admin import AdminClient, NewTopic

from groundwatch.config.logs import configure
from groundwatch.config.scorer import ScorerConfig
from groundwatch.config.settings import Settings
from groundwatch.consumer.wiring import build_job
from groundwatch.export.metrics import Metrics
from groundwatch.export.metrics_server import Health
from groundwatch.scorers.nli.factory import DEFAULT_MODEL_DIR
from groundwatch.scorers.pipeline import Scorer
from infra.stack import start_osmem, start_tansu

RATE = 2.0  # responses per second


def _record(i: int) -> bytes:
    return json.dumps({"request_id": f"recovery-{i:06d}", "answer": f"Refunds take {30 + i % 5} days.",
                       "passages": [{"id": "p1", "text": f"Refunds take {30 + i % 5} days."}]}).encode()


def _produce(bootstrap: str, topic: str, stop: threading.Event) -> None:
    producer, i = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5}), 0
    while not stop.is_set():
        producer.produce(topic, value=_record(i), key=str(i).encode())
        producer.poll(0)
        i += 1
        time.sleep(1 / RATE)
    producer.flush(10)


def measure(runs: int, outage_s: float, probe: bool, workdir: Path) -> list[dict]:
    tansu, osmem = start_tansu(workdir), start_osmem(workdir)
    topic = f"recovery-{int(time.time())}"
    admin = AdminClient({"bootstrap.servers": tansu.address})
    for future in admin.create_topics([NewTopic(name, num_partitions=1, replication_factor=1)
                                       for name in (topic, f"{topic}-dlq", f"{topic}-alerts")]).values():
        future.result(10)
    settings = Settings(
        log_format="json", log_level="warning",
        kafka={"bootstrap_servers": tansu.address, "input_topic": topic, "group_id": f"g-{topic}",
               "dead_letter_topic": f"{topic}-dlq", "alerts_topic": f"{topic}-alerts", "session_timeout_ms": 6000},
        opensearch={"url": osmem.url, "alias": f"{topic}-all", "index_prefix": topic, "number_of_replicas": 0},
        scorer=ScorerConfig(model_dir=str(DEFAULT_MODEL_DIR), backend="fake", use_embeddings=False),
        consumer={} if probe else {"sink_probe_interval_s": 1e9})
    configure(settings.log_format, settings.log_level)
    metrics, health = Metrics(), Health()
    scorer = Scorer.from_config(settings.scorer)
    health.model_loaded = True
    commits: list[float] = []
    job = build_job(settings, scorer, metrics, health, on_batch_done=lambda batch: commits.append(time.monotonic()))
    consumer = threading.Thread(target=job.app.run, daemon=True)
    stop = threading.Event()
    producer = threading.Thread(target=_produce, args=(tansu.address, topic, stop), daemon=True)
    consumer.start()
    producer.start()
    results = []
    try:
        for run in range(1, runs + 1):
            _wait_for(lambda: len(commits) >= 3 and time.monotonic() - commits[-1] < 2, 120, "steady commits")
            osmem.stop()
            down_at = time.monotonic()
            time.sleep(outage_s)
            spawned = time.monotonic()
            osmem.start()  # returns once it answers
            answers_at = time.monotonic()
            _wait_for(lambda: commits and commits[-1] > answers_at, 120, "a commit after the store returned")
            first = next(t for t in commits if t > answers_at)
            results.append({"run": run, "outage_s": round(answers_at - down_at, 1),
                            "store_start_s": round(answers_at - spawned, 2),
                            "to_commit_s": round(first - answers_at, 2)})
            print(json.dumps(results[-1]), flush=True)
    finally:
        stop.set()
        job.app.stop()
        consumer.join(40)
        job.close()
        scorer.close()
        osmem.stop()
        tansu.stop()
    return results


def _wait_for(condition, timeout_s: float, what: str) -> None:
    end = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > end:
            raise RuntimeError(f"timed out waiting for {what}")
        time.sleep(0.05)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--outage-s", type=float, default=45.0)
    parser.add_argument("--no-probe", action="store_true", help="no store probe: sit out the backoff")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="gw-recovery-") as workdir:
        results = measure(args.runs, args.outage_s, not args.no_probe, Path(workdir))
    median = statistics.median(r["to_commit_s"] for r in results)
    print(json.dumps({"probe": not args.no_probe, "runs": len(results), "outage_s": args.outage_s,
                      "median_to_commit_s": median}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
