"""What the trace sinks write for a verdict: the judged span, one label, a text-free explanation;
responses not read from spans are left out; the sinks are built only when enabled."""

from __future__ import annotations

import pytest
from pydantic import SecretStr

from groundwatch.config.scorer import ScorerConfig
from groundwatch.config.settings import Settings
from groundwatch.consumer.otlp.assemble import assemble
from groundwatch.consumer.otlp.decode import decode_request
from groundwatch.export.otlp_sink import parse_headers, span_id_for, verdict_span
from groundwatch.export.trace_sinks import trace_sinks
from groundwatch.export.trace_verdict import judged_span, response_label, trace_verdict
from groundwatch.scorers.pipeline import Scorer
from groundwatch.scorers.schema import parse_response
from tests.otlp_apps import App, Doc, openinference_app, otlp_proto

PASSAGE = "Refunds are accepted within 30 days of delivery."
UNSUPPORTED = "Every customer also gets a lifetime warranty on all phones."


@pytest.fixture(scope="module")
def verdicts():
    spans = []
    for i, answer in enumerate([PASSAGE, f"{PASSAGE} {UNSUPPORTED}"]):
        app = App("shop")
        openinference_app(app, "What is the refund window?", answer, [Doc(f"kb-{i}", PASSAGE, 0.9)])
        spans += app.finished()
    responses = [r for _, r in assemble(decode_request(otlp_proto(spans), "otlp_proto"))]
    scorer = Scorer.from_config(ScorerConfig(backend="fake", use_embeddings=False))
    try:
        yield scorer.score(responses)
    finally:
        scorer.close()


def test_the_judged_span_comes_from_the_trace_ids_the_response_kept(verdicts):
    for verdict in verdicts:
        trace_id, span_id = judged_span(verdict)
        assert verdict.request_id == f"{trace_id}-{span_id}"


def test_labels_and_explanations_name_claims_and_evidence_never_text(verdicts):
    supported, mixed = (trace_verdict(v) for v in verdicts)
    assert supported.label == "SUPPORTED" and mixed.label != "SUPPORTED"
    assert mixed.label == response_label(verdicts[1])
    assert "1 of 2 claims supported" in mixed.explanation and "claim 1" in mixed.explanation
    for text in (PASSAGE, UNSUPPORTED, "refund window", "warranty"):
        assert text not in mixed.explanation


def test_a_response_not_read_from_spans_has_no_judged_span():
    scorer = Scorer.from_config(ScorerConfig(backend="fake", use_embeddings=False))
    try:
        (verdict,) = scorer.score([parse_response({"request_id": "r1", "answer": PASSAGE,
                                                   "passages": [{"id": "p", "text": PASSAGE}]})])
    finally:
        scorer.close()
    assert judged_span(verdict) is None and trace_verdict(verdict) is None


def test_the_verdict_span_is_a_child_of_the_judged_span_with_a_stable_id(verdicts):
    from opentelemetry.sdk.resources import Resource

    tv = trace_verdict(verdicts[1])
    span = verdict_span(tv, 1_000, Resource({"service.name": "groundwatch"}))
    assert format(span.parent.span_id, "016x") == tv.span_id and span.parent.is_remote
    assert format(span.context.trace_id, "032x") == tv.trace_id
    assert span.context.span_id == span_id_for(tv.doc_id) == span_id_for(verdicts[1].doc_id)
    assert span.attributes["evaluation.label"] == tv.label
    assert [e.name for e in span.events] == ["gen_ai.evaluation.result"]


def test_headers_parse_or_fail_in_one_line():
    assert parse_headers(SecretStr("authorization=Bearer x, api_key=y")) == {"authorization": "Bearer x",
                                                                             "api_key": "y"}
    assert parse_headers(None) is None
    with pytest.raises(ValueError, match="otlp_verdicts.headers"):
        parse_headers(SecretStr("no-equals-sign"))


def test_the_sinks_are_built_only_when_enabled():
    assert trace_sinks(Settings()) == []
    settings = Settings(otlp_verdicts={"enabled": True}, phoenix={"enabled": True, "url": "http://127.0.0.1:1"})
    built = trace_sinks(settings)
    try:
        assert [s.name for s in built] == ["otlp", "phoenix"]
    finally:
        for sink in built:
            sink.close()


def test_an_unreachable_otlp_endpoint_leaves_the_batch_pending(verdicts):
    import socket

    from groundwatch.config.verdict_sinks import OtlpVerdictSettings
    from groundwatch.export.base import SinkUnavailable
    from groundwatch.export.otlp_sink import OtlpVerdictSink

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    sink = OtlpVerdictSink(OtlpVerdictSettings(enabled=True, endpoint=f"http://127.0.0.1:{port}/v1/traces",
                                               timeout_s=1.0))
    try:
        with pytest.raises(SinkUnavailable):
            sink.write(verdicts)
    finally:
        sink.close()
    assert sink.sent == 0


def test_a_missing_otlp_extra_is_named_in_one_line(monkeypatch):
    from groundwatch.config import extras

    # a dotted name whose parent package is absent counts as missing (find_spec would raise)
    monkeypatch.setitem(extras.EXTRAS, "otlp", ("opentelemetry.sdk", "no_such_package.http"))
    assert extras.missing("otlp") == ["no_such_package.http"]
    with pytest.raises(extras.MissingExtra, match=r"pip install 'groundwatch\[otlp\]'"):
        trace_sinks(Settings(otlp_verdicts={"enabled": True}))
