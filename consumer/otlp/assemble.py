"""The spans of a trace -> the responses it holds, as groundwatch.response.v1 records.

Which answers are checked (the `traces.answers` setting): every LLM span with a text answer that
starts after a retrieval or reranker span of the same trace has ended (after_retrieval), or only
the last of them (last). Each is checked against the passages of the latest retrieval that ended
before it: a reranker's output when that came last, else the retriever's documents, in order.
A query-rewriting call before the retrieval, and a call that answered with a tool call, are not
answers. The record goes through parse_response under the scorer's record limits, exactly as a
groundwatch.response.v1 message would, so a trace scores as the same response sent as JSON.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Iterable

from groundwatch.config.traces import TraceSettings
from groundwatch.consumer.otlp import genai, openinference
from groundwatch.consumer.otlp.missing_text import fill_missing_text
from groundwatch.consumer.otlp.spans import SpanRecord
from groundwatch.consumer.otlp.steps import Generation, Retrieval
from groundwatch.scorers.errors import InvalidResponse
from groundwatch.scorers.schema import RecordLimits, Response, parse_response

Assembled = tuple[str, "Response | InvalidResponse"]  # where (trace and span ids), the response or why not


def request_id(trace_id: str, span_id: str) -> str:
    """A response's request id: its trace id and the id of the span that gave the answer."""
    return f"{trace_id}-{span_id}"


def group_by_trace(spans: Iterable[SpanRecord]) -> dict[str, list[SpanRecord]]:
    traces: dict[str, list[SpanRecord]] = {}
    for span in spans:
        traces.setdefault(span.trace_id, []).append(span)
    return traces


def assemble(spans: Iterable[SpanRecord], settings: TraceSettings = TraceSettings(),
             limits: RecordLimits = RecordLimits(), store=None) -> list[Assembled]:
    """Every response of every trace among `spans`, trace by trace in order of first appearance."""
    out: list[Assembled] = []
    for trace_id, trace in group_by_trace(spans).items():
        if len(trace) > settings.max_spans_per_trace:
            out.append((f"trace {trace_id}", InvalidResponse(
                f"trace holds {len(trace)} spans, over the limit of {settings.max_spans_per_trace}", "<trace>",
                "too_many_spans")))
            continue
        out.extend(assemble_trace(trace, settings, limits, store))
    return out


def assemble_trace(trace: list[SpanRecord], settings: TraceSettings, limits: RecordLimits,
                   store=None) -> list[Assembled]:
    steps = [s for s in (openinference.read(span) or genai.read(span) for span in trace) if s is not None]
    steps.sort(key=lambda s: (s.span.start_ns, s.span.end_ns))
    retrievals = [s for s in steps if isinstance(s, Retrieval)]
    chosen = []
    for generation in (s for s in steps if isinstance(s, Generation) and s.answer is not None):
        before = [r for r in retrievals if r.span.end_ns <= generation.span.start_ns]
        if before:
            chosen.append((generation, max(before, key=lambda r: (r.span.end_ns, r.reranked))))
    if settings.answers == "last":
        chosen = sorted(chosen, key=lambda c: c[0].span.end_ns)[-1:]
    records = [_record(generation, retrieval, retrievals, trace) for generation, retrieval in chosen]
    fill_missing_text(records, store)
    out: list[Assembled] = []
    for record in records:
        where = f"trace {record['metadata']['trace_id']} span {record['metadata']['span_id']}"
        try:
            out.append((where, parse_response(record, limits=limits)))
        except InvalidResponse as exc:
            out.append((where, exc))
    return out


def _record(generation: Generation, retrieval: Retrieval, retrievals: list[Retrieval],
            trace: list[SpanRecord]) -> dict:
    span = generation.span
    metadata = {"app": span.service or next((s.service for s in trace if s.service), None),
                "model": generation.model, "session_id": _session(trace), "trace_id": span.trace_id,
                "span_id": span.span_id}
    record = {"request_id": request_id(span.trace_id, span.span_id),
              "timestamp": datetime.fromtimestamp(span.end_ns / 1e9, timezone.utc).isoformat() if span.end_ns else None,
              "question": _question(generation, retrieval, retrievals), "answer": generation.answer,
              "passages": [_passage(d, i) for i, d in enumerate(retrieval.documents, 1)],
              "metadata": {k: v for k, v in metadata.items() if v is not None}}
    return {k: v for k, v in record.items() if v is not None}


def _question(generation: Generation, retrieval: Retrieval, retrievals: list[Retrieval]) -> str | None:
    """The query the retrieval ran (a reranker without one: the retriever's before it), else the user's
    last message to the model."""
    if retrieval.query is not None:
        return retrieval.query
    earlier = [r for r in retrievals if r.query is not None and r.span.end_ns <= retrieval.span.start_ns]
    return earlier[-1].query if earlier else generation.user_message


def _passage(document, position: int) -> dict:
    passage = {"id": document.id or f"p{position}", "text": document.text, "score": document.score,
               "metadata": document.metadata}
    meta = document.metadata or {}
    for name in ("title", "updated_at"):  # the fields the scorer reads, when the metadata names them
        if isinstance(meta.get(name), str):
            passage[name] = meta[name]
    return {k: v for k, v in passage.items() if v is not None or k == "text"}


def _session(trace: list[SpanRecord]) -> str | None:
    for span in trace:
        for key in (openinference.SESSION, genai.SESSION):
            value = span.attributes.get(key)
            if isinstance(value, str) and value:
                return value
    return None
