"""Helpers for the streaming-job tests: responses, topics, settings, a consumer in a thread.

Every test makes its own topic, group, dead-letter/alerts topics and index/alias
from a uuid suffix, so tests never see each other's data.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Callable

from confluent_kafka import Consumer, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic
from opensearchpy import OpenSearch

from groundwatch.config.scorer import ScorerConfig
from groundwatch.config.settings import Settings
from groundwatch.consumer.batch import Batch
from groundwatch.consumer.dead_letters import TOPIC_CONFIG as DEAD_LETTER_TOPIC
from groundwatch.consumer.wiring import Job, build_job
from groundwatch.export.metrics import Metrics
from groundwatch.export.metrics_server import Health
from groundwatch.scorers.identity import content_hash, document_id
from groundwatch.scorers.pipeline import Scorer
from groundwatch.scorers.schema import parse_response

SESSION_TIMEOUT_MS = 6000  # Tansu makes a group join wait about half of this


def response(i: int, prefix: str) -> dict:
    """A valid groundwatch.response.v1 record with three passages and three claims."""
    return {
        "request_id": f"{prefix}-{i:04d}",
        "timestamp": "2026-11-15T10:00:00+00:00",
        "question": f"What is the refund window for order {i}?",
        "answer": (f"Refunds are accepted within {30 + i % 5} days of delivery. "
                   "Shipping is free for orders over $50. Hope this helps!"),
        "passages": [
            {"id": f"{prefix}-{i}-a", "text": f"Refunds are accepted within {30 + i % 5} days of delivery.",
             "score": 0.9},
            {"id": f"{prefix}-{i}-b", "text": "Shipping is free for orders over $50 in the EU.", "score": 0.7},
            {"id": f"{prefix}-{i}-c", "text": "Our stores open at nine on weekdays.", "score": 0.2},
        ],
        "metadata": {"app": "shop-assistant", "model": "gen-1", "tenant": "acme"},
    }


@dataclass
class Names:
    topic: str
    group: str
    dead_letters: str
    alerts: str
    prefix: str
    alias: str

    @classmethod
    def fresh(cls, label: str) -> "Names":
        s = f"{label}-{uuid.uuid4().hex[:8]}"
        return cls(f"in-{s}", f"g-{s}", f"dlq-{s}", f"alerts-{s}", f"verdicts-{s}", f"verdicts-{s}-all")


def create_topics(bootstrap: str, names: Names, partitions: int = 1) -> None:
    admin = AdminClient({"bootstrap.servers": bootstrap})
    wanted = [NewTopic(names.topic, num_partitions=partitions, replication_factor=1),
              NewTopic(names.dead_letters, num_partitions=1, replication_factor=1, config=DEAD_LETTER_TOPIC),
              NewTopic(names.alerts, num_partitions=1, replication_factor=1)]
    for future in admin.create_topics(wanted).values():
        future.result(10)


def settings_for(bootstrap: str, opensearch_url: str, names: Names, model_dir, scorer: dict | None = None,
                 **consumer) -> Settings:
    return Settings(
        log_format="json",
        kafka={"bootstrap_servers": bootstrap, "input_topic": names.topic, "group_id": names.group,
               "dead_letter_topic": names.dead_letters, "alerts_topic": names.alerts,
               "batch_size": consumer.pop("batch_size", 8), "poll_timeout_s": 0.2,
               "session_timeout_ms": SESSION_TIMEOUT_MS, "produce_timeout_s": 10},
        opensearch={"url": opensearch_url, "alias": names.alias, "index_prefix": names.prefix,
                    "number_of_replicas": 0, "timeout_s": 3},
        scorer=ScorerConfig(model_dir=str(model_dir), use_embeddings=False, **(scorer or {})),
        consumer={"sink_retry_initial_s": 0.2, "sink_retry_max_s": 1.0, "shutdown_timeout_s": 15, **consumer},
    )


def settings_env(settings: Settings) -> dict[str, str]:
    """The same settings as GROUNDWATCH_* environment variables, for a `groundwatch consume` subprocess."""
    env = {"GROUNDWATCH_LOG_FORMAT": "json"}
    for section in ("kafka", "opensearch", "consumer"):
        for key, value in getattr(settings, section).model_dump(exclude_none=True).items():
            env[f"GROUNDWATCH_{section.upper()}__{key.upper()}"] = str(value)
    env["GROUNDWATCH_SCORER__MODEL_DIR"] = settings.scorer.model_dir
    env["GROUNDWATCH_SCORER__USE_EMBEDDINGS"] = "false"
    return env


def produce(bootstrap: str, topic: str, values: list[bytes], keys: list[bytes | None] | None = None,
            partition: int | None = None) -> None:
    producer = Producer({"bootstrap.servers": bootstrap})
    keys = keys or [None] * len(values)
    for key, value in zip(keys, values):
        kwargs = {"partition": partition} if partition is not None else {}
        producer.produce(topic, value=value, key=key, headers={"origin": b"test"}, **kwargs)
    assert producer.flush(10) == 0


def produce_responses(bootstrap: str, names: Names, start: int, stop: int) -> list[dict]:
    records = [response(i, names.topic) for i in range(start, stop)]
    produce(bootstrap, names.topic, [json.dumps(r).encode() for r in records],
            [r["request_id"].encode() for r in records])
    return records


def read_topic(bootstrap: str, topic: str, expected: int, timeout_s: float = 20.0) -> list:
    """At least `expected` messages of a one-partition topic, read from the start."""
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": f"reader-{uuid.uuid4().hex[:8]}",
                         "enable.auto.commit": False})
    consumer.assign([TopicPartition(topic, 0, 0)])
    out, deadline = [], time.monotonic() + timeout_s
    try:
        while len(out) < expected and time.monotonic() < deadline:
            out += [m for m in consumer.consume(expected, 0.5) if m.error() is None]
        if expected == 0:  # make sure nothing is there
            out += [m for m in consumer.consume(10, 2.0) if m.error() is None]
    finally:
        consumer.close()
    return out


def committed(bootstrap: str, names: Names, partitions: int = 1) -> dict[int, int]:
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": names.group})
    try:
        tps = consumer.committed([TopicPartition(names.topic, p) for p in range(partitions)], timeout=10)
        return {tp.partition: max(tp.offset, 0) for tp in tps}
    finally:
        consumer.close()


def opensearch(url: str) -> OpenSearch:
    return OpenSearch(hosts=[url], timeout=5, max_retries=0)


def expected_id(record: dict, version: str) -> str:
    """The document id of a record's verdict: per app, tenant, request, scorer version and content."""
    meta = record.get("metadata") or {}
    return document_id(meta.get("app"), meta.get("tenant"), record["request_id"], version,
                       content_hash(parse_response(record)))


