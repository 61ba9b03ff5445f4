"""`groundwatch produce` against a real broker: its reachability check passes, every line is sent, and
nothing but the count is printed (the closed-port case is in tests/unit/test_unreachable_servers.py)."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from groundwatch.cli import main

pytestmark = pytest.mark.integration
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "responses.jsonl"


def test_produce_sends_every_line_to_a_reachable_broker(kafka_bootstrap: str, capfd) -> None:
    topic = f"produce-cli-{uuid.uuid4().hex[:8]}"
    assert main(["produce", "-i", str(EXAMPLES), "--bootstrap", kafka_bootstrap, "--topic", topic]) == 0
    out, err = capfd.readouterr()
    assert out == f"produced 56 messages to {topic} at {kafka_bootstrap}\n" and err == ""
