"""serve safe by default: loopback, no publishing without a token, health from a background probe,
readiness that sees a stalled scorer call, 400 for malformed JSON, request ids in error bodies,
the API page at /docs with no outside asset, and JSON work off the event loop."""

from __future__ import annotations

import asyncio
import re
import threading

import pytest
import structlog
from fastapi.testclient import TestClient
from pydantic import SecretStr

from groundwatch.cli import main
from groundwatch.config.settings import ServeSettings, Settings, publish_problem
from groundwatch.scorers.health import ScheduledCheck
from groundwatch.serve import bodies as serve_bodies
from tests.unit.test_serve import RECORD, FakeScorer, _client


def test_defaults_are_loopback_and_no_publishing():
    settings = ServeSettings()
    assert settings.host == "127.0.0.1" and settings.publish is False and publish_problem(settings) is None
    assert Settings().metrics.host == "127.0.0.1", "the consumer's metrics endpoint is loopback too"


def test_publish_without_a_token_is_refused_when_serve_starts(monkeypatch, capsys):
    assert "serve.publish needs serve.auth_token" in publish_problem(ServeSettings(publish=True))
    assert "serve.publish needs serve.auth_token" in publish_problem(ServeSettings(publish=True,
                                                                                  auth_token=SecretStr("")))
    assert publish_problem(ServeSettings(publish=True, auth_token=SecretStr("t"))) is None
    monkeypatch.delenv("GROUNDWATCH_SERVE__AUTH_TOKEN", raising=False)
    # From the flag or from the environment, refused before a model is loaded (the model path does not exist).
    try:
        assert main(["serve", "--publish", "--backend", "torch", "--model", "/nonexistent"]) == 2
        assert "groundwatch: error: serve.publish needs serve.auth_token" in capsys.readouterr().err
        monkeypatch.setenv("GROUNDWATCH_SERVE__PUBLISH", "true")
        assert main(["serve", "--backend", "torch", "--model", "/nonexistent"]) == 2
        assert "groundwatch: error: serve.publish needs serve.auth_token" in capsys.readouterr().err
        Settings()  # the consumer shares these settings and has no serve token: they still load
    finally:
        structlog.reset_defaults()  # the CLI bound logging to this test's captured stderr


def test_healthz_reports_the_probe_and_never_runs_the_model():
    client, service, scorer = _client()
    answers = iter([True, False])
    probe = ScheduledCheck("scorer", lambda: next(answers), interval_s=3600, timeout_s=5)
    service.probe = probe
    probe.run_once()
    assert client.get("/healthz").status_code == 200
    probe.run_once()
    r = client.get("/healthz")
    assert r.status_code == 503 and r.text == "scorer check failed\n"
    assert scorer.calls == [], "/healthz itself never scored anything"
    service.close()


def test_readyz_fails_while_one_scorer_call_is_stalled():
    client, service, scorer = _client(deadline_s=0.2, collector_stall_s=0.5)
    assert service.stall_s == 0.5
    scorer.gate.clear()  # the next scorer call hangs
    assert client.post("/v1/check", json=RECORD).status_code == 504
    assert scorer.entered.wait(5)
    stalled = threading.Event()

    def wait_for_stall():
        while not service.collector.busy_for() > 0.5:
            threading.Event().wait(0.05)
        stalled.set()

    threading.Thread(target=wait_for_stall, daemon=True).start()
    assert stalled.wait(5)
    r = client.get("/readyz")
    assert r.status_code == 503 and re.match(r"scorer call running for \d+ s", r.json()["problems"][0])
    scorer.gate.set()
    service.close()
    assert service.collector.busy_for() == 0.0


def test_a_call_within_the_deadline_is_not_a_stall():
    _, service, _ = _client(deadline_s=60, collector_stall_s=5)
    assert service.stall_s == 120
    service.close()


@pytest.mark.parametrize("body", [b"{not json", b"\xff\xfe"])
def test_malformed_json_is_400_with_a_json_body(body):
    client, service, scorer = _client()
    for path in ("/v1/check", "/v1/check:batch"):
        r = client.post(path, content=body, headers={"content-type": "application/json"})
        assert r.status_code == 400, (path, r.text)
        assert r.json()["error"] == "malformed_json" and r.json()["request_id"] is None
    assert scorer.calls == []
    service.close()


def test_json_nested_past_the_limit_is_413_too_deep():
    """Nesting depth is a limit checked before any work, like size: 413 with its reason, not a parse error."""
    client, service, scorer = _client()
    for path in ("/v1/check", "/v1/check:batch"):
        r = client.post(path, content=b"[" * 100_000 + b"]" * 100_000, headers={"content-type": "application/json"})
        assert r.status_code == 413, (path, r.text)
        assert r.json()["reason"] == "too_deep" and r.json()["request_id"] is None
    assert scorer.calls == []
    service.close()


def test_every_error_body_carries_the_request_id_when_it_could_be_read():
    client, service, _ = _client(max_batch_items=2)
    r = client.post("/v1/check", json={"request_id": 42, "answer": 7, "passages": []})
    assert r.status_code == 422 and r.json()["request_id"] == "42"
    r = client.post("/v1/check", json={"request_id": {"x": 1}, "answer": "a", "passages": []})
    assert r.status_code == 422 and r.json()["request_id"] is None  # not an id it could read
    r = client.post("/v1/check:batch", json={"responses": [RECORD, {"request_id": "bad-1"}]})
    assert [x["request_id"] for x in r.json()["results"]] == ["r-1", "bad-1"]
    for r in (client.post("/v1/check:batch", json={"responses": [RECORD] * 3}),
              client.post("/v1/check:batch", json={"nope": []})):
        assert r.status_code in (413, 422) and "request_id" in r.json()
    service.close()


def test_an_unexpected_error_is_json_500_with_the_request_id():
    class Broken(FakeScorer):
        policy = None

    client, service, _ = _client(Broken())
    client = TestClient(client.app, raise_server_exceptions=False)  # answer as uvicorn would, no re-raise
    service._scored = None  # a bug in building the answer: not callable
    r = client.post("/v1/check", json=RECORD)
    assert r.status_code == 500 and r.json()["error"] == "internal_error" and r.json()["request_id"] == "r-1"
    service.close()


def test_docs_page_is_self_contained():
    client, service, _ = _client()
    page = client.get("/docs")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page.text), "no outside asset"
    assert "/v1/check:batch" in page.text and "</script>" in page.text
    assert page.text.count("</script>") == 2  # nothing in the embedded document closes the script early
    service.close()


def _on_loop() -> bool:
    try:
        asyncio.get_running_loop()
        return True
    except RuntimeError:
        return False


def test_json_work_runs_off_the_event_loop(monkeypatch):
    seen: list[tuple[str, bool]] = []
    render = serve_bodies.render

    def recording_render(content, status):
        seen.append(("render", _on_loop()))
        return render(content, status)

    monkeypatch.setattr(serve_bodies, "render", recording_render)
    client, service, _ = _client()
    parse = service.parse

    def recording_parse(record):
        seen.append(("parse", _on_loop()))
        return parse(record)

    service.parse = recording_parse
    assert client.post("/v1/check", json=RECORD).status_code == 200
    assert client.post("/v1/check:batch", json={"responses": [RECORD]}).status_code == 200
    assert sorted(seen) == [("parse", False)] * 2 + [("render", False)] * 2
    service.close()
