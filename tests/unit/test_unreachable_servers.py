"""Every command that talks to a server, pointed at a closed loopback port: one line on stderr, no
traceback, and the exit code docs/operations.md gives (2; `score` with an unreachable judge keeps its
verdicts, says so in one warning and exits 0). The services (consume, serve) wait for their servers
instead: one warning line for each server down, then quiet retries until SIGTERM, which exits 0."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest

from groundwatch.cli import main
from tests.unit.test_cli_errors import EXAMPLES


@pytest.fixture(scope="module")
def closed() -> str:
    """host:port of a loopback port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"127.0.0.1:{s.getsockname()[1]}"


@pytest.fixture
def quiet_env(monkeypatch, tmp_path):
    for name in ("GROUNDWATCH_LOG_LEVEL", "GROUNDWATCH_LOG_FORMAT"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)


def _one_line(capsys, code: int, expected_code: int, *words: str) -> str:
    err = capsys.readouterr().err
    lines = err.splitlines()
    assert code == expected_code and len(lines) == 1 and "Traceback" not in err, err
    assert all(w in lines[0] for w in words), lines[0]
    return lines[0]


OPENSEARCH_COMMANDS = [
    ["trace", "ex-003"],
    ["trace", "--claim", "refunds take 14 days"],
    ["report"],
    ["forget", "--request-id", "r-1"],
    ["init-store"],
    ["label", "export", "-o", "review"],
    ["audit-corpus", "--index", "docs", "--no-nli", "--no-progress"],
]


@pytest.mark.parametrize("argv", OPENSEARCH_COMMANDS, ids=lambda a: " ".join(a[:2]))
def test_opensearch_unreachable_is_one_line_exit_2(argv, closed, quiet_env, capsys):
    code = main([*argv, "--opensearch-url", f"http://{closed}"])
    line = _one_line(capsys, code, 2, "groundwatch: error:", "OpenSearch unreachable (connection refused)")
    if argv[0] != "audit-corpus":  # the settings' server is named; audit-corpus's is the one on its command line
        assert line.endswith(f"(url http://{closed})"), line


def test_recall_probe_retrievers_unreachable_are_one_line_exit_2(closed, quiet_env, capsys, tmp_path):
    probes = tmp_path / "probes.jsonl"
    probes.write_text('{"query": "refund window", "gold_passage_ids": ["kb-7"]}\n')
    code = main(["recall-probe", "-i", str(probes), "--retriever", "opensearch", "--index", "kb",
                 "--opensearch-url", f"http://{closed}", "--no-progress"])
    _one_line(capsys, code, 2, "groundwatch: error:", "OpenSearch unreachable (connection refused)")
    code = main(["recall-probe", "-i", str(probes), "--retriever", "http", "--url", f"http://{closed}/search",
                 "--no-progress"])
    _one_line(capsys, code, 2, "groundwatch: error:", f"http://{closed}/search unreachable (connection refused)")


