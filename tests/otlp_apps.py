"""Two instrumented RAG apps for the trace tests, traced by the real OpenTelemetry SDK.

`openinference_app` names its spans and attributes as the OpenInference convention does (the
names come from openinference-semantic-conventions); `genai_app` as the OpenTelemetry GenAI
convention does. Both export to an in-memory exporter; `otlp_proto` / `otlp_json` encode the
finished spans as `groundwatch produce --as-traces` does (the SDK's own OTLP encoder), OTLP/JSON as the Collector marshals it
(hex trace and span ids, 64-bit integers as strings, enums as integers).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from openinference.semconv.trace import (DocumentAttributes, MessageAttributes, OpenInferenceSpanKindValues,
                                         RerankerAttributes, SpanAttributes)
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from groundwatch.tools.as_traces import export_request


@dataclass
class Doc:
    id: str
    text: str | None
    score: float = 0.5
    metadata: dict = field(default_factory=dict)


class App:
    """A traced app: `tracer` for its spans, `finished()` for what the exporter received."""

    def __init__(self, service: str):
        self.exporter = InMemorySpanExporter()
        provider = TracerProvider(resource=Resource.create({"service.name": service}))
        provider.add_span_processor(SimpleSpanProcessor(self.exporter))
        self.tracer = provider.get_tracer("groundwatch-tests")

    def finished(self) -> list:
        return list(self.exporter.get_finished_spans())


def _documents(prefix: str, docs: list[Doc]) -> dict:
    out = {}
    for i, d in enumerate(docs):
        base = f"{prefix}.{i}."
        out[base + DocumentAttributes.DOCUMENT_ID] = d.id
        if d.text is not None:
            out[base + DocumentAttributes.DOCUMENT_CONTENT] = d.text
        out[base + DocumentAttributes.DOCUMENT_SCORE] = d.score
        if d.metadata:
            out[base + DocumentAttributes.DOCUMENT_METADATA] = json.dumps(d.metadata)
    return out


def openinference_app(app: App, question: str, answer: str, docs: list[Doc], *, reranked: list[Doc] | None = None,
                      rewrite: str | None = None, model: str = "gpt-test", session: str | None = "s-1",
                      tool_call_first: bool = False) -> None:
    """One request: [query rewrite] -> retriever -> [reranker] -> [a tool-call LLM turn] -> LLM answer."""
    kind = SpanAttributes.OPENINFERENCE_SPAN_KIND
    with app.tracer.start_as_current_span("rag", attributes={kind: OpenInferenceSpanKindValues.CHAIN.value,
                                                             SpanAttributes.INPUT_VALUE: question,
                                                             **({SpanAttributes.SESSION_ID: session} if session else {})}):
        query = question
        if rewrite is not None:
            with app.tracer.start_as_current_span("rewrite", attributes={
                    kind: OpenInferenceSpanKindValues.LLM.value, SpanAttributes.LLM_MODEL_NAME: model,
                    f"{SpanAttributes.LLM_OUTPUT_MESSAGES}.0.{MessageAttributes.MESSAGE_ROLE}": "assistant",
                    f"{SpanAttributes.LLM_OUTPUT_MESSAGES}.0.{MessageAttributes.MESSAGE_CONTENT}": rewrite}):
                query = rewrite
        with app.tracer.start_as_current_span("retrieve", attributes={
                kind: OpenInferenceSpanKindValues.RETRIEVER.value, SpanAttributes.INPUT_VALUE: query,
                **_documents(SpanAttributes.RETRIEVAL_DOCUMENTS, docs)}):
            pass
        if reranked is not None:
            with app.tracer.start_as_current_span("rerank", attributes={
                    kind: OpenInferenceSpanKindValues.RERANKER.value, RerankerAttributes.RERANKER_QUERY: query,
                    **_documents(RerankerAttributes.RERANKER_INPUT_DOCUMENTS, docs),
                    **_documents(RerankerAttributes.RERANKER_OUTPUT_DOCUMENTS, reranked)}):
                pass
        if tool_call_first:  # an agent turn that calls a tool: no text answer
            with app.tracer.start_as_current_span("plan", attributes={
                    kind: OpenInferenceSpanKindValues.LLM.value, SpanAttributes.LLM_MODEL_NAME: model,
                    f"{SpanAttributes.LLM_OUTPUT_MESSAGES}.0.{MessageAttributes.MESSAGE_ROLE}": "assistant",
                    f"{SpanAttributes.LLM_OUTPUT_MESSAGES}.0.{MessageAttributes.MESSAGE_TOOL_CALLS}.0."
                    "tool_call.function.name": "lookup"}):
                pass
        with app.tracer.start_as_current_span("answer", attributes={
                kind: OpenInferenceSpanKindValues.LLM.value, SpanAttributes.LLM_MODEL_NAME: model,
                f"{SpanAttributes.LLM_INPUT_MESSAGES}.0.{MessageAttributes.MESSAGE_ROLE}": "user",
                f"{SpanAttributes.LLM_INPUT_MESSAGES}.0.{MessageAttributes.MESSAGE_CONTENT}": question,
                f"{SpanAttributes.LLM_OUTPUT_MESSAGES}.0.{MessageAttributes.MESSAGE_ROLE}": "assistant",
                f"{SpanAttributes.LLM_OUTPUT_MESSAGES}.0.{MessageAttributes.MESSAGE_CONTENT}": answer,
                SpanAttributes.OUTPUT_VALUE: answer}):
            pass


def genai_app(app: App, question: str, answer: str, docs: list[Doc], *, model: str = "gpt-test",
              conversation: str | None = "c-1") -> None:
    """One request in the GenAI convention: retrieval span, then a chat span (documents as a JSON string)."""
    with app.tracer.start_as_current_span("invoke_agent rag", attributes={
            "gen_ai.operation.name": "invoke_agent",
            **({"gen_ai.conversation.id": conversation} if conversation else {})}):
        documents = [{"id": d.id, "score": d.score, **({"content": d.text} if d.text is not None else {})}
                     for d in docs]
        with app.tracer.start_as_current_span("retrieval kb", attributes={
                "gen_ai.operation.name": "retrieval", "gen_ai.retrieval.query.text": question,
                "gen_ai.retrieval.documents": json.dumps(documents)}):
            pass
        with app.tracer.start_as_current_span(f"chat {model}", attributes={
                "gen_ai.operation.name": "chat", "gen_ai.request.model": model,
                "gen_ai.input.messages": json.dumps([{"role": "user", "parts": [{"type": "text", "content": question}]}]),
                "gen_ai.output.messages": json.dumps([{"role": "assistant", "finish_reason": "stop",
                                                       "parts": [{"type": "text", "content": answer}]}])}):
            pass


def otlp_proto(spans) -> bytes:
    """One ExportTraceServiceRequest, as the SDK's OTLP exporters and the Collector's otlp_proto encoding send it."""
    return export_request(list(spans), "otlp_proto")


def otlp_json(spans) -> bytes:
    """The same request in OTLP/JSON as the Collector marshals it: hex ids, enums as integers, int64 as strings."""
    return export_request(list(spans), "otlp_json")


ENCODERS = {"otlp_proto": otlp_proto, "otlp_json": otlp_json}


def rag_traces(n: int, tag: str = "kb") -> list[list]:
    """n traces, alternating between the two conventions, as lists of finished SDK spans."""
    out = []
    for i in range(n):
        app = App("shop-assistant")
        docs = [Doc(f"{tag}-{i}-a", f"Refunds are accepted within {30 + i % 5} days of delivery.", 0.9),
                Doc(f"{tag}-{i}-b", "Shipping is free for orders over $50 in the EU.", 0.4)]
        answer = f"Refunds are accepted within {30 + i % 5} days of delivery. Shipping costs $9 everywhere."
        (genai_app if i % 2 else openinference_app)(app, f"What is the refund window for order {i}?", answer, docs)
        out.append(app.finished())
    return out


def split_messages(traces: list[list], encode, rng) -> list[tuple[int, bytes]]:
    """(partition, export request) as the Collector's exporter writes them without partition_traces_by_id:
    children in partition 0 (five spans a request), roots in partition 1 (three a request), requests
    shuffled, so a trace's spans are split over messages and partitions and a root may come first."""
    children = [s for t in traces for s in t if s.parent is not None]
    roots = [s for t in traces for s in t if s.parent is None]
    out = [(0, encode(children[i:i + 5])) for i in range(0, len(children), 5)]
    out += [(1, encode(roots[i:i + 3])) for i in range(0, len(roots), 3)]
    rng.shuffle(out)
    return out


def json_path_verdicts(traces: list[list], scorer) -> dict[str, list[str]]:
    """request id -> claim verdicts, scoring the responses these traces hold sent as groundwatch.response.v1 JSON."""
    from groundwatch.consumer.otlp.assemble import assemble
    from groundwatch.consumer.otlp.decode import decode_request
    from groundwatch.scorers.schema import parse_response

    responses = [r for _, r in assemble(decode_request(otlp_proto([s for t in traces for s in t]), "otlp_proto"))]
    as_json = [parse_response(json.loads(r.model_dump_json(exclude_none=True))) for r in responses]
    return {v.request_id: [c.verdict.value for c in v.claims] for v in scorer.score(as_json)}
