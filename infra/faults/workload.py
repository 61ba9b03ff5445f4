"""The suite's input: valid responses, poison of every kind, oversized records; produced at a steady rate.

Every message is remembered with the partition and offset the broker gave it, so the
census can say which message has a document, which a dead letter, and which neither.
"""

from __future__ import annotations

import json
import random
import threading
import time
from dataclasses import dataclass

VALID = "valid"
POISON = ("not_json", "schema", "empty", "wrong_type", "bad_utf8", "too_many_passages", "duplicate_passage_ids")
OVERSIZED = "oversized"

_FACTS = [
    ("Refunds are accepted within {n} days of delivery.", "refund"),
    ("Shipping is free for orders over ${n}.", "shipping"),
    ("The warranty lasts {n} months from purchase.", "warranty"),
    ("Support answers within {n} hours on weekdays.", "support"),
    ("Stores open at {n} o'clock on Saturdays.", "stores"),
    ("Gift cards expire after {n} years.", "gift cards"),
]


@dataclass
class Message:
    kind: str
    key: bytes
    value: bytes | None
    request_id: str | None = None  # valid messages only
    partition: int = -1            # given by the broker on delivery
    offset: int = -1

    @property
    def bad(self) -> bool:
        return self.kind != VALID


def valid_record(rng: random.Random, request_id: str) -> dict:
    """A response whose claims are partly supported, partly contradicted, partly unsupported."""
    facts = rng.sample(_FACTS, 3)
    numbers = [rng.randint(2, 90) for _ in facts]
    passages = [{"id": f"{request_id}-p{i}", "text": text.format(n=n), "score": round(rng.random(), 3)}
                for i, ((text, _), n) in enumerate(zip(facts, numbers))]
    said = [facts[0][0].format(n=numbers[0]),                                   # supported
            facts[1][0].format(n=numbers[1] + rng.choice([0, 1, 7])),           # maybe contradicted
            rng.choice(["Hope this helps!", "Returns need the original receipt."])]  # decorative or unsupported
    return {"request_id": request_id, "timestamp": "2026-11-15T10:00:00+00:00",
            "question": f"What about {facts[0][1]} and {facts[1][1]}?", "answer": " ".join(said),
            "passages": passages, "metadata": {"app": "fault-suite", "tenant": rng.choice(["acme", "globex"])}}


def _poison(kind: str, rng: random.Random, request_id: str, max_passages: int) -> bytes | None:
    record = valid_record(rng, request_id)
    if kind == "not_json":
        return b"{this is not json " + request_id.encode()
    if kind == "schema":
        del record["answer"]
        return json.dumps(record).encode()
    if kind == "empty":
        return None
    if kind == "wrong_type":
        record["passages"] = "not a list"
        return json.dumps(record).encode()
    if kind == "bad_utf8":
        return b'{"request_id": "' + request_id.encode() + b'", "answer": "\xff\xfe"}'
    if kind == "too_many_passages":
        record["passages"] = [{"id": f"p{i}", "text": "x"} for i in range(max_passages + 1)]
        return json.dumps(record).encode()
    if kind == "duplicate_passage_ids":
        record["passages"][1]["id"] = record["passages"][0]["id"]
        return json.dumps(record).encode()
    raise ValueError(kind)


def make_messages(n: int, rng: random.Random, prefix: str, bad_fraction: float, oversized: int,
                  max_record_bytes: int, max_passages: int) -> list[Message]:
    bad = round(n * bad_fraction)
    out: list[Message] = []
    for i in range(n):
        rid = f"{prefix}-{i:06d}"
        if i < oversized:
            record = valid_record(rng, rid)
            record["passages"][0]["text"] += " filler" * ((max_record_bytes + 200_000) // 7)
            out.append(Message(OVERSIZED, rid.encode(), json.dumps(record).encode()))
        elif i < oversized + bad:
            kind = POISON[i % len(POISON)]
            out.append(Message(kind, rid.encode(), _poison(kind, rng, rid, max_passages)))
        else:
            out.append(Message(VALID, rid.encode(), json.dumps(valid_record(rng, rid)).encode(), rid))
    rng.shuffle(out)
    return out


class Producer(threading.Thread):
    """Sends the messages at up to `rate_per_s` as far as allow() permits, recording where each landed.

    The suite allows a share of the messages after each fault, so input keeps arriving
    until the last fault has played out; `finished` is set once all are acknowledged.
    """

    def __init__(self, bootstrap: str, topic: str, messages: list[Message], rate_per_s: float):
        super().__init__(name="fault-producer", daemon=True)
        self.bootstrap, self.topic, self.messages, self.rate = bootstrap, topic, messages, rate_per_s
        self.allowed = 0
        self.acked = 0
        self.errors: list[str] = []
        self.finished = threading.Event()

    def run(self) -> None:
        from confluent_kafka import Producer as KafkaProducer

        producer = KafkaProducer({"bootstrap.servers": self.bootstrap, "linger.ms": 5, "enable.idempotence": True,
                                  "message.max.bytes": 4_000_000, "message.timeout.ms": 300_000})
        next_send = time.monotonic()
        for i, message in enumerate(self.messages):
            while i >= self.allowed or (wait := next_send - time.monotonic()) > 0:
                producer.poll(0.05)
            next_send = max(next_send, time.monotonic() - 1.0) + 1.0 / self.rate
            while True:
                try:
                    producer.produce(self.topic, value=message.value, key=message.key,
                                     headers={"origin": b"fault-suite"},
                                     on_delivery=lambda err, msg, m=message: self._delivered(err, msg, m))
                    break
                except BufferError:
                    producer.poll(0.1)
            producer.poll(0)
        while producer.flush(5) > 0:
            pass
        self.finished.set()

    def allow(self, count: int) -> None:
        """Let `count` more messages go out."""
        self.allowed = min(len(self.messages), self.allowed + count)

    def _delivered(self, err, msg, message: Message) -> None:
        if err is not None:
            self.errors.append(str(err))
            return
        message.partition, message.offset = msg.partition(), msg.offset()
        self.acked += 1

    def end_offsets(self) -> dict[int, int]:
        """Per partition, one past the last offset produced: what the group must commit."""
        ends: dict[int, int] = {}
        for m in self.messages:
            if m.offset >= 0:
                ends[m.partition] = max(ends.get(m.partition, 0), m.offset + 1)
        return ends
