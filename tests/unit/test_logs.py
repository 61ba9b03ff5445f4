"""Log lines reach stderr whole: one write per line, so a library's warning from another thread cannot
land between a JSON line and its newline (a log pipeline would drop the glued line)."""

from __future__ import annotations

import json
import sys

import structlog

from groundwatch.config.logs import configure, get_logger


class Writes:
    def __init__(self) -> None:
        self.calls: list[str] = []

    def write(self, text: str) -> int:
        self.calls.append(text)
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False


def test_each_json_line_is_one_write_with_its_newline(monkeypatch):
    stream = Writes()
    monkeypatch.setattr(sys, "stderr", stream)
    configure("json", "info")
    try:
        get_logger("test").info("consumer_started", topic="in")
        get_logger("test").warning("sink_failed", attempt=2)
    finally:
        structlog.reset_defaults()
    assert len(stream.calls) == 2, stream.calls
    assert all(call.endswith("\n") and call.count("\n") == 1 for call in stream.calls)
    assert [json.loads(call)["event"] for call in stream.calls] == ["consumer_started", "sink_failed"]