class _Retriever(BaseHTTPRequestHandler):
    """A retriever on loopback that always answers passage kb-7 first."""

    def do_POST(self):  # noqa: N802 - the http.server spelling
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        body = json.dumps({"passage_ids": ["kb-7"]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):  # the test reads stderr
        pass


def test_an_unreachable_pushgateway_is_one_line_exit_2(closed, quiet_env, capsys, tmp_path):
    server = HTTPServer(("127.0.0.1", 0), _Retriever)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        probes = tmp_path / "probes.jsonl"
        probes.write_text('{"query": "refund window", "gold_passage_ids": ["kb-7"]}\n')
        code = main(["recall-probe", "-i", str(probes), "--retriever", "http", "--no-progress", "--json",
                     "--url", f"http://127.0.0.1:{server.server_address[1]}/search",
                     "--pushgateway", f"http://{closed}"])
    finally:
        server.shutdown()
        server.server_close()
    _one_line(capsys, code, 2, "groundwatch: error:", "Prometheus Pushgateway unreachable (connection refused)",
              f"http://{closed}")


def test_kafka_unreachable_is_one_line_exit_2(closed, quiet_env, capfd):
    code = main(["produce", "-i", str(EXAMPLES), "--bootstrap", closed])
    # capfd: librdkafka writes its own lines to the process's stderr, past sys.stderr; none may get out.
    _one_line(capfd, code, 2, "groundwatch: error:", f"Kafka unreachable (connection refused) at {closed}")


def test_an_unreachable_judge_is_one_warning_and_the_verdicts_stand(closed, quiet_env, capsys, monkeypatch,
                                                                    tmp_path):
    for name, value in (("ENABLED", "true"), ("BASE_URL", f"http://{closed}"), ("MODEL", "judge"),
                        ("LOWER", "0"), ("UPPER", "1")):  # every claim in the judge's band
        monkeypatch.setenv(f"GROUNDWATCH_JUDGE__{name}", value)
    responses = tmp_path / "responses.jsonl"
    responses.write_text("".join(EXAMPLES.read_text(encoding="utf-8").splitlines(keepends=True)[:2]))
    code = main(["score", "-i", str(responses), "-o", str(tmp_path / "v.jsonl"), "--no-progress"])
    line = _one_line(capsys, code, 0, "judge_unavailable", "judge endpoint unreachable (connection refused)")
    assert closed in line


def _service_stderr(argv: list[str], env: dict[str, str], lines_wanted: int, settle_s: float = 6.0,
                    deadline_s: float = 120.0, then=lambda: None) -> tuple[list[str], int]:
    """Start a service, wait for its first `lines_wanted` stderr lines, call `then`, leave it retrying for
    settle_s (librdkafka reconnects about once a second), then SIGTERM it: its stderr lines and exit code."""
    with tempfile.TemporaryFile() as err:
        process = subprocess.Popen([sys.executable, "-m", "groundwatch.cli", *argv], env=env,
                                   stdout=subprocess.DEVNULL, stderr=err)
        try:
            start = time.monotonic()
            while time.monotonic() - start < deadline_s and process.poll() is None:
                err.seek(0)
                if len(err.read().splitlines()) >= lines_wanted:
                    break
                time.sleep(0.5)
            then()
            time.sleep(settle_s)
            assert process.poll() is None, "the service stopped instead of waiting for its servers"
            process.send_signal(signal.SIGTERM)
            code = process.wait(timeout=60)
        finally:
            if process.poll() is None:
                process.kill()
        err.seek(0)
        return err.read().decode(errors="replace").splitlines(), code


def _service_env(**settings: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GROUNDWATCH_")}
    env.update({"GROUNDWATCH_LOG_LEVEL": "warning", "GROUNDWATCH_LOG_FORMAT": "json",
                "GROUNDWATCH_SCORER__BACKEND": "fake", "GROUNDWATCH_SCORER__USE_EMBEDDINGS": "false",
                "GROUNDWATCH_METRICS__PORT": "0", **settings})
    return env


def test_consume_says_once_per_unreachable_server_that_it_keeps_retrying(closed):
    """At warning level a consumer whose Kafka and OpenSearch are both down writes one line for each,
    no librdkafka `FAIL` line per reconnect, keeps running, and stops with 0 on SIGTERM."""
    env = _service_env(GROUNDWATCH_KAFKA__BOOTSTRAP_SERVERS=closed, GROUNDWATCH_OPENSEARCH__URL=f"http://{closed}")
    lines, code = _service_stderr(["consume"], env, lines_wanted=2)
    assert code == 0 and len(lines) == 2, lines
    events = {json.loads(line)["event"]: json.loads(line) for line in lines}
    assert set(events) == {"kafka_not_reachable_yet", "opensearch_not_reachable_yet"}, lines
    assert events["kafka_not_reachable_yet"]["bootstrap_servers"] == closed
    assert events["opensearch_not_reachable_yet"]["url"] == f"http://{closed}"
    assert all(e["reason"] == "connection refused" and e["retrying"] is True for e in events.values()), lines


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_says_once_per_unreachable_server_and_keeps_answering(closed):
    """serve --publish with the judge, OpenSearch and Kafka all down: every check is still answered, each
    server is one warning line however many requests come, and SIGTERM exits 0."""
    port, token = _free_port(), "t0k-unreachable"
    env = _service_env(GROUNDWATCH_KAFKA__BOOTSTRAP_SERVERS=closed, GROUNDWATCH_OPENSEARCH__URL=f"http://{closed}",
                       GROUNDWATCH_SERVE__AUTH_TOKEN=token, GROUNDWATCH_JUDGE__ENABLED="true",
                       GROUNDWATCH_JUDGE__BASE_URL=f"http://{closed}", GROUNDWATCH_JUDGE__MODEL="judge",
                       GROUNDWATCH_JUDGE__LOWER="0", GROUNDWATCH_JUDGE__UPPER="1",  # every claim judged
                       GROUNDWATCH_KAFKA__PRODUCE_TIMEOUT_S="2")  # an alert's delivery gives up within the wait
    record = EXAMPLES.read_text(encoding="utf-8").splitlines()[0].encode()
    answered: list[int] = []

    def ask_three_times() -> None:
        for _ in range(3):
            request = urllib.request.Request(f"http://127.0.0.1:{port}/v1/check", data=record, headers={
                "Content-Type": "application/json", "Authorization": f"Bearer {token}"})
            with urllib.request.urlopen(request, timeout=60) as reply:
                answered.append(reply.status)

    lines, code = _service_stderr(["serve", "--publish", "--port", str(port)], env, lines_wanted=1,
                                  then=ask_three_times)
    assert answered == [200, 200, 200] and code == 0, (answered, code, lines)
    events = {json.loads(line)["event"]: json.loads(line) for line in lines}
    assert len(lines) == 3 and set(events) == {"kafka_not_reachable_yet", "judge_unavailable", "publish_failed"}, lines
    assert events["kafka_not_reachable_yet"]["bootstrap_servers"] == closed
    assert closed in events["judge_unavailable"]["url"] and "connection refused" in events["judge_unavailable"]["error"]
    assert events["publish_failed"]["sink"] == "opensearch", lines
