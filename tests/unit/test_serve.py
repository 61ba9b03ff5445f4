"""groundwatch serve in process (FastAPI TestClient) with a fake scorer: deadline, size limits, auth,
batching across requests, the batch endpoint, errors, health and the OpenAPI document."""

from __future__ import annotations

import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr

from groundwatch.config.settings import ServeSettings
from groundwatch.export.metrics import Metrics
from groundwatch.scorers.answer.claims import decompose
from groundwatch.scorers.errors import ScoringError
from groundwatch.scorers.verdicts.policy import ActionPolicy
from groundwatch.scorers.records import ClaimVerdict, Verdict
from groundwatch.serve.app import create_app
from groundwatch.serve.service import CheckService
from tests.unit.verdicts import verdict

ANSWER = "You have 30 days to ask for a refund, and refunds take 60 days to arrive. Support is friendly."
RECORD = {"schema": "groundwatch.response.v1", "request_id": "r-1", "answer": ANSWER,
          "passages": [{"id": "p1", "text": "Refunds within 30 days. Refunds arrive in 5 to 10 days."}],
          "metadata": {"app": "shop"}}


class FakeScorer:
    """Claims from the real splitter; any claim saying '60 days' is NOT_ENOUGH_INFO (high), the rest
    SUPPORTED. `gate` holds every call until set; `calls` records how many responses each call had."""

    def __init__(self, fail: str | None = None):
        self.policy = ActionPolicy()
        self.gate = threading.Event()
        self.gate.set()
        self.entered = threading.Event()  # a call has started (and may be held by the gate)
        self.deadlines = []  # the scorers.deadline.Deadline each call got
        self.calls: list[int] = []
        self.fail = fail

    def score(self, responses, deadline=None):
        self.deadlines.append(deadline)
        self.entered.set()
        self.gate.wait(10)
        self.calls.append(len(responses))
        out = []
        for r in responses:
            if self.fail and r.request_id == self.fail:
                out.append(ScoringError("RuntimeError: boom"))
                continue
            claims = [ClaimVerdict(i, c.text, c.span, "high" if "days" in c.text else "normal",
                                   Verdict.NOT_ENOUGH_INFO if "60 days" in c.text else Verdict.SUPPORTED)
                      for i, c in enumerate(decompose(r.answer))]
            v = verdict(claims, request_id=r.request_id, metadata={"app": "shop"})
            v.action = self.policy.decide(v)
            out.append(v)
        return out


def _client(scorer=None, **settings) -> tuple[TestClient, CheckService, FakeScorer]:
    scorer = scorer or FakeScorer()
    serve_settings = ServeSettings(**settings)
    metrics = Metrics()
    service = CheckService(serve_settings, scorer, metrics, scorer.policy)
    service.model_loaded = True
    return TestClient(create_app(service, serve_settings, metrics.registry)), service, scorer


@pytest.fixture
def client():
    c, service, _ = _client()
    yield c
    service.close()


def test_check_returns_verdict_action_and_stripped_answer(client):
    r = client.post("/v1/check", json=RECORD)
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["request_id"] == "r-1"
    assert body["action"]["action"] == "strip" and body["action"]["stripped"] == [1]
    assert body["answer"] == "You have 30 days to ask for a refund. Support is friendly."
    assert body["changed"] is True
    assert [c["verdict"] for c in body["verdict"]["claims"]] == ["SUPPORTED", "NOT_ENOUGH_INFO", "SUPPORTED"]
    assert body["verdict"]["action"]["action"] == "strip"
    assert "passages" not in body["verdict"]
    assert "passages" in client.post("/v1/check?passages=true", json=RECORD).json()["verdict"]


