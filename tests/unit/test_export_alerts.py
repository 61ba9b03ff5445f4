"""Which verdicts raise an alert, and what an alert carries (ids and scores, never text)."""

from __future__ import annotations

import json
import threading

from groundwatch.export.alerts import AlertSink, Webhook, alert_key, build_alert
from groundwatch.scorers.records import Evidence, Verdict
from tests.unit.verdicts import claim, verdict


def test_supported_and_normal_unsupported_claims_raise_no_alert():
    v = verdict([claim(0, Verdict.SUPPORTED, "high"), claim(1, Verdict.NOT_ENOUGH_INFO, "normal"),
                 claim(2, Verdict.SKIPPED)])
    assert build_alert(v) is None


def test_contradicted_claim_alerts_with_the_most_contradicting_premise():
    v = verdict([claim(0, Verdict.SUPPORTED), claim(1, Verdict.CONTRADICTED, "normal")])
    alert = build_alert(v)
    assert alert["request_id"] == "req-1" and alert["doc_id"] == v.doc_id
    assert alert["reasons"] == ["contradicted"]
    assert alert["claims"] == [{"index": 1, "verdict": "CONTRADICTED", "severity": "normal",
                                "entailment": 0.6, "contradiction": 0.7, "passage_ids": ["p1"]}]


def test_high_severity_unsupported_claim_alerts_with_the_most_entailing_premise():
    v = verdict([claim(0, Verdict.NOT_ENOUGH_INFO, "high"), claim(1, Verdict.NOT_ENOUGH_INFO, "normal")])
    alert = build_alert(v)
    assert alert["reasons"] == ["high_severity_unsupported"]
    assert [c["index"] for c in alert["claims"]] == [0]
    assert alert["claims"][0]["passage_ids"] == ["p1", "p2"]  # the pair premise entails most


def test_both_reasons_and_a_claim_without_evidence():
    v = verdict([claim(0, Verdict.CONTRADICTED, "high"), claim(1, Verdict.NOT_ENOUGH_INFO, "high", evidence=[])])
    alert = build_alert(v)
    assert alert["reasons"] == ["contradicted", "high_severity_unsupported"]
    assert alert["claims"][1] == {"index": 1, "verdict": "NOT_ENOUGH_INFO", "severity": "high",
                                  "entailment": 0.0, "contradiction": 0.0, "passage_ids": []}


def test_alert_keeps_app_model_tenant_and_never_text():
    passage_ids = [Evidence(["p1"], [(0, 10)], 0.1, 0.1, 0.8, 0.5)]
    v = verdict([claim(0, Verdict.CONTRADICTED, evidence=passage_ids, text="The secret code is 1234.")],
                metadata={"app": "shop", "model": "gen-1", "tenant": "acme", "retriever": "bm25", "user": "u-9"})
    alert = build_alert(v)
    assert alert["metadata"] == {"app": "shop", "model": "gen-1", "tenant": "acme"}
    encoded = json.dumps(alert)
    for text in ("The secret code", "Refunds are accepted", "Shipping is free", "u-9"):
        assert text not in encoded
    assert alert["schema"] == "groundwatch.alert.v1"
    assert alert["timestamp"] == "2026-03-05T23:30:00+00:00" and alert["model"] == "onnx@abc123"


class _Receiver:
    """A local HTTP endpoint that records what is POSTed to it and answers `status`."""

    def __init__(self, status: int = 204):
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        received = self.received = []

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802
                body = self.rfile.read(int(self.headers["Content-Length"]))
                received.append((self.headers.get("Authorization"), json.loads(body)))
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def test_webhook_posts_each_alert_with_the_bearer_token():
    receiver = _Receiver()
    sink = AlertSink(producer=None, topic="alerts", webhook=Webhook(receiver.url, "tok-123"))
    alerts = [build_alert(verdict([claim(0, Verdict.CONTRADICTED)], request_id=f"r{i}")) for i in range(2)]
    try:
        sink._post(alerts)
    finally:
        sink.close()
        receiver.close()
    assert [(auth, body["request_id"]) for auth, body in receiver.received] == [
        ("Bearer tok-123", "r0"), ("Bearer tok-123", "r1")]


def test_failing_webhook_is_counted_once_per_batch_and_does_not_raise():
    receiver = _Receiver(status=503)
    reasons = []
    sink = AlertSink(producer=None, topic="alerts", webhook=Webhook(receiver.url),
                     on_webhook_failure=reasons.append)
    alerts = [build_alert(verdict([claim(0, Verdict.CONTRADICTED)], request_id=f"r{i}")) for i in range(3)]
    try:
        sink._post(alerts)
    finally:
        sink.close()
        receiver.close()
    assert reasons == ["http_503"]
    assert len(receiver.received) == 1, "the rest of the batch is skipped, not posted one by one"
    assert receiver.received[0][0] is None, "no token configured, no Authorization header"


def test_two_apps_reusing_a_request_id_get_two_alert_keys_and_doc_ids():
    a, b = (verdict([claim(0, Verdict.CONTRADICTED)], request_id="42",
                    metadata={"app": app, "tenant": "acme"}) for app in ("shop", "help:desk"))
    alerts = [build_alert(a), build_alert(b)]
    assert [alert_key(x) for x in alerts] == ["shop:42", "help%3Adesk:42"]
    assert alerts[0]["doc_id"] != alerts[1]["doc_id"]
    no_app = build_alert(verdict([claim(0, Verdict.CONTRADICTED)], request_id="42", metadata={}))
    assert alert_key(no_app) == "42"
