"""One fault-injection run against a local stack of its own.

Tansu and osmem-server are started fresh; OpenSearch is reached through a StallingProxy.
Messages (valid, poison, oversized) are produced at a steady rate over the planned
duration while consumer A runs; a random schedule of faults plays out meanwhile:
kill -9 of A (restarted at once), stalls of a _bulk request mid-way, SIGSTOP of
osmem-server, SIGSTOP of the broker, and a second consumer B that joins and leaves the
group (two rebalances each time). Then A finishes the backlog, is stopped with SIGTERM,
and the census compares documents, dead letters and committed offsets with what was sent.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable

from groundwatch.consumer.dead_letters import TOPIC_CONFIG
from infra.faults.census import census, committed, document_request_ids, read_dead_letters
from infra.faults.chaos import ConsumerProcess, StallingProxy, freeze
from infra.faults.workload import Producer, make_messages
from infra.server import free_port
from infra.stack import start_osmem, start_tansu

SESSION_TIMEOUT_MS = 6000  # Tansu makes a group join wait about half of it


@dataclass
class FaultConfig:
    messages: int = 200
    kills: int = 3
    opensearch_stalls: int = 1   # a _bulk held half-sent (the client times out and retries)
    opensearch_freezes: int = 1  # SIGSTOP of osmem-server
    broker_pauses: int = 1       # SIGSTOP of Tansu
    rebalances: int = 1          # consumer B joins, then leaves: two rebalances each
    partitions: int = 3
    bad_fraction: float = 0.08
    oversized: int = 2
    backend: str = "onnx"        # onnx: the shipped model; fake: deterministic, measures delivery only
    model_dir: str | None = None
    batch_size: int = 8
    gap_s: tuple[float, float] = (2.0, 8.0)  # between two faults
    seed: int = 13
    finish_timeout_s: float = 600.0  # for the backlog after the last fault
    max_record_bytes: int = 1_000_000
    max_passages: int = 100


@dataclass
class Timeline:
    start: float = field(default_factory=time.monotonic)
    events: list[dict] = field(default_factory=list)

    def note(self, what: str, **details) -> None:
        self.events.append({"t_s": round(time.monotonic() - self.start, 1), "event": what, **details})


def _env(cfg: FaultConfig, names: dict, bootstrap: str, opensearch_url: str, metrics_port: int) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GROUNDWATCH_")}
    env.update({
        "GROUNDWATCH_LOG_FORMAT": "json", "GROUNDWATCH_METRICS__HOST": "127.0.0.1",
        "GROUNDWATCH_METRICS__PORT": str(metrics_port),
        "GROUNDWATCH_KAFKA__BOOTSTRAP_SERVERS": bootstrap, "GROUNDWATCH_KAFKA__INPUT_TOPIC": names["topic"],
        "GROUNDWATCH_KAFKA__GROUP_ID": names["group"], "GROUNDWATCH_KAFKA__DEAD_LETTER_TOPIC": names["dead_letters"],
        "GROUNDWATCH_KAFKA__ALERTS_TOPIC": names["alerts"], "GROUNDWATCH_KAFKA__BATCH_SIZE": str(cfg.batch_size),
        "GROUNDWATCH_KAFKA__POLL_TIMEOUT_S": "0.2", "GROUNDWATCH_KAFKA__SESSION_TIMEOUT_MS": str(SESSION_TIMEOUT_MS),
        "GROUNDWATCH_KAFKA__PRODUCE_TIMEOUT_S": "10",
        "GROUNDWATCH_OPENSEARCH__URL": opensearch_url, "GROUNDWATCH_OPENSEARCH__ALIAS": names["alias"],
        "GROUNDWATCH_OPENSEARCH__INDEX_PREFIX": names["prefix"], "GROUNDWATCH_OPENSEARCH__NUMBER_OF_REPLICAS": "0",
        "GROUNDWATCH_OPENSEARCH__TIMEOUT_S": "3",
        "GROUNDWATCH_SCORER__BACKEND": cfg.backend, "GROUNDWATCH_SCORER__USE_EMBEDDINGS": "false",
        "GROUNDWATCH_SCORER__MAX_RECORD_BYTES": str(cfg.max_record_bytes),
        "GROUNDWATCH_SCORER__MAX_PASSAGES": str(cfg.max_passages),
        "GROUNDWATCH_CONSUMER__SINK_RETRY_INITIAL_S": "0.2", "GROUNDWATCH_CONSUMER__SINK_RETRY_MAX_S": "2",
    })
    if cfg.model_dir:
        env["GROUNDWATCH_SCORER__MODEL_DIR"] = cfg.model_dir
    return env


def _create_topics(bootstrap: str, names: dict, partitions: int) -> None:
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": bootstrap})
    wanted = [NewTopic(names["topic"], partitions, 1), NewTopic(names["dead_letters"], 1, 1, config=TOPIC_CONFIG),
              NewTopic(names["alerts"], 1, 1)]
    for future in admin.create_topics(wanted).values():
        future.result(15)


def _schedule(cfg: FaultConfig, rng: random.Random) -> list[str]:
    faults = (["kill"] * cfg.kills + ["opensearch_stall"] * cfg.opensearch_stalls
              + ["opensearch_freeze"] * cfg.opensearch_freezes + ["broker_pause"] * cfg.broker_pauses
              + ["rebalance"] * cfg.rebalances)
    rng.shuffle(faults)
    return faults


def _log_events(log_dir: Path) -> Counter:
    events: Counter = Counter()
    for path in log_dir.glob("*.log"):
        for line in path.read_text(errors="replace").splitlines():
            if line.startswith("{"):
                try:
                    events[json.loads(line).get("event", "?")] += 1
                except json.JSONDecodeError:
                    pass
    return events


def run(cfg: FaultConfig, workdir: Path | None = None, say: Callable[[str], None] = print) -> dict:
    rng = random.Random(cfg.seed)
    keep = workdir is not None
    workdir = Path(workdir or tempfile.mkdtemp(prefix="faults-"))
    log_dir = workdir / "logs"
    log_dir.mkdir(parents=True, exist_ok=True)
    suffix = f"{cfg.seed}-{os.getpid()}"
    names = {"topic": f"in-faults-{suffix}", "group": f"g-faults-{suffix}", "dead_letters": f"dlq-faults-{suffix}",
             "alerts": f"alerts-faults-{suffix}", "prefix": f"verdicts-faults-{suffix}",
             "alias": f"verdicts-faults-{suffix}-all"}
    tansu = start_tansu(workdir)
    osmem = start_osmem(workdir, parent_pid=os.getpid())
    proxy = StallingProxy(("127.0.0.1", osmem.port), None).start()
    consumers: list[ConsumerProcess] = []
    timeline = Timeline()
    try:
        _create_topics(tansu.address, names, cfg.partitions)
        messages = make_messages(cfg.messages, rng, names["topic"], cfg.bad_fraction, cfg.oversized,
                                 cfg.max_record_bytes, cfg.max_passages)
        faults = _schedule(cfg, rng)
        shares = [len(messages) // (len(faults) + 1)] * len(faults)
        shares.append(len(messages) - sum(shares))
        producer = Producer(tansu.address, names["topic"], messages,
                            rate_per_s=max(shares) / (cfg.gap_s[0] + cfg.gap_s[1]) * 2 + 1)
        a, b = (ConsumerProcess(name, _env(cfg, names, tansu.address, f"http://{proxy.address}", port), port, log_dir)
                for name, port in (("a", free_port()), ("b", free_port())))
        consumers += [a, b]
        a.start()
        if not a.wait_ready(180):
            raise RuntimeError(f"consumer A never became ready; see {log_dir}")
        timeline.note("consumer_a_ready")
        producer.allow(shares[0])
        producer.start()
        counts: Counter = Counter()
        crashes = 0
        for i, fault in enumerate(faults):
            time.sleep(rng.uniform(*cfg.gap_s))
            if not a.alive():  # exited on its own: a crash the suite did not cause
                crashes += 1
                timeline.note("consumer_a_exited", code=a.process.returncode)
                a.start()
            if fault == "kill":
                a.wait_ready(120)
                time.sleep(rng.uniform(0.0, 5.0))  # a random point of its work: polling, scoring, writing
                a.kill()
                timeline.note("kill_9", consumer="a", start=a.starts)
                time.sleep(rng.uniform(0.0, 1.5))
                a.start()
            elif fault == "opensearch_stall":
                held = rng.uniform(4.0, 12.0)
                proxy.arm(held)
                timeline.note("opensearch_bulk_stall_armed", hold_s=round(held, 1))
                producer.allow(shares[i + 1])  # input for the bulk that will be held
                fired = time.monotonic() + 60
                while proxy.armed() and time.monotonic() < fired:
                    time.sleep(0.2)
                timeline.note("opensearch_bulk_stall_fired" if not proxy.armed() else "opensearch_bulk_stall_unused")
                proxy.arm(0.0)
                counts[fault] += 1
                say(f"[{timeline.events[-1]['t_s']:>7}s] {fault}")
                continue
            elif fault == "opensearch_freeze":
                held = rng.uniform(2.0, 8.0)
                timeline.note("opensearch_sigstop", hold_s=round(held, 1))
                freeze(osmem.pid, held)
            elif fault == "broker_pause":
                held = rng.uniform(2.0, 6.0)
                timeline.note("broker_sigstop", hold_s=round(held, 1))
                freeze(tansu.pid, held)
            elif fault == "rebalance":
                b.start()
                joined = b.wait_ready(120)
                timeline.note("consumer_b_joined", ready=joined)
                time.sleep(rng.uniform(2.0, 8.0))
                code = b.stop()
                timeline.note("consumer_b_left", code=code)
            producer.allow(shares[i + 1])
            counts[fault] += 1
            say(f"[{timeline.events[-1]['t_s']:>7}s] {fault}")
        producer.allow(len(messages))
        producer.finished.wait(300.0)
        timeline.note("produced", acked=producer.acked, errors=len(producer.errors))
        ends = producer.end_offsets()
        deadline = time.monotonic() + cfg.finish_timeout_s
        done = {}
        while time.monotonic() < deadline:
            if not a.alive():
                crashes += 1
                timeline.note("consumer_a_exited", code=a.process.returncode)
                a.start()
            done = committed(tansu.address, names["group"], names["topic"], cfg.partitions)
            if all(done.get(p, 0) >= end for p, end in ends.items()):
                break
            time.sleep(2.0)
        timeline.note("backlog_done" if all(done.get(p, 0) >= e for p, e in ends.items()) else "backlog_timeout",
                      committed=done, expected=ends)
        code_a = a.stop()
        timeline.note("consumer_a_stopped", code=code_a)
        request_ids = document_request_ids(osmem.url, names["alias"], len(messages))
        letters = read_dead_letters(tansu.address, names["dead_letters"], 1)
        result = census(messages, request_ids, letters)
        result.update({
            "messages": len(messages),
            "valid": sum(1 for m in messages if not m.bad),
            "bad": sum(1 for m in messages if m.bad),
            "bad_by_kind": dict(Counter(m.kind for m in messages if m.bad)),
            "produced": producer.acked, "produce_errors": len(producer.errors),
            "kills": counts["kill"], "rebalances": 2 * counts["rebalance"],
            "outages": {"opensearch_bulk_stalls": proxy.stalls, "opensearch_freezes": counts["opensearch_freeze"],
                        "broker_pauses": counts["broker_pause"]},
            "crashes": crashes,
            "committed": done, "expected_committed": ends,
            "all_committed": bool(ends) and all(done.get(p, 0) >= e for p, e in ends.items()),
            "consumer_starts": {c.name: c.starts for c in consumers},
            "final_exit_code": code_a,
            "log_events": dict(_log_events(log_dir).most_common(40)),
            "elapsed_s": round(time.monotonic() - timeline.start, 1),
            "timeline": timeline.events,
            "config": {k: v for k, v in asdict(cfg).items()},
            "workdir": str(workdir) if keep else None,
        })
        result["passed"] = (result["lost"] == 0 and result["duplicated"] == 0 and result["all_committed"]
                            and result["valid_dead_lettered"] == 0 and result["bad_with_document"] == 0
                            and result["unknown_documents"] == 0 and result["dead_letters_with_wrong_bytes"] == 0
                            and result["dead_letters_with_wrong_key"] == 0)
        return result
    finally:
        for consumer in consumers:
            consumer.kill()
        proxy.stop()
        osmem.stop()
        tansu.stop()
        if not keep:
            shutil.rmtree(workdir, ignore_errors=True)


def source_commit() -> str | None:
    """The checked-out commit (short), to say what a saved result was measured at; None outside git."""
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, timeout=10)
    except OSError:
        return None
    return (out.stdout.strip() or None) if out.returncode == 0 else None


def summary(result: dict) -> str:
    o = result["outages"]
    return (f"messages {result['messages']} (valid {result['valid']}, bad {result['bad']}), "
            f"kills {result['kills']}, outages {sum(o.values())} (opensearch bulk stalls {o['opensearch_bulk_stalls']}, "
            f"opensearch freezes {o['opensearch_freezes']}, broker pauses {o['broker_pauses']}), "
            f"rebalances {result['rebalances']}, documents {result['documents']}, "
            f"dead letters {result['dead_letters']}, lost {result['lost']}, duplicated {result['duplicated']} "
            f"(documents {result['duplicated_documents']}, dead letters {result['duplicated_dead_letters']}), "
            f"dead-letter records {result.get('dead_letter_records', result['dead_letters'])} "
            f"({result.get('redelivered_dead_letters', 0)} replayed copies under the same key), "
            f"valid dead-lettered {result['valid_dead_lettered']}, all committed {result['all_committed']}, "
            f"{result['elapsed_s']} s")
