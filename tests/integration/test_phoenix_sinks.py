"""Verdicts back into the traces, against a real Arize Phoenix: the app's spans reach Phoenix over
OTLP/HTTP, groundwatch scores the same spans, then annotates each judged span (exactly one
annotation, the right label, none added by a replay) and sends a verdict span parented to it;
verdicts pending in the consumer while Phoenix is down land once it is back. One Phoenix serves
the module."""

from __future__ import annotations

import time

import httpx
import pytest
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.trace.export import SpanExportResult

from groundwatch.config.scorer import ScorerConfig
from groundwatch.config.verdict_sinks import EVALUATION_NAME, OtlpVerdictSettings, PhoenixSettings
from groundwatch.consumer.otlp.assemble import assemble
from groundwatch.consumer.otlp.decode import decode_request
from groundwatch.export.otlp_sink import OtlpVerdictSink, span_id_for
from groundwatch.export.phoenix_sink import PhoenixAnnotationSink
from groundwatch.export.trace_verdict import judged_span, response_label
from groundwatch.scorers.nli.factory import DEFAULT_MODEL_DIR
from groundwatch.scorers.pipeline import Scorer
from tests.integration.consumer_support import (
    Names, RunningConsumer, committed, count_under, create_topics, produce, settings_for, wait_until,
)
from tests.integration.phoenix_server import Phoenix, free_port
from tests.otlp_apps import App, Doc, genai_app, openinference_app, otlp_proto

pytestmark = pytest.mark.integration

PROJECT = "default"  # the app's spans carry no project name: Phoenix files them under its default project


@pytest.fixture(scope="module")
def phoenix(tmp_path_factory):
    server = Phoenix(tmp_path_factory.mktemp("phoenix"), free_port(), free_port()).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def scorer():
    scorer = Scorer.from_config(ScorerConfig(backend="fake", use_embeddings=False))
    yield scorer
    scorer.close()


def _traced_app(n: int, tag: str) -> list:
    """n traces from the real SDK, half in each convention; some answers add an unsupported sentence."""
    spans = []
    for i in range(n):
        app = App("shop-assistant")
        docs = [Doc(f"{tag}-{i}-a", f"Refunds are accepted within {30 + i} days of delivery.", 0.9),
                Doc(f"{tag}-{i}-b", "Shipping is free for orders over $50 in the EU.", 0.4)]
        answer = f"Refunds are accepted within {30 + i} days of delivery."
        if i % 3 == 0:
            answer += " Every customer also gets a lifetime warranty on all phones."
        (genai_app if i % 2 else openinference_app)(app, f"What is the refund window for order {i}?", answer, docs)
        spans += app.finished()
    return spans


def _send_to_phoenix(phoenix: Phoenix, spans: list) -> None:
    exporter = OTLPSpanExporter(endpoint=f"{phoenix.url}/v1/traces", timeout=10)
    assert exporter.export(spans) is SpanExportResult.SUCCESS
    exporter.shutdown()


def _verdicts(scorer, spans: list) -> list:
    responses = [r for _, r in assemble(decode_request(otlp_proto(spans), "otlp_proto"))]
    return scorer.score(responses)


def _spans_in_phoenix(phoenix: Phoenix, **query) -> list[dict]:
    answer = httpx.get(f"{phoenix.url}/v1/projects/{PROJECT}/spans", params={"limit": 1000, **query}, timeout=10)
    answer.raise_for_status()
    return answer.json()["data"]


def _annotations(phoenix: Phoenix, span_ids: list[str]) -> list[dict]:
    answer = httpx.get(f"{phoenix.url}/v1/projects/{PROJECT}/span_annotations",
                       params={"span_ids": span_ids, "limit": 1000}, timeout=10)
    answer.raise_for_status()
    return [a for a in answer.json()["data"] if a["name"] == EVALUATION_NAME]


def _judged_ids(verdicts) -> list[str]:
    return [judged_span(v)[1] for v in verdicts]


def _wait_for_app_spans(phoenix: Phoenix, spans: list) -> None:
    ids = {format(s.context.span_id, "016x") for s in spans}
    wait_until(lambda: ids <= {s["context"]["span_id"] for s in _spans_in_phoenix(phoenix)}, 30,
               "the app's spans in Phoenix")


def test_every_judged_span_gets_one_annotation_with_its_label_and_a_replay_adds_none(phoenix, scorer):
    spans = _traced_app(12, "ann")
    _send_to_phoenix(phoenix, spans)
    _wait_for_app_spans(phoenix, spans)
    verdicts = _verdicts(scorer, spans)
    assert len(verdicts) == 12
    sink = PhoenixAnnotationSink(PhoenixSettings(enabled=True, url=phoenix.url))
    try:
        sink.write(verdicts)
        sink.write(verdicts)  # a replay after a crash before the commit
    finally:
        sink.close()
    annotations = _annotations(phoenix, _judged_ids(verdicts))
    by_span = {}
    for a in annotations:
        by_span.setdefault(a["span_id"], []).append(a)
    assert sorted(by_span) == sorted(_judged_ids(verdicts))
    labels = set()
    for verdict in verdicts:
        (only,) = by_span[judged_span(verdict)[1]]  # exactly one per judged span
        assert only["result"]["label"] == response_label(verdict)
        assert only["result"]["score"] == pytest.approx(verdict.response.score, abs=1e-6)
        assert only["annotator_kind"] == "CODE" and only["metadata"]["doc_id"] == verdict.doc_id
        assert "Refunds" not in only["result"]["explanation"]  # no answer or passage text
        labels.add(only["result"]["label"])
    assert "SUPPORTED" in labels and len(labels) > 1  # the unsupported sentences were told apart


