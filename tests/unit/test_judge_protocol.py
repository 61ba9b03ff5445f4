"""The judge against a local server that speaks the OpenAI chat-completions protocol and replays fixed answers.

It checks the protocol, the budgets and the failure handling, not a judge's accuracy: no language
model runs here. Each failure (timeout, malformed answer, budget spent, endpoint down, the caller's
deadline) must leave exactly the small model's verdicts and say why in the claim's `judge` entry.
"""

from __future__ import annotations

import copy
import json
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from pydantic import SecretStr
from structlog.testing import capture_logs

from groundwatch.config.judge import JudgeSettings
from groundwatch.config.redaction import RedactionSettings
from groundwatch.config.scorer import ScorerConfig
from groundwatch.reports import explain
from groundwatch.scorers.deadline import Deadline
from groundwatch.scorers.verdicts.decide import finalise
from groundwatch.scorers.verdicts.judge.judge import Judge
from groundwatch.scorers.pipeline import Scorer
from groundwatch.scorers.records import ResponseVerdict, Verdict
from groundwatch.scorers.schema import parse_response

API_KEY = "sk-test-judge-key"
ANSWER = '{"verdict": "CONTRADICTED", "reason": "The passage gives 30 days."}'
RESPONSE = {
    "request_id": "j-1",
    "answer": "Refunds are available for up to 60 days after delivery. Write to help@shop.example for a refund. "
              "Orders ship within 2 business days.",
    "passages": [
        {"id": "p1", "text": "Refunds are available within 30 days of purchase. Write to help@shop.example "
                             "with the order number."},
        {"id": "p2", "text": "Shipping fees are non-refundable. Orders ship within 2 business days."},
    ],
}


class ReplayServer(ThreadingHTTPServer):
    """Answers every POST /v1/chat/completions by `mode`; keeps each request's body and headers."""

    daemon_threads = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), _Handler)
        self.mode = "ok"
        self.requests: list[dict] = []

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class _Handler(BaseHTTPRequestHandler):
    def do_POST(self):  # noqa: N802 - http.server's spelling
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append({"path": self.path, "body": body, "headers": dict(self.headers)})
        mode = self.server.mode
        if mode == "slow":
            time.sleep(3.0)
        if mode == "error":
            return self._send(500, {"error": {"message": "overloaded"}})
        content = "The claim is supported by the passage." if mode == "malformed" else ANSWER
        self._send(200, {"id": "x", "object": "chat.completion", "model": body["model"],
                         "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                                      "finish_reason": "stop"}],
                         "usage": {"prompt_tokens": 90, "completion_tokens": 20, "total_tokens": 110}})

    def _send(self, status: int, payload: dict) -> None:
        data = json.dumps(payload).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout tests)
            pass

    def log_message(self, *args):  # keep the test output clean
        pass


@pytest.fixture(scope="module")
def server():
    srv = ReplayServer()
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield srv
    srv.shutdown()
    srv.server_close()


@pytest.fixture(scope="module")
def scored():
    """The small model's verdicts (the fake backend: word overlap), computed once."""
    scorer = Scorer.from_config(ScorerConfig(backend="fake", use_embeddings=False))
    response = parse_response(RESPONSE)
    verdicts = scorer.score([response])
    scorer.close()
    assert isinstance(verdicts[0], ResponseVerdict)
    return response, verdicts


def judge_for(url: str, **overrides) -> Judge:
    # A band of [0, 1): every checked claim with evidence is in it, whatever the fake backend scored.
    settings = dict(enabled=True, base_url=url, model="replay-judge", api_key=SecretStr(API_KEY), lower=0.0,
                    upper=1.0, timeout_s=1.0, max_calls_per_s=100.0, max_share_of_claims=1.0)
    return Judge.from_settings(JudgeSettings(**(settings | overrides)), RedactionSettings())


def review(judge: Judge, scored, deadline: Deadline | None = None) -> tuple[ResponseVerdict, ResponseVerdict]:
    response, verdicts = scored
    mine = copy.deepcopy(verdicts)
    try:
        judge.review(mine, [response], deadline)
    finally:
        judge.close()
    finalise(mine[0], list(response.passages))  # the judge's answer is one input to the one decision
    return verdicts[0], mine[0]


def in_band(verdict: ResponseVerdict):
    return [c for c in verdict.claims if c.scored and c.evidence]


def assert_fallback(before: ResponseVerdict, after: ResponseVerdict, outcome: str) -> None:
    """The small model's verdicts, untouched, and the reason in every in-band claim's record."""
    assert [c.verdict for c in after.claims] == [c.verdict for c in before.claims]
    assert after.response == before.response
    for b, a in zip(before.claims, after.claims):
        if a in in_band(after):
            assert a.judge["outcome"] == outcome and a.judge["verdict"] is None
            assert a.judge["small_model_verdict"] == b.verdict.value
            assert a.flags == b.flags
        else:
            assert a.judge is None


def test_success_replaces_the_verdict_with_the_judges_and_keeps_the_raw_reply(server, scored):
    server.mode, server.requests[:] = "ok", []
    before, after = review(judge_for(server.url), scored)
    judged = in_band(after)
    assert len(judged) >= 2 and len(server.requests) == len(judged)
    for claim in judged:
        assert claim.verdict is Verdict.CONTRADICTED
        assert claim.judge["outcome"] == "judged" and claim.judge["raw"] == ANSWER
        assert claim.judge["reason"] == "The passage gives 30 days." and claim.judge["model"] == "replay-judge"
    assert after.response.counts["CONTRADICTED"] == len(judged)  # the summary follows the new verdicts
    assert after.response.all_supported is False
    request = server.requests[0]
    assert request["path"] == "/v1/chat/completions"
    assert request["body"]["temperature"] == 0 and request["body"]["model"] == "replay-judge"
    assert request["body"]["max_tokens"] == 256
    assert request["headers"]["Authorization"] == f"Bearer {API_KEY}"


