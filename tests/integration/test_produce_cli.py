"""`groundwatch produce` against a real broker: its reachability check passes, every line is sent, and
nothing but the count is printed (the closed-port case is in tests/unit/test_unreachable_servers.py)."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest
from confluent_kafka.admin import AdminClient, NewTopic

from groundwatch.cli import main

pytestmark = pytest.mark.integration
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "responses.jsonl"


def test_produce_sends_every_line_to_a_reachable_broker(kafka_bootstrap: str, capfd) -> None:
    topic = f"produce-cli-{uuid.uuid4().hex[:8]}"
    assert main(["produce", "-i", str(EXAMPLES), "--bootstrap", kafka_bootstrap, "--topic", topic]) == 0
    out, err = capfd.readouterr()
    assert out == f"produced 56 messages to {topic} at {kafka_bootstrap}\n" and err == ""


def test_produce_as_traces_sends_one_export_request_per_response(kafka_bootstrap: str, capfd) -> None:
    """The demo's trace mode: each response is one trace by the real SDK, alternating conventions, keyed by
    its trace id, and reads back as the same question, answer and passages."""
    from groundwatch.consumer.otlp.assemble import assemble
    from groundwatch.consumer.otlp.decode import decode_request
    from groundwatch.scorers.schema import parse_response
    from tests.integration.consumer_support import read_topic

    topic = f"produce-traces-{uuid.uuid4().hex[:8]}"
    admin = AdminClient({"bootstrap.servers": kafka_bootstrap})
    admin.create_topics([NewTopic(topic, num_partitions=1, replication_factor=1)])[topic].result(10)
    assert main(["produce", "-i", str(EXAMPLES), "--bootstrap", kafka_bootstrap, "--topic", topic,
                 "--as-traces", "otlp_json", "--convention", "both"]) == 0
    out, err = capfd.readouterr()
    assert out == f"produced 56 messages to {topic} at {kafka_bootstrap}\n" and err == ""
    messages = read_topic(kafka_bootstrap, topic, 56)
    assert len(messages) == 56
    records = [parse_response(json.loads(line)) for line in EXAMPLES.read_text().splitlines() if line.strip()]
    conventions = set()
    for message, record in zip(messages, records):
        spans = decode_request(message.value(), "otlp_json")
        [(_, response)] = assemble(spans)
        assert message.key().decode() == spans[0].trace_id == response.metadata.trace_id
        assert (response.question, response.answer) == (record.question, record.answer)
        passages = [(p.id, p.text, p.title) for p in response.passages]
        assert passages == [(p.id, p.text, p.title) for p in record.passages]
        conventions |= {"genai" if any("gen_ai.operation.name" in s.attributes for s in spans) else "openinference"}
    assert conventions == {"genai", "openinference"}


def test_produce_as_traces_names_a_line_that_is_no_response(kafka_bootstrap: str, tmp_path, capfd) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"request_id": "a", "answer": "Fine.", "passages": [{"id": "p", "text": "Fine."}]}\n\n'
                    '{"request_id": "b"}\n')
    topic = f"produce-traces-{uuid.uuid4().hex[:8]}"
    assert main(["produce", "-i", str(path), "--bootstrap", kafka_bootstrap, "--topic", topic,
                 "--as-traces", "otlp_proto"]) == 2
    _, err = capfd.readouterr()
    assert err.startswith(f"groundwatch: error: {path} line 3: ") and err.count("\n") == 1