def scorer_version_of(settings: Settings) -> str:
    """The version a consumer with these settings writes into its document ids (scorers/version.py)."""
    scorer = Scorer.from_config(settings.scorer)
    try:
        return scorer.version
    finally:
        scorer.close()


def documents(url: str, alias: str) -> list[dict]:
    """Every hit under the alias (id and source)."""
    client = opensearch(url)
    client.indices.refresh(index=alias)
    answer = client.search(index=alias, body={"size": 10_000, "query": {"match_all": {}}})
    return [{"_id": h["_id"], **h["_source"]} for h in answer["hits"]["hits"]]


def wait_until(condition: Callable[[], bool], timeout_s: float, what: str, step_s: float = 0.2) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            if condition():
                return
        except Exception:  # noqa: BLE001 - the server may be coming back; ask again
            pass
        time.sleep(step_s)
    raise AssertionError(f"timed out after {timeout_s}s waiting for {what}")


def count_under(url: str, alias: str) -> int:
    client = opensearch(url)
    if not client.indices.exists_alias(name=alias):
        return 0
    client.indices.refresh(index=alias)
    return client.count(index=alias)["count"]


@dataclass
class RunningConsumer:
    """A StreamApp running in a thread, with its own scorer and metrics."""

    job: Job
    scorer: Scorer
    metrics: Metrics
    health: Health
    batches: list[Batch] = field(default_factory=list)
    thread: threading.Thread | None = None
    exit_code: int | None = None

    @classmethod
    def start(cls, settings: Settings) -> "RunningConsumer":
        metrics, health = Metrics(), Health()
        scorer = Scorer.from_config(settings.scorer, stage_timer=metrics.observe_stage,
                                    on_batch=metrics.observe_nli_batch,
                                    on_pair_cache=metrics.observe_pair_cache)
        health.model_loaded = True
        running = cls(None, scorer, metrics, health)  # type: ignore[arg-type]
        running.job = build_job(settings, scorer, metrics, health, on_batch_done=running.batches.append)
        running.thread = threading.Thread(target=running._run, name="stream-app", daemon=True)
        running.thread.start()
        return running

    def _run(self) -> None:
        self.exit_code = self.job.app.run()

    def stop(self, timeout_s: float = 30.0) -> int | None:
        self.job.app.stop()
        self.thread.join(timeout_s)
        assert not self.thread.is_alive(), "consumer did not stop"
        self.job.close()
        self.scorer.close()
        return self.exit_code

    def committed_offsets(self) -> list[int]:
        """Offsets of every message in a committed batch, in order."""
        return [m.offset() for b in self.batches for m in b.messages]
