"""Load generator for `groundwatch serve`: closed-loop clients at increasing concurrency.

    python infra/loadtest.py --url http://127.0.0.1:8080 --levels 1,2,4,8,16 --duration 20

Each level runs `--warmup` seconds unrecorded, then `--duration` seconds in which C clients
each send the next example response (examples/responses.jsonl, cycled) and wait for the
answer before sending again; requests that complete inside the recorded window count. Every request gets a unique request_id and a unique reference
line before and after each passage, so the scorer's caches (embeddings, NLI pairs) do not
serve repeated examples. Prints latency percentiles, throughput, and how many responses
shared one scorer call and how many pairs one model batch (from the server's /metrics).
Bounded in time and count; talks to the given URL only (use loopback).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import re
import statistics
import sys
import time
from pathlib import Path

import httpx

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "responses.jsonl"
MAX_REQUESTS_PER_LEVEL = 20_000


def _records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _unique(record: dict, n: int) -> dict:
    passages = [{**p, "text": f"Reference {n}-{i}a. {p['text']} Reference {n}-{i}b."}
                for i, p in enumerate(record["passages"])]
    return {**record, "request_id": f"{record['request_id']}-load-{n}", "passages": passages}


def _histogram(text: str, name: str) -> tuple[float, float]:
    """(sum, count) of an unlabelled histogram in Prometheus text."""
    total = re.search(rf"^{name}_sum (\S+)$", text, re.M)
    count = re.search(rf"^{name}_count (\S+)$", text, re.M)
    return (float(total.group(1)) if total else 0.0, float(count.group(1)) if count else 0.0)


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


def _cpu_seconds(pid: int | None) -> float | None:
    """User + system CPU time of the server process (all its threads), from /proc."""
    if not pid:
        return None
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _level(client: httpx.AsyncClient, records: list[dict], counter, concurrency: int, warmup: float,
                 duration: float, server_pid: int | None = None) -> dict:
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    answered = 0  # every 200 of the level, warm-up included: the CPU time below covers all of them
    start = time.monotonic()
    record_from, stop_at = start + warmup, start + warmup + duration
    sent = 0

    async def client_loop() -> None:
        nonlocal sent
        while time.monotonic() < stop_at and sent < MAX_REQUESTS_PER_LEVEL:
            n = next(counter)
            sent += 1
            body = _unique(records[n % len(records)], n)
            t0 = time.monotonic()
            try:
                status = (await client.post("/v1/check", json=body)).status_code
            except httpx.HTTPError:
                status = 0
            t1 = time.monotonic()
            if status == 200:
                nonlocal_answered()
            if record_from <= t1 <= stop_at:  # completed inside the recorded window
                statuses[status] = statuses.get(status, 0) + 1
                if status == 200:
                    latencies.append(t1 - t0)

    def nonlocal_answered() -> None:
        nonlocal answered
        answered += 1

    before = (await client.get("/metrics")).text
    cpu_before = _cpu_seconds(server_pid)
    await asyncio.gather(*(client_loop() for _ in range(concurrency)))
    cpu_after = _cpu_seconds(server_pid)
    after = (await client.get("/metrics")).text
    # The histograms include the warm-up; the shares per call are ratios, so that is fine.
    calls = [a - b for a, b in zip(_histogram(after, "groundwatch_serve_batch_responses"),
                                   _histogram(before, "groundwatch_serve_batch_responses"))]
    batches = [a - b for a, b in zip(_histogram(after, "groundwatch_batch_size"),
                                     _histogram(before, "groundwatch_batch_size"))]
    ok = statuses.get(200, 0)
    return {"concurrency": concurrency, "ok": ok, "errors": sum(statuses.values()) - ok, "statuses": statuses,
            "throughput_rps": ok / duration,
            "p50_ms": _percentile(latencies, 50) * 1000, "p95_ms": _percentile(latencies, 95) * 1000,
            "p99_ms": _percentile(latencies, 99) * 1000,
            "mean_ms": statistics.fmean(latencies) * 1000 if latencies else float("nan"),
            "responses_per_call": calls[0] / calls[1] if calls[1] else float("nan"),
            "pairs_per_model_batch": batches[0] / batches[1] if batches[1] else float("nan"),
            # Server CPU time per answered response: what batching saves, whatever share of the CPU
            # the server got on a busy machine (throughput and latency depend on that share).
            "server_cpu_ms_per_response": (1000 * (cpu_after - cpu_before) / answered
                                           if cpu_before is not None and answered else float("nan"))}


def table(rows: list[dict]) -> str:
    base = rows[0]["throughput_rps"] if rows else 0
    lines = ["| concurrency | requests | errors | throughput (req/s) | vs c=1 | p50 ms | p95 ms | p99 ms "
             "| responses / scorer call | pairs / model batch | server CPU ms / response |",
             "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in rows:
        lines.append(f"| {r['concurrency']} | {r['ok']} | {r['errors']} | {r['throughput_rps']:.2f} | "
                     f"{r['throughput_rps'] / base if base else float('nan'):.2f}x | {r['p50_ms']:.0f} | "
                     f"{r['p95_ms']:.0f} | {r['p99_ms']:.0f} | {r['responses_per_call']:.1f} | "
                     f"{r['pairs_per_model_batch']:.1f} | {r['server_cpu_ms_per_response']:.0f} |")
    return "\n".join(lines)


async def main_async(args) -> list[dict]:
    records = _records(args.input)
    headers = {"Authorization": f"Bearer {args.token}"} if args.token else {}
    counter = itertools.count()
    rows = []
    limits = httpx.Limits(max_connections=max(args.levels) + 2)
    async with httpx.AsyncClient(base_url=args.url, headers=headers, timeout=args.timeout, limits=limits) as client:
        for concurrency in args.levels:
            row = await _level(client, records, counter, concurrency, args.warmup, args.duration, args.server_pid)
            rows.append(row)
            print(f"concurrency {concurrency}: {row['ok']} ok, {row['errors']} errors, "
                  f"{row['throughput_rps']:.2f} req/s, p50 {row['p50_ms']:.0f} ms", file=sys.stderr, flush=True)
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--url", default="http://127.0.0.1:8080")
    ap.add_argument("--input", type=Path, default=EXAMPLES)
    ap.add_argument("--levels", type=lambda s: [int(x) for x in s.split(",")], default=[1, 2, 4, 8, 16])
    ap.add_argument("--duration", type=float, default=30.0, help="recorded seconds per level")
    ap.add_argument("--warmup", type=float, default=5.0, help="unrecorded seconds per level")
    ap.add_argument("--timeout", type=float, default=120.0, help="client timeout per request")
    ap.add_argument("--token", help="bearer token, when the server wants one")
    ap.add_argument("--json", type=Path, dest="json_out", help="write the rows (and the machine's load) as JSON")
    ap.add_argument("--server-pid", type=int, help="the server's pid, to record its CPU time per response")
    ap.add_argument("--pinning", default="", help="how server and generator were placed, recorded in the JSON")
    args = ap.parse_args(argv)
    load_start = os.getloadavg()
    rows = asyncio.run(main_async(args))
    load_end = os.getloadavg()
    print(table(rows))
    if args.json_out:
        report = {"pinning": args.pinning, "cpus": os.cpu_count(), "duration_s": args.duration,
                  "warmup_s": args.warmup, "examples": str(args.input.relative_to(EXAMPLES.parents[1]))
                  if args.input.is_relative_to(EXAMPLES.parents[1]) else str(args.input),
                  "load_average_start": [round(x, 2) for x in load_start],
                  "load_average_end": [round(x, 2) for x in load_end], "rows": rows}
        args.json_out.write_text(json.dumps(report, indent=2) + "\n")
    return 0 if all(r["ok"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
