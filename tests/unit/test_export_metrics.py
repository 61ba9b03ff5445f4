"""Metric names match export/metric_names.py; counts follow verdicts; the HTTP port answers."""

from __future__ import annotations

import urllib.error
import urllib.request

import pytest
from prometheus_client.parser import text_string_to_metric_families

from groundwatch.export.metric_names import METRIC_NAMES
from groundwatch.export.metrics import Metrics
from groundwatch.export.metrics_server import Health, MetricsServer
from groundwatch.scorers.records import ContextConflict, Verdict
from tests.unit.verdicts import claim, verdict

ALLOWED_LABELS = {"verdict", "severity", "scorer_version", "app", "tenant", "retriever", "stage", "reason", "sink", "provider", "precision", "model", "k", "source",
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
    key = (("app", "shop"), ("scorer_version", "0.1.0"))
    assert s[("groundwatch_responses_total", key[:1] + key[1:] + (("verdict", "all_supported"),))] == 1
    assert s[("groundwatch_responses_total", key + (("verdict", "has_unsupported"),))] == 1
    assert s[("groundwatch_claims_total", key[:1] + (("scorer_version", "0.1.0"), ("severity", "normal"),
                                                     ("verdict", "SUPPORTED")))] == 2
    # every verdict and severity of a new (version, app) is present at 0 from its first verdict on
    assert s[("groundwatch_claims_total", key[:1] + (("scorer_version", "0.1.0"), ("severity", "high"),
                                                     ("verdict", "NOT_ENOUGH_INFO")))] == 0
    assert s[("groundwatch_context_conflicts_total", ())] == 1
    # gold p1 is first, p2 second: recall@1 = 0.5, recall@3 = 1.0 over the two responses
    assert s[("groundwatch_recall_at_k", (("k", "1"), ("source", "online")))] == 0.5
    assert s[("groundwatch_recall_at_k", (("k", "3"), ("source", "online")))] == 1.0


def test_claims_the_second_opinion_re_read_are_counted_by_reason_and_outcome():
    m = Metrics()
    read, failed, alone = claim(0, Verdict.NOT_ENOUGH_INFO), claim(1, Verdict.CONTRADICTED), claim(2, Verdict.SUPPORTED)
    read.second_opinion = {"reason": "contradicted", "outcome": "rescored", "verdict": "NOT_ENOUGH_INFO",
                           "small_model_verdict": "CONTRADICTED"}
    failed.second_opinion = {"reason": "uncertain", "outcome": "failed", "verdict": None,
                             "small_model_verdict": "CONTRADICTED"}
    m.scored([verdict([read, failed, alone])])
    s = _samples(m)
    assert s[("groundwatch_second_opinion_claims_total", (("outcome", "rescored"), ("reason", "contradicted")))] == 1
    assert s[("groundwatch_second_opinion_claims_total", (("outcome", "failed"), ("reason", "uncertain")))] == 1
    assert sum(v for (name, _), v in s.items() if name == "groundwatch_second_opinion_claims_total") == 2


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
    m.observe_pair_cache("small", 1, 2, 0, 3)
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
        assert 'groundwatch_dead_letters_total{reason="not_json",stage="decode"} 0.0' in body
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(base + "/nope", timeout=5)
        assert missing.value.code == 404
    finally:
        server.close()


def test_app_tenant_and_retriever_labels_stay_bounded():
    from groundwatch.export.metric_labels import LabelPolicy

    m = Metrics(labels=LabelPolicy(max_apps=2, tenants=("acme",), retrievers=("bm25", "hybrid")))
    for i, (app, tenant, retriever) in enumerate([("shop", "acme", "bm25"), ("help", "globex", "knn"),
                                                  ("spam-1", None, "hybrid"), ("spam-2", "acme", "bm25"),
                                                  ("shop", "acme", "bm25")]):
        m.scored([verdict([claim(0, Verdict.SUPPORTED, severity="high")], request_id=f"r-{i}",
                          metadata={k: v for k, v in (("app", app), ("tenant", tenant), ("retriever", retriever)) if v})])
    seen = {dict(pairs)["app"] for (name, pairs) in _samples(m) if name == "groundwatch_responses_total"}
    assert seen == {"shop", "help", "other"}  # the first two apps, then "other"
    s = _samples(m)
    rows = {(d["app"], d["tenant"], d["retriever"]): v for (name, pairs), v in s.items()
            if name == "groundwatch_claims_total" and (d := dict(pairs))["verdict"] == "SUPPORTED"
            and d["severity"] == "high" and v}
    assert rows == {("shop", "acme", "bm25"): 2, ("help", "other", "other"): 1, ("other", "none", "hybrid"): 1,
                    ("other", "acme", "bm25"): 1}


def test_allow_listed_apps_and_the_running_version_start_at_zero():
    from groundwatch.export.metric_labels import LabelPolicy

    m = Metrics(labels=LabelPolicy(apps=("shop", "help")))
    m.start_version_at_zero("0.1.0+abc")
    m.scored([verdict([claim(0, Verdict.SUPPORTED)], metadata={"app": "unlisted"})])
    apps = {dict(pairs)["app"] for (name, pairs) in _samples(m) if name == "groundwatch_responses_total"}
    assert apps == {"shop", "help", "other"}
