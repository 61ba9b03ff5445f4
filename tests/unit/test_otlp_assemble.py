"""Spans of a trace -> responses (consumer/otlp/assemble.py) in both conventions, and verdicts equal to
scoring the same responses sent as groundwatch.response.v1 JSON."""

from __future__ import annotations

import json

import pytest

from groundwatch import Checker, InvalidResponse
from groundwatch.cli import main
from groundwatch.config.traces import TraceSettings
from groundwatch.consumer.otlp.assemble import assemble
from groundwatch.consumer.otlp.decode import decode_request
from tests.otlp_apps import App, Doc, genai_app, openinference_app, otlp_json, otlp_proto

REFUND = Doc("kb-1", "Refunds are available within 30 days of purchase.", 0.82, {"title": "Refunds", "page": 3})
SHIPPING = Doc("kb-2", "Orders ship within 2 business days from our warehouse in Leeds.", 0.41)
HOLIDAYS = Doc("kb-3", "Our offices are closed on public holidays.", 0.12)


def _responses(app: App, settings: TraceSettings = TraceSettings(), encoding: str = "otlp_proto"):
    value = (otlp_proto if encoding == "otlp_proto" else otlp_json)(app.finished())
    return [r for _, r in assemble(decode_request(value, encoding, settings), settings)]


@pytest.mark.parametrize("encoding", ["otlp_proto", "otlp_json"])
def test_an_openinference_trace_becomes_the_response_it_answered(encoding):
    app = App("help-desk")
    openinference_app(app, "How long is the refund window?", "You can get a refund within 30 days.",
                      [REFUND, SHIPPING, HOLIDAYS], model="gpt-4o-mini", session="sess-9")
    [response] = _responses(app, encoding=encoding)
    answer = next(s for s in app.finished() if s.name == "answer")
    trace_id, span_id = format(answer.context.trace_id, "032x"), format(answer.context.span_id, "016x")
    assert response.request_id == f"{trace_id}-{span_id}"
    assert response.question == "How long is the refund window?"
    assert response.answer == "You can get a refund within 30 days."
    assert [(p.id, p.text, p.score) for p in response.passages] == [(d.id, d.text, d.score)
                                                                    for d in (REFUND, SHIPPING, HOLIDAYS)]
    assert response.passages[0].metadata == {"title": "Refunds", "page": 3} and response.passages[0].title == "Refunds"
    meta = response.metadata.model_dump()
    assert meta["app"] == "help-desk" and meta["model"] == "gpt-4o-mini" and meta["session_id"] == "sess-9"
    assert (meta["trace_id"], meta["span_id"]) == (trace_id, span_id)
    assert response.timestamp.timestamp() == pytest.approx(answer.end_time / 1e9)


def test_the_reranker_output_is_what_the_model_saw():
    app = App("help-desk")
    openinference_app(app, "How long is the refund window?", "Within 30 days.", [HOLIDAYS, SHIPPING, REFUND],
                      reranked=[Doc(REFUND.id, REFUND.text, 0.97), Doc(SHIPPING.id, SHIPPING.text, 0.2)])
    [response] = _responses(app)
    assert [(p.id, p.score) for p in response.passages] == [("kb-1", 0.97), ("kb-2", 0.2)]


def test_only_answers_after_a_retrieval_count():
    app = App("agent")
    # a query rewrite before the retrieval and a tool-call turn after it are not answers
    openinference_app(app, "refund window?", "Refunds are possible within 30 days.", [REFUND],
                      rewrite="How long is the refund window?", tool_call_first=True)
    [response] = _responses(app)
    assert response.answer == "Refunds are possible within 30 days."
    assert response.question == "How long is the refund window?"  # the query the retrieval ran

    app = App("no-rag")  # an LLM call with nothing retrieved before it: nothing to check it against
    with app.tracer.start_as_current_span("answer", attributes={"openinference.span.kind": "LLM",
                                                                "output.value": "Hello!"}):
        pass
    assert _responses(app) == []


def test_the_setting_picks_every_answer_or_the_last():
    app = App("agent")
    with app.tracer.start_as_current_span("agent"):
        openinference_app(app, "How long is the refund window?", "Within 30 days.", [REFUND])
        with app.tracer.start_as_current_span("final", attributes={
                "openinference.span.kind": "LLM", "llm.output_messages.0.message.role": "assistant",
                "llm.output_messages.0.message.content": "Refunds: 30 days from purchase."}):
            pass
    every = _responses(app)
    assert [r.answer for r in every] == ["Within 30 days.", "Refunds: 30 days from purchase."]
    assert all([p.id for p in r.passages] == ["kb-1"] for r in every)
    [last] = _responses(app, TraceSettings(answers="last"))
    assert last.answer == "Refunds: 30 days from purchase."


