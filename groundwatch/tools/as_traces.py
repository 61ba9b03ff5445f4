"""groundwatch.response.v1 records as the traces an instrumented RAG app writes (the demo's trace mode, the bench).

Each record becomes one trace made by the real OpenTelemetry SDK: a root span, a retrieval span
holding the passages and an LLM span holding the answer, named as the OpenInference convention
does or as the OpenTelemetry GenAI convention does. `export_request` encodes spans as the
Collector's Kafka exporter writes a message: one ExportTraceServiceRequest, `otlp_proto`, or
`otlp_json` as the Collector marshals it (hex trace and span ids, enums as integers, 64-bit
integers as strings). A trace carries the question, answer, passages (id, text, score; title,
updated_at and doc_id in the document metadata), app (service.name), model and session
(metadata.session_id); not citations, claims or gold ids. Needs the otlp extra (opentelemetry-sdk).
"""

from __future__ import annotations

import base64
import json

CONVENTIONS = ("openinference", "genai")
ENCODINGS = ("otlp_proto", "otlp_json")
PASSAGE_METADATA = ("title", "updated_at", "doc_id")  # passage fields that travel in the document metadata


class TraceWriter:
    """Writes records as traces; one tracer provider per app, spans kept in memory until taken."""

    def __init__(self):
        self._tracers: dict[str, object] = {}
        self._exporters: dict[str, object] = {}

    def trace(self, record: dict, convention: str) -> list:
        """The finished SDK spans of one request answering `record`, in `convention`."""
        if convention not in CONVENTIONS:
            raise ValueError(f"convention: expected one of {', '.join(CONVENTIONS)}, got {convention!r}")
        app = (record.get("metadata") or {}).get("app") or "rag-app"
        tracer = self._tracer(str(app))
        (_openinference if convention == "openinference" else _genai)(tracer, record)
        exporter = self._exporters[str(app)]
        spans = list(exporter.get_finished_spans())
        exporter.clear()
        return spans

    def _tracer(self, app: str):
        if app not in self._tracers:
            from opentelemetry.sdk.resources import Resource
            from opentelemetry.sdk.trace import TracerProvider
            from opentelemetry.sdk.trace.export import SimpleSpanProcessor
            from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

            exporter = InMemorySpanExporter()
            provider = TracerProvider(resource=Resource.create({"service.name": app}))
            provider.add_span_processor(SimpleSpanProcessor(exporter))
            self._tracers[app], self._exporters[app] = provider.get_tracer("groundwatch.as_traces"), exporter
        return self._tracers[app]


def export_request(spans: list, encoding: str) -> bytes:
    """One export request holding `spans`, as a Kafka message of the Collector's exporter."""
    from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans

    request = encode_spans(spans)
    if encoding == "otlp_proto":
        return request.SerializeToString()
    if encoding != "otlp_json":
        raise ValueError(f"encoding: expected one of {', '.join(ENCODINGS)}, got {encoding!r}")
    from google.protobuf import json_format

    body = json_format.MessageToDict(request, use_integers_for_enums=True)
    for resource_spans in body.get("resourceSpans", []):
        for scope_spans in resource_spans.get("scopeSpans", []):
            for span in scope_spans.get("spans", []):
                for name in ("traceId", "spanId", "parentSpanId"):
                    if name in span:
                        span[name] = base64.b64decode(span[name]).hex()
    return json.dumps(body, separators=(",", ":")).encode()


def trace_id_of(spans: list) -> str:
    return format(spans[0].context.trace_id, "032x")


def _documents(record: dict) -> list[dict]:
    out = []
    for i, p in enumerate(record.get("passages") or [], 1):
        meta = {**(p.get("metadata") or {}), **{k: p[k] for k in PASSAGE_METADATA if p.get(k) is not None}}
        out.append({"id": str(p.get("id") or f"p{i}"), "content": p.get("text"), "score": p.get("score"),
                    "metadata": meta})
    return out


def _openinference(tracer, record: dict) -> None:
    meta = record.get("metadata") or {}
    question, answer = record.get("question") or "", record["answer"]
    root = {"openinference.span.kind": "CHAIN", "input.value": question}
    if meta.get("session_id"):
        root["session.id"] = str(meta["session_id"])
    retrieval = {"openinference.span.kind": "RETRIEVER", "input.value": question}
    for i, d in enumerate(_documents(record)):
        prefix = f"retrieval.documents.{i}.document."
        retrieval[prefix + "id"] = d["id"]
        if d["content"] is not None:
            retrieval[prefix + "content"] = d["content"]
        if d["score"] is not None:
            retrieval[prefix + "score"] = float(d["score"])
        if d["metadata"]:
            retrieval[prefix + "metadata"] = json.dumps(d["metadata"])
    llm = {"openinference.span.kind": "LLM", "llm.input_messages.0.message.role": "user",
           "llm.input_messages.0.message.content": question, "llm.output_messages.0.message.role": "assistant",
           "llm.output_messages.0.message.content": answer, "output.value": answer}
    if meta.get("model"):
        llm["llm.model_name"] = str(meta["model"])
    with tracer.start_as_current_span("rag", attributes=root):
        with tracer.start_as_current_span("retrieve", attributes=retrieval):
            pass
        with tracer.start_as_current_span("llm", attributes=llm):
            pass


def _genai(tracer, record: dict) -> None:
    meta = record.get("metadata") or {}
    question, answer = record.get("question") or "", record["answer"]
    root = {"gen_ai.operation.name": "invoke_agent"}
    if meta.get("session_id"):
        root["gen_ai.conversation.id"] = str(meta["session_id"])
    documents = [{k: v for k, v in d.items() if v not in (None, {})} for d in _documents(record)]
    chat = {"gen_ai.operation.name": "chat",
            "gen_ai.input.messages": json.dumps([{"role": "user", "parts": [{"type": "text", "content": question}]}]),
            "gen_ai.output.messages": json.dumps([{"role": "assistant", "finish_reason": "stop",
                                                   "parts": [{"type": "text", "content": answer}]}])}
    if meta.get("model"):
        chat["gen_ai.request.model"] = str(meta["model"])
    with tracer.start_as_current_span("invoke_agent rag", attributes=root):
        with tracer.start_as_current_span("retrieval", attributes={
                "gen_ai.operation.name": "retrieval", "gen_ai.retrieval.query.text": question,
                "gen_ai.retrieval.documents": json.dumps(documents)}):
            pass
        with tracer.start_as_current_span(f"chat {meta.get('model') or 'model'}", attributes=chat):
            pass
