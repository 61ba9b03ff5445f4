"""`groundwatch consume` as a real process: SIGKILL mid-stream loses nothing, SIGTERM drains and commits.

The process gets its settings from GROUNDWATCH_* environment variables, as in a pod.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.integration.consumer_support import (
    Names, RunningConsumer, committed, count_under, create_topics, documents, expected_id, produce_responses,
    scorer_version_of, settings_env, settings_for, wait_until,
)

pytestmark = pytest.mark.integration

N = 300
BATCH = 4
SECRET = "not-for-logs-7f3a"  # an OpenSearch password (unused without a username) that must stay masked


def _start(settings, log_path: Path) -> subprocess.Popen:
    # Port 0: the server binds a free port itself (a port picked here could be taken before the child binds it).
    env = {**os.environ, **settings_env(settings), "GROUNDWATCH_METRICS__HOST": "127.0.0.1",
           "GROUNDWATCH_METRICS__PORT": "0", "GROUNDWATCH_OPENSEARCH__PASSWORD": SECRET}
    log = open(log_path, "wb")
    return subprocess.Popen([sys.executable, "-m", "groundwatch.cli", "consume"], env=env, stdout=log,
                            stderr=subprocess.STDOUT)


def _events(log_path: Path) -> list[str]:
    events = []
    for line in log_path.read_text(errors="replace").splitlines():
        try:
            events.append(json.loads(line)["event"])
        except (json.JSONDecodeError, KeyError, TypeError):
            pass
    return events


def _wait(process: subprocess.Popen, log_path: Path, condition, timeout_s: float, what: str) -> None:
    """wait_until that stops as soon as the process exits and shows the end of its log either way."""
    def alive_and_done() -> bool:
        if process.poll() is not None:
            return True
        return condition()

    try:
        wait_until(alive_and_done, timeout_s, what)
        if process.poll() is None:
            return
        state = f"exited with code {process.returncode}"
    except AssertionError:
        state = f"was still running after {timeout_s}s"
    tail = "\n".join(log_path.read_text(errors="replace").splitlines()[-40:])
    raise AssertionError(f"waiting for {what}, the process {state}; the end of its log:\n{tail}")


def _progress(bootstrap: str, names: Names, at_least: int) -> bool:
    return committed(bootstrap, names)[0] >= at_least


def test_killed_consumer_resumes_from_the_committed_offset_without_loss(
        kafka_bootstrap, opensearch_url, tiny_onnx, tmp_path):
    names = Names.fresh("kill")
    create_topics(kafka_bootstrap, names)
    settings = settings_for(kafka_bootstrap, opensearch_url, names, tiny_onnx, batch_size=BATCH)
    sent = produce_responses(kafka_bootstrap, names, 0, N)
    log_path = tmp_path / "consume.log"

    process = _start(settings, log_path)
    try:
        _wait(process, log_path, lambda: _progress(kafka_bootstrap, names, 3 * BATCH), 90,
              "the process to commit batches")
        process.send_signal(signal.SIGKILL)  # a crash: no drain, no commit
        assert process.wait(10) == -signal.SIGKILL
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()

    at_kill = committed(kafka_bootstrap, names)[0]
    written = count_under(opensearch_url, names.alias)
    assert at_kill < N, "killed mid-stream"
    # Committed never passes what was written; at most one batch was written but not committed.
    assert at_kill <= written <= at_kill + BATCH

    running = RunningConsumer.start(settings)
    try:
        wait_until(lambda: committed(kafka_bootstrap, names) == {0: N}, 90, "the rest after restart")
    finally:
        assert running.stop() == 0
    assert running.committed_offsets() == list(range(at_kill, N)), "resumed exactly at the committed offset"
    ids = [d["_id"] for d in documents(opensearch_url, names.alias)]
    assert len(ids) == len(set(ids)) == N, "a replayed batch overwrote its documents"
    version = scorer_version_of(settings)  # builds a scorer: once, not per response
    assert set(ids) == {expected_id(r, version) for r in sent}


def test_sigterm_finishes_the_batch_commits_and_exits_zero(kafka_bootstrap, opensearch_url, tiny_onnx, tmp_path):
    names = Names.fresh("sigterm")
    create_topics(kafka_bootstrap, names)
    settings = settings_for(kafka_bootstrap, opensearch_url, names, tiny_onnx, batch_size=BATCH)
    produce_responses(kafka_bootstrap, names, 0, N)
    log_path = tmp_path / "consume.log"

    process = _start(settings, log_path)
    try:
        _wait(process, log_path, lambda: _progress(kafka_bootstrap, names, 3 * BATCH), 90,
              "the process to commit batches")
        process.send_signal(signal.SIGTERM)
        assert process.wait(30) == 0, log_path.read_text()[-3000:]
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()

    final = committed(kafka_bootstrap, names)[0]
    assert 3 * BATCH <= final <= N
    # Drained: every written document is committed and every committed one written.
    assert count_under(opensearch_url, names.alias) == final
    events = _events(log_path)
    assert "shutdown_requested" in events and events[-1] == "consumer_closed"
    assert events.index("shutdown_requested") < len(events) - 1
    log_text = log_path.read_text()
    assert "settings" in events and SECRET not in log_text and "**********" in log_text, "secrets masked"


def test_sigterm_with_the_store_down_exits_within_the_shutdown_deadline_and_commits_nothing(
        kafka_bootstrap, opensearch_url, osmem_server, tiny_onnx, tmp_path):
    names = Names.fresh("sigterm-down")
    create_topics(kafka_bootstrap, names)
    settings = settings_for(kafka_bootstrap, opensearch_url, names, tiny_onnx, batch_size=BATCH, shutdown_timeout_s=4)
    log_path = tmp_path / "consume.log"
    process = _start(settings, log_path)
    try:
        _wait(process, log_path, lambda: "consumer_started" in _events(log_path), 90, "the process to start")
        osmem_server.stop()
        try:
            produce_responses(kafka_bootstrap, names, 0, BATCH)
            _wait(process, log_path, lambda: _events(log_path).count("sink_failed") >= 2, 60,
                  "retries against the stopped store")
            process.send_signal(signal.SIGTERM)
            # The whole shutdown (retries, close) fits in shutdown_timeout_s; the hard exit is 2 s later.
            code = process.wait(4 + 2 + 8)
        finally:
            osmem_server.start()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert code == 1, "exit 1: a batch was left unwritten (the next owner reads it again)"
    assert committed(kafka_bootstrap, names) == {0: 0}
    events = _events(log_path)
    assert "retry_time_out_leaves_batch_unwritten" in events and events[-1] == "consumer_closed"
    assert "consumer_close_timed_out" not in events, "part of the deadline is kept for closing"
