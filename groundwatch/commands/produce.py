"""groundwatch produce: replay a JSONL file into a Kafka topic, one message per line.

Lines go out byte for byte (a broken line stays broken: useful to exercise the
dead-letter path), keyed by request_id when the line is a JSON object with one.
With --as-traces ENCODING each response goes out instead as the trace an instrumented
app would have written (groundwatch/tools/as_traces.py): one export request a message,
keyed by its trace id as the Collector's exporter does with partition_traces_by_id.
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
    p.add_argument("--as-traces", choices=["otlp_proto", "otlp_json"], metavar="ENCODING",
                   help="send each response as an OpenTelemetry trace, one OTLP export request a message, in this "
                        "encoding (otlp_proto or otlp_json; for a topic with kafka.input_format set to it; needs "
                        "groundwatch[otlp]) (default: the lines as they are)")
    p.add_argument("--convention", choices=["openinference", "genai", "both"], default="openinference",
                   help="span names of --as-traces: OpenInference, OpenTelemetry GenAI, or both in turn "
                        "(default: openinference)")
    add_config_arg(p)
    p.set_defaults(func=run)


def request_key(line: bytes) -> bytes | None:
    try:
        record = json.loads(line)
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None
    request_id = record.get("request_id") if isinstance(record, dict) else None
    return str(request_id).encode() if isinstance(request_id, (str, int)) and request_id != "" else None


class BadLine(ValueError):
    """A line --as-traces cannot turn into a trace; str() names the line."""


def traced(lines: list[tuple[int, bytes]], topic: str, encoding: str, convention: str, writer) -> list:
    """Each (line number, line) as a Record holding its trace's export request."""
    from groundwatch.export.delivery import Record
    from groundwatch.scorers.errors import InvalidResponse
    from groundwatch.scorers.schema import parse_response
    from groundwatch.tools.as_traces import CONVENTIONS, export_request, trace_id_of

    records = []
    for number, line in lines:
        try:
            record = json.loads(line)
            parse_response(record)
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise BadLine(f"line {number}: not JSON") from None
        except InvalidResponse as exc:
            raise BadLine(f"line {number}: {exc}") from None
        chosen = CONVENTIONS[number % 2] if convention == "both" else convention
        spans = writer.trace(record, chosen)
        records.append(Record(topic, export_request(spans, encoding), trace_id_of(spans).encode()))
    return records


def run(args) -> int:
    from confluent_kafka import Producer

    from groundwatch.export.base import SinkUnavailable
    from groundwatch.export.delivery import Record, produce_and_confirm, producer_config
    from groundwatch.export.kafka_probe import QUIET, kafka_problem

    writer = None
    if args.as_traces:
        from groundwatch.config.extras import MissingExtra, require

        try:
            require("otlp", "groundwatch produce --as-traces")
        except MissingExtra as exc:
            return fail(str(exc))
        from groundwatch.tools.as_traces import TraceWriter

        writer = TraceWriter()
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
            lines = ((n, line.rstrip(b"\r\n")) for n, line in enumerate(f, 1) if line.strip())
            for chunk in _chunks(lines, CHUNK):
                if writer is None:
                    records = [Record(topic, line, request_key(line)) for _, line in chunk]
                else:
                    records = traced(chunk, topic, args.as_traces, args.convention, writer)
                produce_and_confirm(producer, records, settings.kafka.produce_timeout_s, "kafka")
                sent += len(records)
    except BadLine as exc:
        return fail(f"{args.input} {exc} ({sent} produced before)")
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