def test_verdict_spans_are_children_of_the_judged_spans(phoenix, scorer):
    spans = _traced_app(6, "otlp")
    _send_to_phoenix(phoenix, spans)
    verdicts = _verdicts(scorer, spans)
    sink = OtlpVerdictSink(OtlpVerdictSettings(enabled=True, endpoint=f"{phoenix.url}/v1/traces"))
    try:
        sink.write(verdicts)
        sink.write(verdicts)  # replayed: the same span ids, so still one verdict span each
    finally:
        sink.close()
    expected = {format(span_id_for(v.doc_id), "016x"): (judged_span(v), v) for v in verdicts}

    def arrived() -> list[dict]:
        return [s for s in _spans_in_phoenix(phoenix, name=EVALUATION_NAME) if s["context"]["span_id"] in expected]

    wait_until(lambda: len(arrived()) >= len(expected), 30, "the verdict spans in Phoenix")
    found = arrived()
    assert len(found) == len(expected)
    for span in found:
        (trace_id, parent_id), verdict = expected[span["context"]["span_id"]]
        assert span["context"]["trace_id"] == trace_id
        assert span["parent_id"] == parent_id
        assert span["attributes"]["evaluation.label"] == response_label(verdict)
        (event,) = [e for e in span["events"] if e["name"] == "gen_ai.evaluation.result"]
        assert event["attributes"]["gen_ai.evaluation.score.label"] == response_label(verdict)


def test_verdicts_pending_during_an_outage_land_when_phoenix_returns(phoenix, scorer, kafka_bootstrap,
                                                                    opensearch_url):
    """Through the real consumer: while Phoenix is down the verdicts are stored but the offsets stay
    put; once it is back every judged span gets its annotation and the offsets move."""
    spans = _traced_app(4, "outage")
    _send_to_phoenix(phoenix, spans)
    _wait_for_app_spans(phoenix, spans)
    judged = _judged_ids(_verdicts(scorer, spans))
    names = Names.fresh("phoenix-outage")
    create_topics(kafka_bootstrap, names, partitions=1)
    traces: dict[int, list] = {}
    for span in spans:
        traces.setdefault(span.context.trace_id, []).append(span)
    produce(kafka_bootstrap, names.topic, [otlp_proto(t) for t in traces.values()])
    base = settings_for(kafka_bootstrap, opensearch_url, names, DEFAULT_MODEL_DIR, scorer={"backend": "fake"})
    settings = base.model_copy(update={
        "kafka": base.kafka.model_copy(update={"input_format": "otlp_proto"}),
        "traces": base.traces.model_copy(update={"release_wait_s": 1.0}),
        "phoenix": PhoenixSettings(enabled=True, url=phoenix.url, timeout_s=2.0)})
    phoenix.stop()
    running = RunningConsumer.start(settings)
    try:
        wait_until(lambda: count_under(opensearch_url, names.alias) == len(judged), 60, "the verdicts stored")
        time.sleep(3.0)  # several retries against the stopped Phoenix
        assert committed(kafka_bootstrap, names) == {0: 0}  # pending: nothing committed
        phoenix.start()  # same working directory: the app's spans are still there
        wait_until(lambda: committed(kafka_bootstrap, names) == {0: len(traces)}, 60, "offsets committed")
    finally:
        assert running.stop() == 0
    annotations = _annotations(phoenix, judged)
    assert sorted(a["span_id"] for a in annotations) == sorted(judged)  # one each, none lost


def test_a_span_phoenix_does_not_hold_is_skipped_and_the_rest_annotated(phoenix, scorer):
    spans = _traced_app(3, "missing")
    known = [s for s in spans if format(s.context.trace_id, "032x") != format(spans[0].context.trace_id, "032x")]
    _send_to_phoenix(phoenix, known)  # the first trace never reaches this Phoenix
    _wait_for_app_spans(phoenix, known)
    verdicts = _verdicts(scorer, spans)
    counted = []
    sink = PhoenixAnnotationSink(PhoenixSettings(enabled=True, url=phoenix.url), on_missing=counted.append)
    try:
        sink.write(verdicts)
    finally:
        sink.close()
    assert (sink.sent, sink.missing_spans, counted) == (2, 1, [1])
    held = {format(s.context.span_id, "016x") for s in known}
    annotated = sorted(a["span_id"] for a in _annotations(phoenix, _judged_ids(verdicts)))
    assert annotated == sorted(i for i in _judged_ids(verdicts) if i in held)
