"""Metric names match export/metric_names.py; counts follow verdicts; the HTTP port answers."""

from __future__ import annotations

import urllib.error
import urllib.request

import pytest
from prometheus_client.parser import text_string_to_metric_families

from export.metric_names import METRIC_NAMES
from export.metrics import Metrics
from export.metrics_server import Health, MetricsServer
from scorers.records import ContextConflict, Verdict
from tests.unit.verdicts import claim, verdict

ALLOWED_LABELS = {"verdict", "stage", "reason", "sink", "provider", "precision", "model", "k", "source",
                  "topic", "partition", "le", "fallback", "action", "rule", "endpoint", "status", "outcome", "flag"}


def _samples(metrics: Metrics) -> dict[tuple, float]:
    from prometheus_client import generate_latest

    out = {}
    for family in text_string_to_metric_families(generate_latest(metrics.registry).decode()):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def test_registry_exports_exactly_the_shared_metric_names():
    assert Metrics().names() == METRIC_NAMES


def test_verdicts_counted_by_response_and_claim_verdict():
    m = Metrics()
    m.scored([
        verdict([claim(0, Verdict.SUPPORTED), claim(1, Verdict.SKIPPED)], gold=["p1"]),
        verdict([claim(0, Verdict.CONTRADICTED), claim(1, Verdict.SUPPORTED)], gold=["p2"],
                conflicts=[ContextConflict(["p1", "p2"], ["a", "b"], 0.9, 0)]),
    ])
    s = _samples(m)
    assert s[("groundwatch_responses_total", (("verdict", "all_supported"),))] == 1
    assert s[("groundwatch_responses_total", (("verdict", "has_unsupported"),))] == 1
    assert s[("groundwatch_claims_total", (("verdict", "SUPPORTED"),))] == 2
    assert s[("groundwatch_claims_total", (("verdict", "NOT_ENOUGH_INFO"),))] == 0  # present from the start
    assert s[("groundwatch_context_conflicts_total", ())] == 1
    # gold p1 is first, p2 second: recall@1 = 0.5, recall@3 = 1.0 over the two responses
    assert s[("groundwatch_recall_at_k", (("k", "1"), ("source", "online")))] == 0.5
    assert s[("groundwatch_recall_at_k", (("k", "3"), ("source", "online")))] == 1.0


def test_labels_are_small_vocabularies_never_ids():
    m = Metrics()
    m.scored([verdict([claim(0, Verdict.SUPPORTED)], request_id="req-should-not-appear")])
    m.dead_letter("decode", "not_json")
    m.sink_failure("opensearch", "unavailable")
    m.scorer_error("Fail")
    m.set_model("cpu", "int8", "onnx@abc")
    m.set_lag("rag-responses", 3, 12)
    m.observe_stage("inference", 0.2)
    m.observe_nli_batch(16, 0.05)
    m.action("log", "on_timeout")
    m.http_request("check", 200, 0.1)
    m.observe_serve_batch(4)
    labels = {name for (_, pairs) in _samples(m) for name, _ in pairs}
    assert labels <= ALLOWED_LABELS
    assert not any("req-should-not-appear" in str(key) for key in _samples(m))


def test_stage_histogram_buckets_span_sub_millisecond_to_a_minute():
    m = Metrics()
    m.observe_stage("decode", 0.0003)
    m.observe_stage("inference", 42.0)
    s = _samples(m)
    assert s[("groundwatch_stage_seconds_bucket", (("le", "0.0005"), ("stage", "decode")))] == 1
    assert s[("groundwatch_stage_seconds_bucket", (("le", "30.0"), ("stage", "inference")))] == 0
    assert s[("groundwatch_stage_seconds_bucket", (("le", "60.0"), ("stage", "inference")))] == 1


def test_http_port_serves_metrics_health_and_readiness():
    metrics, health = Metrics(), Health()
    server = MetricsServer(metrics.registry, health, "127.0.0.1", 0)
    base = f"http://127.0.0.1:{server.port}"
    try:
        assert urllib.request.urlopen(base + "/healthz", timeout=5).status == 200
        with pytest.raises(urllib.error.HTTPError) as not_ready:
            urllib.request.urlopen(base + "/readyz", timeout=5)
        assert not_ready.value.code == 503
        assert b"model not loaded" in not_ready.value.read()
        health.model_loaded = health.assigned = True
        assert urllib.request.urlopen(base + "/readyz", timeout=5).status == 200
        health.stopping = True
        with pytest.raises(urllib.error.HTTPError):
            urllib.request.urlopen(base + "/readyz", timeout=5)
        body = urllib.request.urlopen(base + "/metrics", timeout=5).read().decode()
        assert 'groundwatch_claims_total{verdict="CONTRADICTED"} 0.0' in body
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(base + "/nope", timeout=5)
        assert missing.value.code == 404
    finally:
        server.close()
