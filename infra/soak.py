"""A stream soak with conflicting duplicates: is every verdict findable at the end? A check, not a test.

Starts its own stack on loopback (Tansu, osmem-server; own topic, group and index) and
`groundwatch consume` as a subprocess, then produces --records responses at --rate per second,
built from examples/responses.jsonl with unique request ids and unique passage text (so the
scorer's caches do not answer the repeats). A --duplicate-share of them reuse an earlier
record's request id with a regenerated answer; a --replay-share resend an earlier record as is.
Once the consumer has committed the end of the topic (bounded by --timeout-s) it checks the
store: every produced response's verdict is found by request id and content hash, both
documents of each conflicting pair are there and flagged conflicting_duplicate, no other
document is flagged, and a replay made no second document. Prints (and with --json writes)
counts, elapsed time and the consumer's peak RSS; exits 1 when anything is missing or wrong.
Everything it started is stopped by PID, also on failure.

    python -m infra.soak --records 4000 --duplicate-share 0.05 --rate 10 --json soak.json
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
import uuid
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path

from groundwatch.evaluation.bench.memory import peak_rss_mb
from groundwatch.export.duplicates import CONFLICTING_DUPLICATE
from groundwatch.scorers.identity import content_hash
from groundwatch.scorers.jsonl import read_jsonl
from groundwatch.scorers.schema import parse_response
from groundwatch.tools.stream_bench import _letters
from infra.server import stop_process
from infra.stack import start_osmem, start_tansu

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "responses.jsonl"
REGENERATED = " If anything is still unclear, our support team can help."  # a retried request, answered anew
LOOKUP_CHUNK = 500  # request ids per store query


def build_stream(n: int, duplicate_share: float, replay_share: float, run: str,
                 seed: int = 0) -> tuple[list[dict], list[tuple[str, str]]]:
    """The records in produce order, and the (request id, content hash) pairs of the conflicting pairs.

    Each conflicting copy and each replay follows its original; an original gets at most one
    regenerated answer, so every pair is exactly two documents.
    """
    examples = [record for _, record in read_jsonl(EXAMPLES)]
    rng = random.Random(seed)
    conflicts, replays = round(n * duplicate_share), round(n * replay_share)
    if conflicts + replays > n // 2:
        raise ValueError("--duplicate-share plus --replay-share must leave at least half the records original")
    kinds = ["original"] * (n - conflicts - replays) + ["conflict"] * conflicts + ["replay"] * replays
    rng.shuffle(kinds)
    stream: list[dict] = []
    sent: list[dict] = []          # originals so far
    unpaired: list[dict] = []      # originals with no regenerated answer yet
    deferred: list[str] = []       # extras that came before an original they could copy
    pairs: list[tuple[str, str]] = []

    def extra(kind: str) -> bool:
        pool = unpaired if kind == "conflict" else sent
        if not pool:
            return False
        first = pool.pop(rng.randrange(len(pool))) if kind == "conflict" else rng.choice(pool)
        if kind == "replay":
            stream.append(first)
            return True
        second = {**first, "answer": first["answer"] + REGENERATED}
        stream.append(second)
        pairs.append((first["request_id"], _hash(first)))
        pairs.append((second["request_id"], _hash(second)))
        return True

    now = datetime.now(timezone.utc).isoformat()
    for kind in kinds:
        if kind != "original":
            if not extra(kind):
                deferred.append(kind)
            continue
        i = len(sent)
        record = dict(examples[i % len(examples)])
        tag = f" (soak {_letters(i)})"  # letters: no number check is affected
        record.update(request_id=f"soak-{run}-{i:06d}", timestamp=now,
                      passages=[{**p, "text": p.get("text", "") + tag} for p in record.get("passages", [])])
        stream.append(record)
        sent.append(record)
        unpaired.append(record)
        while deferred and extra(deferred[0]):
            deferred.pop(0)
    if deferred:
        raise ValueError("too few originals for the duplicates asked for")
    return stream, pairs


def _hash(record: dict) -> str:
    return content_hash(parse_response(record))


def _env(bootstrap: str, opensearch_url: str, names: dict, backend: str) -> dict[str, str]:
    return {**os.environ, "GROUNDWATCH_LOG_FORMAT": "json", "GROUNDWATCH_LOG_LEVEL": "warning",
            "GROUNDWATCH_KAFKA__BOOTSTRAP_SERVERS": bootstrap, "GROUNDWATCH_KAFKA__INPUT_TOPIC": names["topic"],
            "GROUNDWATCH_KAFKA__GROUP_ID": names["group"],
            "GROUNDWATCH_KAFKA__DEAD_LETTER_TOPIC": names["dead_letters"],
            "GROUNDWATCH_KAFKA__ALERTS_TOPIC": names["alerts"],
            "GROUNDWATCH_OPENSEARCH__URL": opensearch_url, "GROUNDWATCH_OPENSEARCH__ALIAS": names["alias"],
            "GROUNDWATCH_OPENSEARCH__INDEX_PREFIX": names["prefix"],
            "GROUNDWATCH_OPENSEARCH__NUMBER_OF_REPLICAS": "0",
            "GROUNDWATCH_SCORER__BACKEND": backend,
            # Port 0: the child binds a free port itself, on loopback.
            "GROUNDWATCH_METRICS__HOST": "127.0.0.1", "GROUNDWATCH_METRICS__PORT": "0"}


def _create_topics(bootstrap: str, names: dict) -> None:
    from confluent_kafka.admin import AdminClient, NewTopic

    from groundwatch.consumer.dead_letters import TOPIC_CONFIG

    admin = AdminClient({"bootstrap.servers": bootstrap})
    wanted = [NewTopic(names["topic"], num_partitions=1, replication_factor=1),
              NewTopic(names["dead_letters"], num_partitions=1, replication_factor=1, config=TOPIC_CONFIG),
              NewTopic(names["alerts"], num_partitions=1, replication_factor=1)]
    for future in admin.create_topics(wanted).values():
        future.result(10)


def _produce(bootstrap: str, topic: str, stream: list[dict], rate: float, consumer: subprocess.Popen) -> None:
    from confluent_kafka import Producer

    producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5})
    started = time.monotonic()
    for i, record in enumerate(stream):
        if consumer.poll() is not None:
            raise RuntimeError(f"the consumer exited with code {consumer.returncode} while records were produced")
        delay = started + i / rate - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        producer.produce(topic, value=json.dumps(record).encode(), key=record["request_id"].encode())
        producer.poll(0)
    if producer.flush(30):
        raise RuntimeError("the broker did not take every record within 30 s")


def _committed(bootstrap: str, names: dict) -> int:
    from confluent_kafka import Consumer, TopicPartition

    reader = Consumer({"bootstrap.servers": bootstrap, "group.id": names["group"], "enable.auto.commit": False})
    try:
        [tp] = reader.committed([TopicPartition(names["topic"], 0)], timeout=10)
        return max(tp.offset, 0)
    finally:
        reader.close()


def _wait_committed(bootstrap: str, names: dict, end: int, consumer: subprocess.Popen, deadline: float) -> None:
    while True:
        if consumer.poll() is not None:
            raise RuntimeError(f"the consumer exited with code {consumer.returncode} before committing offset {end}")
        try:
            if _committed(bootstrap, names) >= end:
                return
        except Exception:  # noqa: BLE001 - the group may be rebalancing; ask again
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"the consumer had not committed offset {end} within --timeout-s")
        time.sleep(1.0)


def stored(opensearch_url: str, alias: str, request_ids: list[str]) -> list[dict]:
    """request_id, content_hash and store_flags of every document stored under these request ids."""
    from opensearchpy import OpenSearch

    client = OpenSearch(hosts=[opensearch_url], timeout=30, max_retries=0)
    client.indices.refresh(index=alias)
    docs = []
    for start in range(0, len(request_ids), LOOKUP_CHUNK):
        chunk = request_ids[start:start + LOOKUP_CHUNK]
        answer = client.search(index=alias, body={
            "size": 10_000, "_source": ["request_id", "content_hash", "store_flags"],
            "query": {"terms": {"request_id": chunk}}})
        docs += [hit["_source"] for hit in answer["hits"]["hits"]]
    return docs


def check(stream: list[dict], pairs: list[tuple[str, str]], docs: list[dict]) -> dict:
    """Counts of what the store holds against what was produced; `ok` only when nothing is off."""
    expected = {(r["request_id"], _hash(r)) for r in stream}
    found = Counter((d.get("request_id"), d.get("content_hash")) for d in docs)
    flagged = {(d.get("request_id"), d.get("content_hash")) for d in docs
               if CONFLICTING_DUPLICATE in (d.get("store_flags") or [])}
    conflicting = set(pairs)
    result = {
        "responses_expected": len(expected),
        "documents": len(docs),
        "missing": len(expected - set(found)),
        "unexpected": len(set(found) - expected),
        "extra_copies": sum(count - 1 for count in found.values() if count > 1),
        "conflicting_pairs": len(pairs) // 2,
        "pair_documents_missing": len(conflicting - set(found)),
        "pair_documents_unflagged": len(conflicting & set(found) - flagged),
        "flagged_outside_pairs": len(flagged - conflicting),
    }
    result["ok"] = not any(result[k] for k in ("missing", "unexpected", "extra_copies", "pair_documents_missing",
                                               "pair_documents_unflagged", "flagged_outside_pairs"))
    return result


def soak(args: argparse.Namespace, workdir: Path) -> dict:
    run = uuid.uuid4().hex[:8]
    names = {"topic": f"soak-{run}", "group": f"g-soak-{run}", "dead_letters": f"soak-{run}-dlq",
             "alerts": f"soak-{run}-alerts", "prefix": f"soak-{run}", "alias": f"soak-{run}-all"}
    stream, pairs = build_stream(args.records, args.duplicate_share, args.replay_share, run, args.seed)
    report: dict = {"records": len(stream), "conflicting_copies": len(pairs) // 2,
                    "replays": round(args.records * args.replay_share), "rate": args.rate, "backend": args.backend}
    deadline = time.monotonic() + args.timeout_s
    started: list = []
    consumer = None
    log_path = workdir / "consume.log"
    try:
        tansu = start_tansu(workdir)
        started.append(tansu)
        osmem = start_osmem(workdir, parent_pid=os.getpid())
        started.append(osmem)
        _create_topics(tansu.address, names)
        with open(log_path, "wb") as log:
            consumer = subprocess.Popen([sys.executable, "-m", "groundwatch.cli", "consume"],
                                        env=_env(tansu.address, osmem.url, names, args.backend),
                                        stdout=log, stderr=subprocess.STDOUT)
        begun = time.monotonic()
        _produce(tansu.address, names["topic"], stream, args.rate, consumer)
        produced = time.monotonic()
        _wait_committed(tansu.address, names, len(stream), consumer, deadline)
        drained = time.monotonic()
        report.update(produce_s=round(produced - begun, 1), drain_after_produce_s=round(drained - produced, 1),
                      elapsed_s=round(drained - begun, 1), consumer_peak_rss_mb=peak_rss_mb(consumer.pid))
        stop_process(consumer)
        report["consumer_exit_code"] = consumer.returncode
        report.update(check(stream, pairs, stored(osmem.url, names["alias"],
                                                  sorted({r["request_id"] for r in stream}))))
    except Exception as exc:  # noqa: BLE001 - reported as the result, with the end of the consumer's log
        report.update(ok=False, error=f"{type(exc).__name__}: {exc}")
        if log_path.is_file():
            report["consumer_log_tail"] = log_path.read_text(errors="replace").splitlines()[-20:]
    finally:
        if consumer is not None:
            stop_process(consumer)
        for server in reversed(started):
            server.stop()
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m infra.soak", description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=4000, help="records produced, duplicates included")
    parser.add_argument("--duplicate-share", type=float, default=0.05,
                        help="share of records that reuse an earlier request id with a regenerated answer")
    parser.add_argument("--replay-share", type=float, default=0.01,
                        help="share of records that resend an earlier record unchanged")
    parser.add_argument("--rate", type=float, default=10.0, help="records produced per second")
    parser.add_argument("--backend", default="onnx", choices=["onnx", "torch", "fake"],
                        help="the consumer's NLI backend (fake: delivery only, no inference)")
    parser.add_argument("--timeout-s", type=float, default=None,
                        help="the whole run's bound (default: the produce time, plus 1 s per record for a "
                             "consumer slower than the rate, plus 10 minutes)")
    parser.add_argument("--seed", type=int, default=0, help="where the duplicates fall")
    parser.add_argument("--json", type=Path, help="also write the report here")
    args = parser.parse_args(argv)
    if args.records < 2 or args.rate <= 0 or not 0 <= args.duplicate_share < 1 or not 0 <= args.replay_share < 1:
        parser.error("--records must be at least 2, --rate above 0, the shares in [0, 1)")
    if args.timeout_s is None:
        args.timeout_s = args.records / args.rate + args.records + 600
    try:
        build_stream(args.records, args.duplicate_share, args.replay_share, "check", args.seed)
    except ValueError as exc:
        parser.error(str(exc))
    # A SIGTERM unwinds like Ctrl-C, so the finally blocks stop the consumer and the servers.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    with tempfile.TemporaryDirectory(prefix="gw-soak-") as workdir:
        report = soak(args, Path(workdir))
    text = json.dumps(report, indent=2)
    print(text)
    if args.json:
        args.json.write_text(text + "\n")
    return 0 if report.get("ok") else 1


if __name__ == "__main__":
    raise SystemExit(main())
