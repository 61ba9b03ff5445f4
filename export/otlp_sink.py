"""Verdicts as OTLP spans, each a child of the LLM span it judged (sent over OTLP/HTTP).

Per verdict one span `groundwatch.faithfulness` whose parent is the judged span (a remote span
context from the trace and span ids the response kept). It carries the OpenInference
`evaluation.*` attributes and one `gen_ai.evaluation.result` event (OTel GenAI conventions).
Idempotent: the span id is derived from the verdict's doc_id and its times from the verdict,
so a replay sends the same span again and the backend keeps one (span ids are unique per trace).
Verdicts of responses not read from spans are skipped.

Unreachable, timeouts, 429 and 5xx are transient (the exporter retries them within its timeout,
then the consumer retries the batch). A backend that refuses the export for good (400, 413, 422)
would refuse it on every retry: the spans are sent again one by one, and those it still refuses
are raised as refused documents, which the consumer dead-letters. The exporter itself only says
success or failure, so the status comes from a response hook on the requests session it is given.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timezone
from typing import Sequence

from groundwatch.config.verdict_sinks import EVALUATION_NAME, OtlpVerdictSettings
from groundwatch.export.base import PERMANENT_STATUSES, ItemFailure, SinkError, SinkUnavailable
from groundwatch.export.trace_verdict import TraceVerdict, trace_verdict
from groundwatch.scorers.records import ResponseVerdict

SINK = "otlp"
SCOPE = "groundwatch"


class OtlpVerdictSink:
    name = SINK

    def __init__(self, settings: OtlpVerdictSettings, exporter=None):
        import requests
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
        from opentelemetry.sdk.resources import Resource

        self.settings = settings
        self.resource = Resource({"service.name": settings.service_name})
        self._status: int | None = None  # the HTTP status of the exporter's last answer
        session = requests.Session()
        session.hooks["response"].append(self._answered)
        self.exporter = exporter if exporter is not None else OTLPSpanExporter(
            endpoint=settings.endpoint, headers=parse_headers(settings.headers), timeout=settings.timeout_s,
            session=session)
        self.sent = 0

    def write(self, verdicts: Sequence[ResponseVerdict]) -> None:
        judged = [v for v in map(trace_verdict, verdicts) if v is not None]
        if not judged:
            return
        refused = self._export(judged)
        if refused is not None and len(judged) > 1:  # one span refused for good refuses the whole request
            refused = [failure for v in judged if (failure := self._export([v])) is not None] or None
        elif refused is not None:
            refused = [refused]
        self.sent += len(judged) - len(refused or ())
        if refused:
            raise SinkError(SINK, f"the OTLP backend refused {len(refused)} verdict spans for good",
                            reason="rejected", failures=refused, status=refused[0].status)

    def _export(self, judged: list[TraceVerdict]) -> ItemFailure | None:
        """None when exported; the refusal when the backend refused it for good (the first verdict's id);
        SinkUnavailable when it may pass."""
        from opentelemetry.sdk.trace.export import SpanExportResult

        self._status = None
        spans = [verdict_span(v, _nanos(v.scored_at), self.resource) for v in judged]
        if self.exporter.export(spans) is SpanExportResult.SUCCESS:
            return None
        if self._status in PERMANENT_STATUSES:
            return ItemFailure(judged[0].doc_id, self._status, f"http_{self._status}", "refused by the OTLP backend")
        # The exporter already retried transient answers within its timeout; the consumer retries the batch.
        raise SinkUnavailable(SINK, f"OTLP export of {len(spans)} verdict spans failed"
                              + (f" (HTTP {self._status})" if self._status else ""))

    def _answered(self, response, *args, **kwargs) -> None:
        self._status = response.status_code

    def close(self) -> None:
        self.exporter.shutdown()


def verdict_span(verdict: TraceVerdict, time_ns: int, resource):
    """The verdict span: a child of the judged span, its id fixed by the verdict's doc_id."""
    from opentelemetry.sdk.trace import Event, ReadableSpan
    from opentelemetry.sdk.util.instrumentation import InstrumentationScope
    from opentelemetry.trace import SpanContext, SpanKind, TraceFlags

    trace_id = int(verdict.trace_id, 16)
    sampled = TraceFlags(TraceFlags.SAMPLED)
    parent = SpanContext(trace_id, int(verdict.span_id, 16), is_remote=True, trace_flags=sampled)
    context = SpanContext(trace_id, span_id_for(verdict.doc_id), is_remote=False, trace_flags=sampled)
    attributes = {
        "openinference.span.kind": "EVALUATOR",
        "evaluation.name": EVALUATION_NAME,
        "evaluation.score": verdict.score,
        "evaluation.label": verdict.label,
        "evaluation.explanation": verdict.explanation,
        "groundwatch.doc_id": verdict.doc_id,
        "groundwatch.scorer_version": verdict.scorer_version,
    }
    event = Event("gen_ai.evaluation.result", timestamp=time_ns, attributes={
        "gen_ai.evaluation.name": EVALUATION_NAME,
        "gen_ai.evaluation.score.value": verdict.score,
        "gen_ai.evaluation.score.label": verdict.label,
        "gen_ai.evaluation.explanation": verdict.explanation,
    })
    return ReadableSpan(EVALUATION_NAME, context=context, parent=parent, resource=resource, attributes=attributes,
                        events=[event], kind=SpanKind.INTERNAL, start_time=time_ns, end_time=time_ns,
                        instrumentation_scope=InstrumentationScope(SCOPE))


def span_id_for(doc_id: str) -> int:
    """A non-zero 64-bit span id from the doc_id: the same verdict always gets the same span."""
    value = int.from_bytes(hashlib.sha256(doc_id.encode()).digest()[:8], "big")
    return value or 1


def parse_headers(secret) -> dict[str, str] | None:
    """`k=v,k2=v2` (the OTEL_EXPORTER_OTLP_HEADERS form) into a dict; None when unset."""
    if secret is None:
        return None
    headers = {}
    for item in secret.get_secret_value().split(","):
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ValueError("otlp_verdicts.headers: expected comma-separated key=value pairs")
        headers[key.strip()] = value.strip()
    return headers


def _nanos(stamp: str | None) -> int:
    try:
        moment = datetime.fromisoformat(stamp) if stamp else None
    except ValueError:
        moment = None
    if moment is None:
        moment = datetime.now(timezone.utc)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return int(moment.timestamp() * 1_000_000_000)
