"""groundwatch produce: replay a JSONL file into a Kafka topic, one message per line.

Lines go out byte for byte (a broken line stays broken: useful to exercise the
dead-letter path), keyed by request_id when the line is a JSON object with one.
"""

from __future__ import annotations

import json
import sys

from groundwatch.commands.common import add_config_arg, fail, settings_from
from groundwatch.commands.conventions import input_path

CHUNK = 10_000  # lines held in memory and confirmed at a time


def register(sub) -> None:
    p = sub.add_parser("produce", help="replay a JSONL file of responses into a Kafka topic")
    p.add_argument("-i", "--input", required=True, metavar="FILE",
                   help="JSONL file, one message per non-blank line; `-` for stdin")
    p.add_argument("--topic", help="Kafka topic (default: kafka.input_topic from the settings)")
    p.add_argument("--bootstrap", metavar="HOST:PORT", help="a broker (default: kafka.bootstrap_servers)")
    add_config_arg(p)
    p.set_defaults(func=run)


def request_key(line: bytes) -> bytes | None:
    try:
        record = json.loads(line)
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None
    request_id = record.get("request_id") if isinstance(record, dict) else None
    return str(request_id).encode() if isinstance(request_id, (str, int)) and request_id != "" else None


def run(args) -> int:
    from confluent_kafka import Producer

    from groundwatch.export.base import SinkUnavailable
    from groundwatch.export.delivery import Record, produce_and_confirm, producer_config
    from groundwatch.export.kafka_probe import QUIET, kafka_problem

    settings = settings_from(args)
    conf = settings.kafka.client_config()
    if args.bootstrap:
        conf["bootstrap.servers"] = args.bootstrap
    topic = args.topic or settings.kafka.input_topic
    try:
        f = open(input_path(args.input), "rb")
    except OSError as exc:
        return fail(f"cannot read {args.input}: {exc.strerror}")
    problem = kafka_problem(conf)  # before the first message: one line, not a retry per message
    if problem:
        return fail(f"Kafka unreachable ({problem}) at {conf['bootstrap.servers']}")
    if not getattr(args, "verbose", False):
        conf["log_level"] = QUIET
    producer = Producer(producer_config(conf, settings.kafka.produce_timeout_s))
    sent = 0
    try:
        with f:
            for chunk in _chunks((line.rstrip(b"\r\n") for line in f if line.strip()), CHUNK):
                records = [Record(topic, line, request_key(line)) for line in chunk]
                produce_and_confirm(producer, records, settings.kafka.produce_timeout_s, "kafka")
                sent += len(records)
    except OSError as exc:
        return fail(f"cannot read {args.input}: {exc.strerror}")
    except SinkUnavailable as exc:
        return fail(f"{args.input} -> {topic} at {conf['bootstrap.servers']}: {exc} ({sent} produced before)")
    print(f"produced {sent} messages to {topic} at {conf['bootstrap.servers']}", file=sys.stdout)
    return 0


def _chunks(items, size: int):
    chunk = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk
