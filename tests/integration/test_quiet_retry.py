"""A healthy retry is quiet: one store timeout in a normal `groundwatch consume` run at the default
log level logs one line per retry (reason and next wait), no traceback and no connection-pool warning."""

from __future__ import annotations

import json
import os
import signal
import time

import pytest

from tests.integration.consumer_support import (
    Names, committed, create_topics, produce_responses, settings_for,
)
from tests.integration.test_consumer_process import _start, _wait

pytestmark = pytest.mark.integration


def test_one_store_timeout_logs_one_line_per_retry_and_no_traceback(
        kafka_bootstrap, opensearch_url, osmem_server, tiny_onnx, tmp_path):
    names = Names.fresh("quiet")
    create_topics(kafka_bootstrap, names)
    settings = settings_for(kafka_bootstrap, opensearch_url, names, tiny_onnx, batch_size=5)  # timeout_s 3
    produce_responses(kafka_bootstrap, names, 0, 10)
    log_path = tmp_path / "consume.log"
    process = _start(settings, log_path)
    try:
        _wait(process, log_path, lambda: committed(kafka_bootstrap, names) == {0: 10}, 90, "the first 10")
        os.kill(osmem_server.pid, signal.SIGSTOP)  # the store hangs: the next write times out
        try:
            produce_responses(kafka_bootstrap, names, 10, 20)
            _wait(process, log_path, lambda: "sink_failed" in log_path.read_text(errors="replace"), 60,
                  "a store timeout")
            time.sleep(1.0)
        finally:
            os.kill(osmem_server.pid, signal.SIGCONT)
        _wait(process, log_path, lambda: committed(kafka_bootstrap, names) == {0: 20}, 90, "all 20 after it")
        process.send_signal(signal.SIGTERM)
        assert process.wait(30) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()

    text = log_path.read_text(errors="replace")
    assert "Traceback" not in text
    assert "Connection pool is full" not in text
    lines = [line for line in text.splitlines() if line.strip()]
    events = [json.loads(line) for line in lines if line.startswith("{")]
    assert len(events) == len(lines), "every line is one JSON event (nothing printed by a library)"
    failed = [e for e in events if e["event"] == "sink_failed"]
    assert failed and all(e["reason"] and e["retry_in_s"] > 0 for e in failed)
    assert not [e for e in events if e["level"] == "error"]
