"""Overload: 10x the sustainable input rate for a while; does RSS stay bounded and does lag recover?

    python -m infra.overload [--backend fake|onnx] [--factor 10] [--overload-s 120] [--json out.json]

1. Sustainable rate: a backlog of --calibrate messages is consumed by one `groundwatch
   consume` process; its rate (messages/s from first to last commit) is R.
2. Overload: messages arrive at factor x R for --overload-s seconds.
3. Recovery: input stops; the run waits until every offset is committed.
Throughout, the consumer's RSS (VmRSS) and its lag (messages produced minus committed,
from the producer's own delivery reports, not the broker's watermark) are sampled every
second. The JSON keeps a summary and samples every 5 s.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

from infra.faults.census import committed
from infra.faults.chaos import ConsumerProcess
from infra.faults.suite import FaultConfig, _create_topics, _env, source_commit
from infra.faults.workload import valid_record
from infra.server import free_port
from infra.stack import start_osmem, start_tansu


def rss_mb(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


class RateProducer(threading.Thread):
    """Produces fresh valid responses at `rate` per second for `seconds`; counts acknowledgements."""

    def __init__(self, bootstrap: str, topic: str, rate: float, seconds: float, prefix: str, seed: int,
                 count: int | None = None):
        super().__init__(name="overload-producer", daemon=True)
        self.bootstrap, self.topic, self.rate, self.seconds, self.prefix = bootstrap, topic, rate, seconds, prefix
        self.count = count  # stop after this many, whatever the time
        self.rng = random.Random(seed)
        self.sent = 0
        self.acked = 0

    def run(self) -> None:
        from confluent_kafka import Producer

        producer = Producer({"bootstrap.servers": self.bootstrap, "linger.ms": 20, "enable.idempotence": True,
                             "queue.buffering.max.messages": 1_000_000})
        start = time.monotonic()
        while (elapsed := time.monotonic() - start) < self.seconds or (self.count and self.sent < self.count):
            due = int(elapsed * self.rate) + 1
            if self.count:
                due = min(due, self.count)
                if self.sent >= self.count:
                    break
            while self.sent < due:
                rid = f"{self.prefix}-{self.sent:08d}"
                try:
                    producer.produce(self.topic, json.dumps(valid_record(self.rng, rid)).encode(), rid.encode(),
                                     on_delivery=self._delivered)
                    self.sent += 1
                except BufferError:
                    producer.poll(0.05)
            producer.poll(0.01)
        producer.flush(120)

    def _delivered(self, err, _msg) -> None:
        if err is None:
            self.acked += 1


def _committed_total(bootstrap: str, group: str, topic: str, partitions: int) -> int:
    try:
        return sum(committed(bootstrap, group, topic, partitions).values())
    except Exception:  # noqa: BLE001 - the broker may be slow under load; ask again next time
        return -1


def run(backend: str, factor: float, overload_s: float, calibrate: int, partitions: int, batch_size: int,
        recovery_timeout_s: float, seed: int, say=print) -> dict:
    workdir = Path(tempfile.mkdtemp(prefix="overload-"))
    names = {k: f"{v}-overload-{os.getpid()}" for k, v in (("topic", "in"), ("group", "g"), ("dead_letters", "dlq"),
                                                           ("alerts", "alerts"), ("prefix", "verdicts"))}
    names["alias"] = names["prefix"] + "-all"
    tansu, osmem = start_tansu(workdir), start_osmem(workdir, parent_pid=os.getpid())
    cfg = FaultConfig(backend=backend, batch_size=batch_size)
    port = free_port()
    consumer = ConsumerProcess("overload", _env(cfg, names, tansu.address, osmem.url, port), port, workdir)
    samples: list[dict] = []
    try:
        _create_topics(tansu.address, names, partitions)
        consumer.start()
        if not consumer.wait_ready(300):
            raise RuntimeError(f"consumer never became ready; log in {workdir}")
        pid = consumer.process.pid
        total = lambda: _committed_total(tansu.address, names["group"], names["topic"], partitions)  # noqa: E731

        # 1. sustainable rate from a backlog
        backlog = RateProducer(tansu.address, names["topic"], rate=10_000, seconds=0, prefix="calibrate",
                               seed=seed, count=calibrate)
        backlog.run()
        start, first, t0 = time.monotonic(), None, None
        while (done := total()) < backlog.acked and time.monotonic() - start < 1800:
            if done > 0 and first is None:
                first, t0 = done, time.monotonic()
            time.sleep(0.5)
        rate = (backlog.acked - (first or 0)) / max(time.monotonic() - (t0 or start), 1e-3)
        say(f"sustainable rate: {rate:.1f} messages/s ({backlog.acked} messages)")
        baseline_rss = rss_mb(pid)

        # 2. overload, 3. recovery
        produced_before = backlog.acked
        overload = RateProducer(tansu.address, names["topic"], rate=factor * rate, seconds=overload_s,
                                prefix="overload", seed=seed + 1)
        overload.start()
        begin = time.monotonic()
        phase, recovered_at, last_say = "overload", None, 0.0
        while True:
            now = time.monotonic() - begin
            if phase == "overload" and not overload.is_alive():
                phase, stopped_at = "recovery", now
            done = total()
            produced = produced_before + overload.acked
            sample = {"t_s": round(now, 1), "phase": phase, "rss_mb": rss_mb(pid), "produced": produced,
                      "committed": done, "lag": produced - done if done >= 0 else None}
            samples.append(sample)
            if now - last_say >= 15:
                say(f"[{now:7.1f}s] {phase:<8} rss {sample['rss_mb']:.0f} MB, lag {sample['lag']}")
                last_say = now
            if phase == "recovery" and done >= produced:
                recovered_at = now
                break
            if phase == "recovery" and now - stopped_at > recovery_timeout_s:
                break
            if not consumer.alive():
                break
            time.sleep(1.0)
        rss = [s["rss_mb"] for s in samples if s["rss_mb"] is not None]
        over = [s["rss_mb"] for s in samples if s["phase"] == "overload" and s["rss_mb"] is not None]
        late = [s["rss_mb"] for s in samples if s["phase"] == "recovery" and s["rss_mb"] is not None]
        lags = [s["lag"] for s in samples if s["lag"] is not None]
        return {
            "backend": backend, "factor": factor, "overload_s": overload_s, "partitions": partitions,
            "batch_size": batch_size,
            "sustainable_rate_per_s": round(rate, 1), "input_rate_per_s": round(factor * rate, 1),
            "overload_messages": overload.acked,
            "rss_mb": {"baseline": round(baseline_rss or 0, 1), "peak": round(max(rss), 1),
                       "peak_overload": round(max(over), 1) if over else None,
                       "peak_recovery": round(max(late), 1) if late else None, "end": round(rss[-1], 1)},
            "peak_lag": max(lags) if lags else None,
            "recovered": recovered_at is not None,
            "recovery_s": round(recovered_at - stopped_at, 1) if recovered_at is not None else None,
            "consumer_alive": consumer.alive(),
            "samples": samples[::5] + ([samples[-1]] if len(samples) % 5 != 1 else []),
        }
    finally:
        consumer.stop(30)
        osmem.stop()
        tansu.stop()
        shutil.rmtree(workdir, ignore_errors=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m infra.overload", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", default="fake", help="fake (measures the job, default) or onnx (the model)")
    parser.add_argument("--factor", type=float, default=10.0)
    parser.add_argument("--overload-s", type=float, default=120.0)
    parser.add_argument("--calibrate", type=int, default=1000, help="backlog messages for the sustainable rate")
    parser.add_argument("--partitions", type=int, default=4)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--recovery-timeout-s", type=float, default=1800.0)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    result = run(args.backend, args.factor, args.overload_s, args.calibrate, args.partitions, args.batch_size,
                 args.recovery_timeout_s, args.seed, say=lambda line: print(line, flush=True))
    result["command"] = "python -m infra.overload " + " ".join(argv if argv is not None else sys.argv[1:])
    result["commit"] = source_commit()
    r = result["rss_mb"]
    print(f"sustainable {result['sustainable_rate_per_s']}/s, input {result['input_rate_per_s']}/s for "
          f"{result['overload_s']:.0f} s ({result['overload_messages']} messages); RSS baseline {r['baseline']} MB, "
          f"peak {r['peak']} MB, end {r['end']} MB; peak lag {result['peak_lag']}; "
          f"recovered {result['recovered']} in {result['recovery_s']} s after input stopped")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    return 0 if result["recovered"] and result["consumer_alive"] else 1


if __name__ == "__main__":
    sys.exit(main())
