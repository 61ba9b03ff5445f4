"""kill -9 of `groundwatch consume` while trace joins are held, again and again: is every response judged once?

A local stack of its own (Tansu, osmem-server) unless given one. For each encoding, a stream of
--traces traces written by the real OpenTelemetry SDK (alternating OpenInference and GenAI
conventions), split over export requests and two partitions as the Collector's Kafka exporter
writes them without partition_traces_by_id (children in one partition, roots in the other,
shuffled), goes out in --kills + 1 waves. After each of the first --kills waves the consumer (a
`groundwatch consume` process, fake NLI backend: delivery only) is killed with SIGKILL once its
metrics show traces held in the join buffer, and started again at once. At the end it must drain:
offsets committed to the end of both partitions (lag 0), exactly one verdict document per expected
response, none missing, none twice, no dead letters, and each verdict the one the same response gets
as groundwatch.response.v1 JSON.

    python -m infra.trace_kills [--traces 200] [--kills 10] [--encodings otlp_proto,otlp_json] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from pathlib import Path

from groundwatch.config.scorer import ScorerConfig
from groundwatch.scorers.nli.factory import DEFAULT_MODEL_DIR
from groundwatch.scorers.pipeline import Scorer
from infra.server import free_port, stop_process
from infra.stack import start_osmem, start_tansu
from tests.integration.consumer_support import (
    Names, committed, count_under, create_topics, documents, produce, read_topic, settings_env, settings_for,
)
from tests.otlp_apps import ENCODERS, json_path_verdicts, rag_traces, split_messages

RELEASE_WAIT_S = 3.0  # a trace without its root is released this long after its last span
ROOT_GRACE_S = 1.5    # a trace with its root, this long after its last span (children may be on the other partition)
HELD_TIMEOUT_S = 60.0  # for the consumer to poll a wave and hold part of it


def _env(settings, port: int) -> dict[str, str]:
    return {**os.environ, **settings_env(settings), "GROUNDWATCH_LOG_LEVEL": "warning",
            "GROUNDWATCH_METRICS__HOST": "127.0.0.1", "GROUNDWATCH_METRICS__PORT": str(port),
            "GROUNDWATCH_SCORER__BACKEND": "fake", "GROUNDWATCH_TRACES__RELEASE_WAIT_S": str(RELEASE_WAIT_S),
            "GROUNDWATCH_TRACES__ROOT_GRACE_S": str(ROOT_GRACE_S)}


def _held(port: int) -> float:
    """The consumer's groundwatch_held_traces gauge (0 while it does not answer yet)."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=2) as answer:
            text = answer.read().decode()
    except OSError:
        return 0.0
    for line in text.splitlines():
        if line.startswith("groundwatch_held_traces "):
            return float(line.split()[1])
    return 0.0


def _lag(bootstrap: str, names: Names, ends: dict[int, int]) -> int:
    return sum(ends[p] - offset for p, offset in committed(bootstrap, names, len(ends)).items())