def test_the_judge_records_its_answer_and_decides_nothing(server, scored):
    server.mode = "ok"
    response, verdicts = scored
    mine = copy.deepcopy(verdicts)
    judge = judge_for(server.url)
    try:
        judge.review(mine, [response])
    finally:
        judge.close()
    assert [c.verdict for c in mine[0].claims] == [c.verdict for c in verdicts[0].claims]
    assert [c.flags for c in mine[0].claims] == [c.flags for c in verdicts[0].claims]
    assert mine[0].response == verdicts[0].response
    assert {c.judge["verdict"] for c in in_band(mine[0])} == {"CONTRADICTED"}


def test_nothing_personal_leaves_the_system(server, scored):
    server.mode, server.requests[:] = "ok", []
    review(judge_for(server.url), scored)
    sent = json.dumps([r["body"]["messages"] for r in server.requests])
    assert "help@shop.example" not in sent and "[email]" in sent  # claim and premise both redacted
    assert "Refunds are available within 30 days" in sent  # the deciding evidence itself goes


def test_a_repeated_claim_is_answered_from_the_cache(server, scored):
    server.mode, server.requests[:] = "ok", []
    judge = judge_for(server.url)
    response, verdicts = scored
    first, second = copy.deepcopy(verdicts), copy.deepcopy(verdicts)
    judge.review(first, [response])
    calls = len(server.requests)
    judge.review(second, [response])
    judge.close()
    for verdict in (first[0], second[0]):
        finalise(verdict, list(response.passages))
    assert len(server.requests) == calls
    assert {c.judge["outcome"] for c in in_band(second[0])} == {"cached"}
    assert [c.verdict for c in second[0].claims] == [c.verdict for c in first[0].claims]


def test_timeout_keeps_the_small_models_verdict(server, scored):
    server.mode = "slow"
    before, after = review(judge_for(server.url, timeout_s=0.3), scored)
    assert_fallback(before, after, "timeout")


def test_a_malformed_answer_keeps_the_small_models_verdict_and_its_raw_text(server, scored):
    server.mode = "malformed"
    before, after = review(judge_for(server.url), scored)
    assert_fallback(before, after, "malformed")
    assert all(c.judge["raw"] == "The claim is supported by the passage." for c in in_band(after))


def test_an_error_status_keeps_the_small_models_verdict(server, scored):
    server.mode = "error"
    before, after = review(judge_for(server.url), scored)
    assert_fallback(before, after, "unavailable")
    assert all("HTTP 500" in c.judge["error"] for c in in_band(after))


def test_endpoint_down_keeps_the_small_models_verdict(scored):
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    before, after = review(judge_for(f"http://127.0.0.1:{port}"), scored)
    assert_fallback(before, after, "unavailable")


def test_budget_exhausted_keeps_the_small_models_verdict_without_a_call(server, scored):
    server.mode, server.requests[:] = "ok", []
    judge = judge_for(server.url)
    judge.budget._calls = 10 ** 6  # the share of claims is spent
    before, after = review(judge, scored)
    assert_fallback(before, after, "budget")
    assert server.requests == []


def test_only_the_share_of_claims_goes_out(server, scored):
    server.mode, server.requests[:] = "ok", []
    _, after = review(judge_for(server.url, max_share_of_claims=0.01), scored)
    outcomes = [c.judge["outcome"] for c in in_band(after)]
    assert outcomes.count("judged") == 1 and set(outcomes) == {"judged", "budget"}
    assert len(server.requests) == 1


def test_the_callers_deadline_bounds_the_wait(server, scored):
    server.mode = "slow"  # each reply takes 3 s; the judge's own timeout (10 s) is not what ends the wait
    start = time.monotonic()
    before, after = review(judge_for(server.url, timeout_s=10.0), scored, Deadline(0.5))
    assert time.monotonic() - start < 2.5
    assert [c.verdict for c in after.claims] == [c.verdict for c in before.claims]
    assert {c.judge["outcome"] for c in in_band(after)} <= {"deadline", "timeout"}


def test_an_expired_deadline_sends_nothing(server, scored):
    server.mode, server.requests[:] = "ok", []
    before, after = review(judge_for(server.url), scored, Deadline(0.0))
    assert_fallback(before, after, "deadline")
    assert server.requests == []


def test_through_the_scorer_the_record_carries_the_judge_and_the_version_names_it(server):
    server.mode = "ok"
    config = ScorerConfig(backend="fake", use_embeddings=False)
    plain = Scorer.from_config(config)
    judged = Scorer.from_config(config, judge=judge_for(server.url))
    try:
        with capture_logs() as logs:
            record = judged.score([parse_response(RESPONSE)])[0].to_dict()
        baseline = plain.score([parse_response(RESPONSE)])[0].to_dict()
    finally:
        plain.close()
        judged.close()
    assert judged.version != plain.version
    assert all("judge" not in c for c in baseline["claims"])  # off: the record is as it was
    assert any(c.get("judge", {}).get("outcome") == "judged" for c in record["claims"])
    stored = json.loads(json.dumps(record))  # serialisable, and what explain reads back
    assert "CONTRADICTED" in explain.render(stored)
    events = [e for e in logs if e["event"] == "judge_reviewed"]
    assert events and events[0]["judged"] >= 1
    assert API_KEY not in json.dumps(logs, default=str) and "help@shop.example" not in json.dumps(logs, default=str)