@pytest.mark.parametrize("encoding", ["otlp_proto", "otlp_json"])
def test_a_genai_trace_becomes_the_same_response(encoding):
    app = App("help-desk")
    genai_app(app, "Where do orders ship from?", "Orders ship from Leeds.", [SHIPPING, HOLIDAYS], model="gpt-4o",
              conversation="conv-1")
    [response] = _responses(app, encoding=encoding)
    assert response.question == "Where do orders ship from?" and response.answer == "Orders ship from Leeds."
    assert [(p.id, p.text, p.score) for p in response.passages] == [(d.id, d.text, d.score)
                                                                    for d in (SHIPPING, HOLIDAYS)]
    assert response.metadata.model == "gpt-4o" and response.metadata.model_dump()["session_id"] == "conv-1"


def test_a_trace_over_the_span_limit_is_refused_whole():
    app = App("help-desk")
    openinference_app(app, "q?", "An answer.", [REFUND])
    [error] = [r for _, r in assemble(decode_request(otlp_proto(app.finished()), "otlp_proto"),
                                      TraceSettings(max_spans_per_trace=2))]
    assert isinstance(error, InvalidResponse) and error.reason == "too_many_spans"


# -- verdicts -------------------------------------------------------------------------------------

def _v1(response) -> dict:
    return json.loads(response.model_dump_json(exclude_none=True))


def _without_time(record: dict) -> dict:
    return {k: v for k, v in record.items() if k != "scored_at"}


@pytest.fixture(scope="module")
def checker():
    with Checker(backend="fake", use_embeddings=False) as c:
        yield c


def _mixed_app() -> App:
    app = App("help-desk")
    openinference_app(app, "How long is the refund window?", f"{REFUND.text} Refunds are paid in cash.",
                      [REFUND, SHIPPING], reranked=[REFUND])
    genai_app(app, "Where do orders ship from?", SHIPPING.text, [SHIPPING, HOLIDAYS])
    return app


def test_verdicts_of_a_trace_equal_those_of_the_same_json_responses(checker):
    app = _mixed_app()
    from_trace = checker.check_spans(app.finished())
    responses = _responses(app)
    from_json = checker.check_many([_v1(r) for r in responses])
    assert len(from_trace) == 2
    assert [_without_time(r.to_dict()) for r in from_trace] == [_without_time(r.to_dict()) for r in from_json]
    assert {c.verdict for r in from_trace for c in r.claims} == {"SUPPORTED", "NOT_ENOUGH_INFO"}


def test_the_score_command_reads_collector_files_as_it_reads_json(checker, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("GROUNDWATCH_SCORER__BACKEND", "fake")
    monkeypatch.setenv("GROUNDWATCH_SCORER__USE_EMBEDDINGS", "false")
    spans = _mixed_app().finished()
    traces = tmp_path / "traces.json"
    traces.write_bytes(otlp_json(spans[:2]) + b"\n" + otlp_json(spans[2:]) + b"\n")  # a trace over two lines
    records = tmp_path / "responses.jsonl"
    records.write_text("".join(json.dumps(_v1(r)) + "\n" for _, r in assemble(
        decode_request(otlp_proto(spans), "otlp_proto"))))
    assert main(["score", "--format", "otlp_json", "-i", str(traces), "-o", str(tmp_path / "a.jsonl")]) == 0
    assert main(["score", "-i", str(records), "-o", str(tmp_path / "b.jsonl")]) == 0
    read = [[_without_time(json.loads(line)) for line in (tmp_path / name).read_text().splitlines()]
            for name in ("a.jsonl", "b.jsonl")]
    assert read[0] == read[1] and len(read[0]) == 2


def test_documents_without_text_are_scored_as_far_as_they_can_be_and_flagged(checker):
    app = App("help-desk")
    genai_app(app, "Where do orders ship from?", SHIPPING.text,
              [Doc(SHIPPING.id, None, 0.9), Doc(HOLIDAYS.id, None, 0.3)])  # ids and scores only
    genai_app(app, "Where do orders ship from?", SHIPPING.text,
              [Doc(SHIPPING.id, SHIPPING.text, 0.9), Doc(HOLIDAYS.id, None, 0.3)])
    none_text, some_text = checker.check_spans(app.finished())
    record = none_text.to_dict()
    assert record["metadata"]["passages_without_text"] == ["kb-2", "kb-3"] and record["passage_ids"] == []
    assert "passage_text_missing" in none_text.flags
    assert {c.verdict for c in none_text.claims} == {"NOT_ENOUGH_INFO"}  # never a silent SUPPORTED
    record = some_text.to_dict()
    assert record["metadata"]["passages_without_text"] == ["kb-3"] and record["passage_ids"] == ["kb-2"]
    assert "passage_text_missing" in some_text.flags and {c.verdict for c in some_text.claims} == {"SUPPORTED"}


def test_unreadable_spans_raise_or_stand_in_their_place(checker):
    with pytest.raises(InvalidResponse, match="export request 0"):
        checker.check_spans([b"\xff\xff\xff"])
    app = App("help-desk")
    openinference_app(app, "How long is the refund window?", "Within 30 days.", [REFUND])
    bad, good = checker.check_spans([b"\xff\xff\xff", *app.finished()], return_exceptions=True)
    assert isinstance(bad, InvalidResponse) and bad.reason == "not_protobuf" and good.claims[0].text == "Within 30 days."
    with pytest.raises(TypeError, match="expected OpenTelemetry SDK spans"):
        checker.check_spans(["not a span"])
