"""`groundwatch serve` as a real process on loopback: checks, limits, auth, deadline, SIGTERM;
and publishing inline verdicts to OpenSearch and the alerts topic like the consumer does."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from infra.server import free_port
from tests.integration.consumer_support import (
    Names, create_topics, documents, read_topic, response, settings_env, settings_for, wait_until,
)

pytestmark = pytest.mark.integration

TOKEN = "serve-token-not-for-logs"
MARKER = "Zanzibar-7731"  # in an answer: must never reach the log


def _start(env: dict, log_path: Path, *args: str) -> tuple[subprocess.Popen, str]:
    port = free_port()
    # No GROUNDWATCH_SERVE__HOST: serve listens on 127.0.0.1 by default.
    env = {**os.environ, "GROUNDWATCH_LOG_FORMAT": "json",
           "GROUNDWATCH_SERVE__PORT": str(port), **env}
    process = subprocess.Popen([sys.executable, "-m", "groundwatch.cli", "serve", *args], env=env,
                               stdout=open(log_path, "wb"), stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"

    def ready() -> bool:
        assert process.poll() is None, log_path.read_text()
        return httpx.get(base + "/readyz", timeout=1).status_code == 200

    wait_until(ready, 120, "groundwatch serve to be ready")
    return process, base


def _stop(process: subprocess.Popen) -> int:
    process.send_signal(signal.SIGTERM)
    return process.wait(30)


def test_serve_process_checks_limits_auth_deadline_and_drains(tiny_onnx, tmp_path):
    env = {"GROUNDWATCH_SCORER__MODEL_DIR": str(tiny_onnx), "GROUNDWATCH_SCORER__USE_EMBEDDINGS": "false",
           "GROUNDWATCH_SERVE__AUTH_TOKEN": TOKEN, "GROUNDWATCH_SERVE__MAX_REQUEST_BYTES": "20000"}
    log_path = tmp_path / "serve.log"
    process, base = _start(env, log_path)
    auth = {"Authorization": f"Bearer {TOKEN}"}
    try:
        with httpx.Client(base_url=base, headers=auth, timeout=30) as client:
            records = [response(i, "inline") for i in range(8)]
            records[0]["answer"] += f" The code word is {MARKER}."
            with ThreadPoolExecutor(8) as pool:
                answers = list(pool.map(lambda r: client.post("/v1/check", json=r), records))
            assert [a.status_code for a in answers] == [200] * 8, answers[0].text
            for record, answer in zip(records, answers):
                body = answer.json()
                assert body["request_id"] == record["request_id"]
                assert body["action"]["action"] in ("pass", "log", "hedge", "strip", "block")
                assert body["verdict"]["action"] == body["action"]
                assert len(body["verdict"]["claims"]) >= 2

            late = client.post("/v1/check", json=response(99, "late"), headers={"X-Groundwatch-Deadline-Ms": "1"})
            assert late.status_code == 504 and late.json()["error"] == "deadline_exceeded"
            assert late.json()["claims"][0]["severity"] == "high"

            big = response(1, "big")
            big["passages"][0]["text"] = "word " * 5000
            assert client.post("/v1/check", json=big).status_code == 413
            assert httpx.post(base + "/v1/check", json=records[1], timeout=10).status_code == 401

            batch = client.post("/v1/check:batch", json={"responses": records[:3]})
            assert batch.status_code == 200 and [r["status"] for r in batch.json()["results"]] == [200] * 3

            metrics = client.get("/metrics").text
            assert 'groundwatch_http_requests_total{endpoint="check",status="200"} 8.0' in metrics
            assert "groundwatch_serve_batch_responses_count" in metrics
            assert client.get("/openapi.json").json()["info"]["title"] == "groundwatch"
            assert "/v1/check" in client.get("/docs").text
            assert httpx.get(base + "/docs", timeout=10).status_code == 401
            bad = client.post("/v1/check", content=b'{"request_id": "x",', headers={"content-type": "application/json"})
            assert bad.status_code == 400 and bad.json()["error"] == "malformed_json"
            assert client.get("/healthz").text == "ok\n"
    finally:
        code = _stop(process)
    log = log_path.read_text()
    assert code == 0, log
    assert MARKER not in log and TOKEN not in log
    events = [json.loads(line) for line in log.splitlines() if line.startswith("{")]
    assert "serve_deadline_exceeded" in [e.get("event") for e in events]
    [listening] = [e for e in events if e.get("event") == "serve_listening"]
    assert listening["host"] == "127.0.0.1"


def test_serve_publishes_inline_verdicts_to_opensearch_and_alerts(kafka_bootstrap, opensearch_url, tiny_onnx,
                                                                  tmp_path):
    names = Names.fresh("serve")
    create_topics(kafka_bootstrap, names)
    settings = settings_for(kafka_bootstrap, opensearch_url, names, tiny_onnx)
    env = settings_env(settings)
    refused = subprocess.run([sys.executable, "-m", "groundwatch.cli", "serve", "--publish"], env={**os.environ, **env},
                             capture_output=True, text=True, timeout=120)
    assert refused.returncode == 2 and "serve.publish needs serve.auth_token" in refused.stderr
    process, base = _start({**env, "GROUNDWATCH_SERVE__AUTH_TOKEN": TOKEN}, tmp_path / "serve.log", "--publish")
    try:
        record = response(1, "pub")  # every claim is high severity: the tiny model supports none of them
        answer = httpx.post(base + "/v1/check", json=record, timeout=30, headers={"Authorization": f"Bearer {TOKEN}"})
        assert answer.status_code == 200, answer.text
        action = answer.json()["action"]["action"]
        wait_until(lambda: len(documents(opensearch_url, names.alias)) == 1, 30, "the verdict in OpenSearch")
        (doc,) = documents(opensearch_url, names.alias)
        assert doc["request_id"] == "pub-0001" and doc["action"]["action"] == action
        if action in ("hedge", "strip", "block") or answer.json()["verdict"]["response"]["high_severity_unsupported"]:
            (alert,) = read_topic(kafka_bootstrap, names.alerts, 1)
            assert json.loads(alert.value())["action"]["action"] == action
    finally:
        assert _stop(process) == 0
