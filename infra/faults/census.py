"""After the run: count verdict documents, dead letters and committed offsets against what was sent.

Expected: every valid message has exactly one document, every bad one exactly one dead
letter (with its original bytes, or a truncated prefix whose size and sha256 headers match
the original), and the group's committed offsets reach the end of every partition.

Dead letters are counted as the topic's consumers must read them (consumer/dead_letters.py):
one per key, the key being the source coordinates. A batch replayed after a kill -9 sends
its dead letters again under the same keys; those physical copies are counted apart
(`dead_letter_records`, `redelivered_dead_letters`) and are not duplicates. A duplicate is a
second key for the same source message, which the key scheme rules out and the census checks.
"""

from __future__ import annotations

import hashlib
import time
import uuid
from collections import Counter

from groundwatch.consumer.dead_letters import dead_letter_key, latest_per_key, source_coordinates
from infra.faults.workload import Message

TRUNCATED, ORIGINAL_SIZE, ORIGINAL_SHA256 = "groundwatch.truncated", "groundwatch.original_size", \
    "groundwatch.original_sha256"


def committed(bootstrap: str, group: str, topic: str, partitions: int) -> dict[int, int]:
    from confluent_kafka import Consumer, TopicPartition

    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": group})
    try:
        tps = consumer.committed([TopicPartition(topic, p) for p in range(partitions)], timeout=10)
        return {tp.partition: max(tp.offset, 0) for tp in tps}
    finally:
        consumer.close()


def read_dead_letters(bootstrap: str, topic: str, partitions: int, quiet_s: float = 5.0) -> list:
    """Every record of the dead-letter topic, read until nothing new came for quiet_s."""
    from confluent_kafka import Consumer, TopicPartition

    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": f"census-{uuid.uuid4().hex[:8]}",
                         "enable.auto.commit": False, "fetch.max.bytes": 64_000_000})
    consumer.assign([TopicPartition(topic, p, 0) for p in range(partitions)])
    out, last = [], time.monotonic()
    try:
        while time.monotonic() - last < quiet_s:
            batch = [m for m in consumer.consume(500, 0.5) if m.error() is None]
            if batch:
                out += batch
                last = time.monotonic()
    finally:
        consumer.close()
    return out


def document_request_ids(url: str, alias: str, expected: int) -> list[str]:
    """request_id of every hit behind the alias (one entry per document, across all its indices)."""
    from opensearchpy import OpenSearch

    client = OpenSearch(hosts=[url], timeout=60, max_retries=2)
    if not client.indices.exists_alias(name=alias):
        return []
    client.indices.refresh(index=alias)
    ids, after = [], None
    while True:
        body = {"size": 5000, "_source": ["request_id"], "sort": [{"request_id": "asc"}, {"_id": "asc"}],
                "query": {"match_all": {}}}
        if after:
            body["search_after"] = after
        hits = client.search(index=alias, body=body)["hits"]["hits"]
        ids += [h["_source"]["request_id"] for h in hits]
        if len(hits) < 5000 or len(ids) > expected * 2 + 5000:
            return ids
        after = hits[-1]["sort"]


def _headers(message) -> dict[str, bytes]:
    return {k: v for k, v in (message.headers() or [])}


def _bytes_kept(letter, original: bytes | None) -> bool:
    headers = _headers(letter)
    value = letter.value() or b""
    if TRUNCATED in headers:
        return (int(headers.get(ORIGINAL_SIZE, b"-1")) == len(original or b"")
                and headers.get(ORIGINAL_SHA256, b"").decode() == hashlib.sha256(original or b"").hexdigest()
                and (original or b"").startswith(value))
    return value == (original or b"")


def census(messages: list[Message], request_ids: list[str], records: list) -> dict:
    valid = {m.request_id: m for m in messages if not m.bad}
    bad = {(m.partition, m.offset): m for m in messages if m.bad}
    by_coordinates = {(m.partition, m.offset): m for m in messages}
    documents = Counter(request_ids)
    dead = Counter()
    dead_reasons: Counter = Counter()
    bytes_wrong = 0
    letters, redelivered = latest_per_key(records)
    wrong_key = sum(1 for r in records if (c := source_coordinates(r)) is None or r.key() != dead_letter_key(*c))
    for letter in letters:
        headers = _headers(letter)
        coordinates = (int(headers.get("groundwatch.source_partition", b"-1")),
                       int(headers.get("groundwatch.source_offset", b"-1")))
        dead[coordinates] += 1
        dead_reasons[f"{headers.get('groundwatch.stage', b'?').decode()}:"
                     f"{headers.get('groundwatch.error_class', b'?').decode()}"] += 1
        source = by_coordinates.get(coordinates)
        if source is not None and not _bytes_kept(letter, source.value):
            bytes_wrong += 1
    valid_dead = [rid for rid, m in valid.items() if dead[(m.partition, m.offset)]]
    lost_valid = [rid for rid, m in valid.items() if documents[rid] == 0 and not dead[(m.partition, m.offset)]]
    lost_bad = [c for c in bad if dead[c] == 0]
    bad_kinds_lost = Counter(bad[c].kind for c in lost_bad)
    return {
        "documents": sum(documents.values()),
        "dead_letters": sum(dead.values()),
        "dead_letter_records": len(records),
        "redelivered_dead_letters": redelivered,
        "dead_letters_with_wrong_key": wrong_key,
        "lost": len(lost_valid) + len(lost_bad),
        "lost_valid": len(lost_valid),
        "lost_bad": len(lost_bad),
        "lost_bad_by_kind": dict(bad_kinds_lost),
        "duplicated": sum(c - 1 for c in documents.values() if c > 1) + sum(c - 1 for c in dead.values() if c > 1),
        "duplicated_documents": sum(c - 1 for c in documents.values() if c > 1),
        "duplicated_dead_letters": sum(c - 1 for c in dead.values() if c > 1),
        "valid_dead_lettered": len(valid_dead),
        "bad_with_document": sum(1 for m in bad.values() if m.request_id and documents[m.request_id]),
        "unknown_documents": sum(c for rid, c in documents.items() if rid not in valid),
        "unknown_dead_letters": sum(c for coords, c in dead.items() if coords not in by_coordinates),
        "dead_letters_with_wrong_bytes": bytes_wrong,
        "dead_letter_reasons": dict(dead_reasons),
        "examples": {"lost_valid": lost_valid[:5], "lost_bad": [list(c) for c in lost_bad[:5]],
                     "valid_dead_lettered": valid_dead[:5]},
    }