def test_invalid_records_name_the_field(client):
    r = client.post("/v1/check", json={**RECORD, "passages": [{"id": "p1"}]})
    assert r.status_code == 422 and r.json()["field"] == "passages.0.text"
    assert r.json()["request_id"] == "r-1"  # read, so named
    r = client.post("/v1/check", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"] == "malformed_json" and r.json()["request_id"] is None


def test_body_over_the_limit_is_refused_with_413():
    client, service, scorer = _client(max_request_bytes=2048)
    big = {**RECORD, "answer": "x " * 2000}
    r = client.post("/v1/check", json=big)
    assert r.status_code == 413 and r.json()["error"] == "request_too_large"

    def chunks():  # no Content-Length: counted while it streams
        data = json.dumps(big).encode()
        for i in range(0, len(data), 512):
            yield data[i:i + 512]

    r = client.post("/v1/check", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert scorer.calls == []
    assert client.post("/v1/check", json=RECORD).status_code == 200  # a small one still passes
    service.close()


def test_bearer_token_is_required_when_configured():
    client, service, _ = _client(auth_token=SecretStr("s3cret-token"))
    assert client.post("/v1/check", json=RECORD).status_code == 401
    r = client.post("/v1/check", json=RECORD, headers={"Authorization": "Bearer wrong"})
    assert r.status_code == 401 and r.headers["www-authenticate"] == "Bearer"
    assert client.post("/v1/check", json=RECORD, headers={"Authorization": "Bearer s3cret-token"}).status_code == 200
    assert client.post("/v1/check:batch", json={"responses": [RECORD]}).status_code == 401
    for path in ("/healthz", "/readyz", "/metrics"):
        assert client.get(path).status_code == 200, path
    for path in ("/openapi.json", "/docs"):  # the API description is behind the same token as /v1
        assert client.get(path).status_code == 401, path
        assert client.get(path, headers={"Authorization": "Bearer s3cret-token"}).status_code == 200, path
    service.close()


def test_deadline_answers_504_with_what_is_known():
    client, service, scorer = _client()
    scorer.gate.clear()  # the scorer hangs
    start = time.monotonic()
    r = client.post("/v1/check", json=RECORD, headers={"X-Groundwatch-Deadline-Ms": "200"})
    assert time.monotonic() - start < 2.0
    assert r.status_code == 504
    body = r.json()
    assert body["error"] == "deadline_exceeded" and body["stage"] == "scoring" and body["deadline_s"] == 0.2
    assert [(c["index"], c["severity"], c["verdict"]) for c in body["claims"]] == [
        (0, "high", None), (1, "high", None), (2, "normal", None)]
    assert body["claims"][1]["span"] == [42, 73]
    assert body["action"]["action"] == "log" and body["action"]["rule"] == "on_timeout"
    assert body["answer"] == ANSWER
    # A second request waits behind the hung call: it times out while still queued.
    r2 = client.post("/v1/check", json={**RECORD, "request_id": "r-2"}, headers={"X-Groundwatch-Deadline-Ms": "100"})
    assert r2.status_code == 504 and r2.json()["stage"] == "queued"
    scorer.gate.set()
    assert client.post("/v1/check", json=RECORD).status_code == 200
    metrics = client.get("/metrics").text
    assert 'groundwatch_http_requests_total{endpoint="check",status="504"} 2.0' in metrics
    assert 'groundwatch_actions_total{action="log",rule="on_timeout"} 2.0' in metrics
    service.close()


def test_deadline_is_capped_by_the_server_setting():
    client, service, scorer = _client(deadline_s=0.2)
    scorer.gate.clear()
    r = client.post("/v1/check", json=RECORD, headers={"X-Groundwatch-Deadline-Ms": "60000"})
    assert r.status_code == 504 and r.json()["deadline_s"] == 0.2
    scorer.gate.set()
    service.close()


def test_concurrent_requests_share_one_scorer_call():
    client, service, scorer = _client(deadline_s=60)  # a busy test machine must not turn waits into 504s
    scorer.gate.clear()
    with ThreadPoolExecutor(8) as pool:
        futures = [pool.submit(client.post, "/v1/check", json={**RECORD, "request_id": "r-0"})]
        assert scorer.entered.wait(5)  # the first call holds the scorer
        futures += [pool.submit(client.post, "/v1/check", json={**RECORD, "request_id": f"r-{i}"})
                    for i in range(1, 8)]
        deadline = time.monotonic() + 5
        while service.collector.depth() < 7 and time.monotonic() < deadline:
            time.sleep(0.01)  # the first call holds the scorer; the other seven queue behind it
        scorer.gate.set()
        statuses = [f.result().status_code for f in futures]
    assert statuses == [200] * 8
    assert scorer.calls == [1, 7]
    assert 'groundwatch_serve_batch_responses_bucket{le="8.0"} 2.0' in client.get("/metrics").text
    service.close()


def test_batch_endpoint_one_result_per_record():
    client, service, scorer = _client(max_batch_items=3)
    records = [RECORD, {**RECORD, "request_id": "r-bad", "answer": "  "}, {**RECORD, "request_id": "r-3"}]
    r = client.post("/v1/check:batch", json={"responses": records})
    assert r.status_code == 200
    results = r.json()["results"]
    assert [x["status"] for x in results] == [200, 422, 200]
    assert [x["request_id"] for x in results] == ["r-1", "r-bad", "r-3"]
    assert results[1]["field"] == "answer"
    assert scorer.calls == [2]  # both valid records in one scorer call
    r = client.post("/v1/check:batch", json={"responses": records + [RECORD]})
    assert r.status_code == 413 and r.json()["error"] == "too_many_items"
    assert client.post("/v1/check:batch", json=[RECORD]).status_code == 422
    service.close()


def test_batch_with_a_late_record_is_504_and_keeps_the_finished_ones():
    client, service, scorer = _client(max_batch_responses=1)
    calls = []
    original = scorer.score

    def slow_second(responses, deadline=None):
        calls.append(len(calls))
        if len(calls) == 2:
            time.sleep(0.6)
        return original(responses, deadline)

    scorer.score = slow_second
    r = client.post("/v1/check:batch", json={"responses": [RECORD, {**RECORD, "request_id": "r-2"}]},
                    headers={"X-Groundwatch-Deadline-Ms": "300"})
    assert r.status_code == 504
    assert [x["status"] for x in r.json()["results"]] == [200, 504]
    service.close()


def test_scoring_error_is_500_with_the_on_error_action():
    client, service, _ = _client(FakeScorer(fail="r-1"))
    r = client.post("/v1/check", json=RECORD)
    assert r.status_code == 500
    body = r.json()
    assert body["error"] == "scoring_failed" and body["action"]["rule"] == "on_error" and body["answer"] == ANSWER
    service.close()


def test_full_queue_is_503():
    client, service, scorer = _client(max_queue=1, deadline_s=60)
    scorer.gate.clear()
    with ThreadPoolExecutor(4) as pool:
        first = pool.submit(client.post, "/v1/check", json=RECORD)
        assert scorer.entered.wait(5)  # first is with the scorer
        second = pool.submit(client.post, "/v1/check", json={**RECORD, "request_id": "r-2"})
        deadline = time.monotonic() + 5
        while service.collector.depth() < 1 and time.monotonic() < deadline:
            time.sleep(0.01)  # second fills the queue
        third = client.post("/v1/check", json={**RECORD, "request_id": "r-3"})
        scorer.gate.set()
        assert third.status_code == 503 and third.json()["error"] == "overloaded"
        assert first.result().status_code == 200 and second.result().status_code == 200
    service.close()


def test_health_readiness_and_openapi():
    client, service, _ = _client()
    assert client.get("/healthz").text == "ok\n"
    assert client.get("/readyz").json() == {"ready": True, "problems": []}
    doc = client.get("/openapi.json").json()
    check = doc["paths"]["/v1/check"]["post"]
    assert check["requestBody"]["content"]["application/json"]["schema"]["$ref"] == "#/components/schemas/Response"
    assert {"200", "400", "401", "413", "422", "504"} <= set(check["responses"])
    assert "answer" in doc["components"]["schemas"]["Response"]["properties"]
    assert "/v1/check:batch" in doc["paths"]
    assert doc["components"]["securitySchemes"]["HTTPBearer"]["scheme"] == "bearer"
    service.stopping = True
    assert client.get("/readyz").status_code == 503
    r = client.post("/v1/check", json=RECORD)
    assert r.status_code == 503 and r.json()["request_id"] == "r-1"
    service.stopping = False
    service.close()


class FlakySink:
    """A publish sink that is down for its first `failures` writes, then keeps what it is given."""

    name = "memory"

    def __init__(self, failures=0):
        self.failures, self.tries, self.written = failures, 0, []

    def write(self, verdicts):
        from groundwatch.export.base import SinkUnavailable

        self.tries += 1
        if self.failures:
            self.failures -= 1
            raise SinkUnavailable("memory", "down")
        self.written.extend(v.request_id for v in verdicts)

    def close(self):
        pass


def test_publisher_gets_scored_verdicts_and_retries_then_drops():
    from groundwatch.serve.publish import Publisher

    metrics = Metrics()
    good, flaky, dead = FlakySink(), FlakySink(failures=1), FlakySink(failures=99)
    publisher = Publisher([good, flaky, dead], metrics, retry_s=0.01)
    scorer = FakeScorer()
    settings = ServeSettings()
    service = CheckService(settings, scorer, metrics, scorer.policy, publisher=publisher)
    service.model_loaded = True
    client = TestClient(create_app(service, settings, metrics.registry))
    assert client.post("/v1/check", json=RECORD).status_code == 200
    service.close()  # flushes the publisher
    assert good.written == ["r-1"] and flaky.written == ["r-1"] and dead.written == []
    text = client.get("/metrics").text
    assert 'groundwatch_sink_failures_total{reason="dropped",sink="memory"} 1.0' in text


def test_collector_waits_for_company_only_under_concurrent_load():
    from groundwatch.scorers.schema import parse_response
    from groundwatch.serve.collector import Collector

    scorer = FakeScorer()
    collector = Collector(scorer, max_batch=8, wait_ms=300)
    response = parse_response(RECORD)
    collector.submit(response).result(5)  # alone: no wait
    assert scorer.calls == [1]
    scorer.gate.clear()
    scorer.entered.clear()
    first = collector.submit(response)
    assert scorer.entered.wait(5)
    pair = [collector.submit(response), collector.submit(response)]  # queue behind the held call
    scorer.gate.set()
    for f in [first, *pair]:
        f.result(5)
    assert scorer.calls == [1, 1, 2]
    # The last call had company: the next one waits up to 300 ms for a second request.
    lead = collector.submit(response)
    time.sleep(0.1)
    late = collector.submit(response)
    lead.result(5), late.result(5)
    assert scorer.calls == [1, 1, 2, 2]
    collector.close()


def test_scorer_calls_run_under_the_request_deadline_and_late_results_are_504():
    from groundwatch.scorers.errors import DeadlineExceeded

    client, service, scorer = _client(deadline_s=30)
    r = client.post("/v1/check", json=RECORD, headers={"X-Groundwatch-Deadline-Ms": "4000"})
    assert r.status_code == 200
    remaining = scorer.deadlines[-1].remaining()
    assert remaining is not None and 0 < remaining <= 4.0  # the scorer's own Deadline, ending with the request's

    def late(responses, deadline=None):  # what Scorer.score returns for a result later than its deadline
        return [DeadlineExceeded("batch", "late") for _ in responses]

    scorer.score = late
    r = client.post("/v1/check", json=RECORD)
    assert r.status_code == 504 and r.json()["stage"] == "scoring" and r.json()["action"]["rule"] == "on_timeout"
    service.close()


def test_a_record_over_a_scorer_limit_is_413_with_its_reason_and_an_invalid_one_422(client):
    r = client.post("/v1/check", json={**RECORD, "answer": "Refunds take 30 days. " * 1000})
    assert r.status_code == 413 and (r.json()["error"], r.json()["reason"]) == ("too_large", "answer_too_long")
    assert r.json()["request_id"] == "r-1"
    deep = {**RECORD, "metadata": {"app": "shop", "x": json.loads("[" * 40 + "]" * 40)}}
    r = client.post("/v1/check:batch", json={"responses": [RECORD, deep, {**RECORD, "answer": 5}]})
    assert [(x["status"], x.get("reason")) for x in r.json()["results"]] == [
        (200, None), (413, "too_deep"), (422, "schema")]
    r = client.post("/v1/check", content=b'{"a":' * 100_000, headers={"content-type": "application/json"})
    assert r.status_code == 413 and (r.json()["error"], r.json()["reason"]) == ("too_large", "too_deep")


def test_a_response_over_a_scorer_cap_is_413_with_the_on_error_action():
    scorer = FakeScorer(fail="r-1")
    original = scorer.score
    scorer.score = lambda responses, deadline=None: [
        ScoringError("120 passage chunks, more than scorer.max_chunks (100)", "limits", "too_many_chunks")
        if r.request_id == "r-1" else v for r, v in zip(responses, original(responses, deadline))]
    client, service, _ = _client(scorer)
    r = client.post("/v1/check", json=RECORD)
    body = r.json()
    assert r.status_code == 413 and (body["error"], body["reason"]) == ("too_large", "too_many_chunks")
    assert body["action"]["rule"] == "on_error" and body["answer"] == ANSWER
    service.close()


def test_a_publish_sink_outage_is_one_warning_however_many_batches_fail():
    from types import SimpleNamespace

    from structlog.testing import capture_logs

    from groundwatch.serve.publish import ATTEMPTS, Publisher

    sink = FlakySink(failures=2 * ATTEMPTS)  # two batches dropped, the third written
    with capture_logs() as logs:
        publisher = Publisher([sink], Metrics(), retry_s=0.01)
        for n in range(3):
            publisher.publish([SimpleNamespace(request_id=f"r-{n}")])
            deadline = time.monotonic() + 10
            while sink.tries < min(ATTEMPTS * (n + 1), 2 * ATTEMPTS + 1) and time.monotonic() < deadline:
                time.sleep(0.01)
        publisher.close()
    assert sink.written == ["r-2"]
    said = [(e["event"], e["log_level"]) for e in logs if e["log_level"] in ("warning", "error", "info")]
    assert said == [("publish_failed", "warning"), ("publish_recovered", "info")], said