def run_kills(bootstrap: str, opensearch_url: str, encoding: str, traces: int, kills: int, workdir: Path,
              seed: int = 0, drain_timeout_s: float = 300.0) -> dict:
    """One encoding's stream with `kills` SIGKILLs during held joins; the counts, `ok` when nothing is off."""
    names = Names.fresh(f"kills-{encoding[5:]}")
    create_topics(bootstrap, names, partitions=2)
    base = settings_for(bootstrap, opensearch_url, names, DEFAULT_MODEL_DIR, scorer={"backend": "fake"}, batch_size=4)
    settings = base.model_copy(update={"kafka": base.kafka.model_copy(update={"input_format": encoding})})
    stream = rag_traces(traces, tag=names.topic)
    rng = random.Random(seed)
    size = -(-traces // (kills + 1))
    waves = [split_messages(stream[i:i + size], ENCODERS[encoding], rng) for i in range(0, traces, size)]
    port = free_port()
    log_path = workdir / f"consume-{encoding}.log"
    report: dict = {"encoding": encoding, "traces": traces, "messages": sum(map(len, waves)), "kills": 0,
                    "held_at_kill": []}

    def start() -> subprocess.Popen:
        with open(log_path, "ab") as log:
            return subprocess.Popen([sys.executable, "-m", "groundwatch.cli", "consume"], env=_env(settings, port),
                                    stdout=log, stderr=subprocess.STDOUT)

    process = start()
    try:
        for number, wave in enumerate(waves):
            for partition, value in wave:
                produce(bootstrap, names.topic, [value], partition=partition)
            if number == len(waves) - 1 or report["kills"] == kills:
                continue  # the last wave drains
            deadline = time.monotonic() + HELD_TIMEOUT_S
            while (held := _held(port)) == 0 and time.monotonic() < deadline:
                if process.poll() is not None:
                    raise RuntimeError(f"the consumer exited with code {process.returncode}")
                time.sleep(0.05)
            if held == 0:
                raise RuntimeError(f"wave {number}: no trace held within {HELD_TIMEOUT_S} s")
            process.send_signal(signal.SIGKILL)  # no drain, no commit: the held traces are read again
            process.wait(10)
            report["kills"] += 1
            report["held_at_kill"].append(int(held))
            process = start()
        ends = {p: sum(1 for wave in waves for q, _ in wave if q == p) for p in (0, 1)}
        deadline = time.monotonic() + drain_timeout_s
        while time.monotonic() < deadline and process.poll() is None:
            try:
                if _lag(bootstrap, names, ends) == 0:
                    break
            except Exception:  # noqa: BLE001 - the group may be rebalancing; ask again
                pass
            time.sleep(1.0)
        report["lag"] = _lag(bootstrap, names, ends)
    except Exception as exc:  # noqa: BLE001 - reported as the result, with the end of the consumer's log
        report["error"] = f"{type(exc).__name__}: {exc}"
    finally:
        stop_process(process)
    report["consumer_exit_code"] = process.returncode
    scorer = Scorer.from_config(ScorerConfig(model_dir=str(DEFAULT_MODEL_DIR), backend="fake", use_embeddings=False))
    try:
        expected = json_path_verdicts(stream, scorer)
    finally:
        scorer.close()
    docs = documents(opensearch_url, names.alias) if count_under(opensearch_url, names.alias) else []
    found = Counter(d["request_id"] for d in docs)
    report.update(
        responses_expected=len(expected), documents=len(docs), lost=len(set(expected) - set(found)),
        duplicated=sum(n - 1 for n in found.values() if n > 1), unexpected=len(set(found) - set(expected)),
        verdicts_differing=sum(1 for d in docs if d["request_id"] in expected
                               and [c["verdict"] for c in d["claims"]] != expected[d["request_id"]]),
        dead_letters=len(read_topic(bootstrap, names.dead_letters, 0, timeout_s=2.0)))
    report["ok"] = ("error" not in report and report["kills"] == kills and report.get("lag") == 0
                    and report["consumer_exit_code"] == 0
                    and not any(report[k] for k in ("lost", "duplicated", "unexpected", "verdicts_differing",
                                                    "dead_letters")))
    if not report["ok"]:
        report["consumer_log_tail"] = log_path.read_text(errors="replace").splitlines()[-20:]
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m infra.trace_kills", description=__doc__.splitlines()[0])
    parser.add_argument("--traces", type=int, default=200, help="traces per encoding, half in each convention")
    parser.add_argument("--kills", type=int, default=10, help="SIGKILLs of the consumer per encoding")
    parser.add_argument("--encodings", default="otlp_proto,otlp_json", help="comma-separated")
    parser.add_argument("--seed", type=int, default=0, help="how the export requests are shuffled")
    parser.add_argument("--json", type=Path, help="also write the report here")
    args = parser.parse_args(argv)
    encodings = [e.strip() for e in args.encodings.split(",") if e.strip()]
    if args.traces < 2 or args.kills < 0 or args.kills >= args.traces or not encodings:
        parser.error("--traces must be at least 2, --kills in [0, traces), --encodings not empty")
    if unknown := [e for e in encodings if e not in ENCODERS]:
        parser.error(f"--encodings: unknown {', '.join(unknown)} (expected otlp_proto, otlp_json)")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # unwinds, so the servers are stopped
    reports = []
    with tempfile.TemporaryDirectory(prefix="gw-kills-") as workdir:
        tansu, osmem = start_tansu(Path(workdir)), None
        try:
            osmem = start_osmem(Path(workdir), parent_pid=os.getpid())
            for encoding in encodings:
                reports.append(run_kills(tansu.address, osmem.url, encoding, args.traces, args.kills,
                                         Path(workdir), args.seed))
        finally:
            for server in (osmem, tansu):
                if server is not None:
                    server.stop()
    text = json.dumps(reports, indent=2)
    print(text)
    if args.json:
        args.json.write_text(text + "\n")
    return 0 if all(r["ok"] for r in reports) else 1


if __name__ == "__main__":
    raise SystemExit(main())
