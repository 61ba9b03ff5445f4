"""Verdicts as Arize Phoenix span annotations on the judged LLM span (its REST API).

`POST {url}/v1/span_annotations?sync=true`: one annotation `groundwatch.faithfulness` per judged
span with label, score and the text-free explanation, annotator kind CODE. Idempotent: the
annotation's `identifier` is fixed, and Phoenix updates the annotation with the same name, span
and identifier instead of adding one, so a replay (or a re-score) leaves one annotation per span.

Unreachable, timeouts, 429, 5xx and auth errors are transient: the consumer retries the batch.
A span Phoenix does not hold (404: the app's traces do not go to this Phoenix, or not yet) is
not retried forever: the batch is annotated span by span and the missing ones are counted and
skipped; their verdicts stay in the verdict store.
"""

from __future__ import annotations

from typing import Callable, Sequence

from groundwatch.config.logs import get_logger
from groundwatch.config.verdict_sinks import EVALUATION_NAME, PhoenixSettings
from groundwatch.export.base import PERMANENT_STATUSES, ItemFailure, SinkError, SinkUnavailable
from groundwatch.export.trace_verdict import TraceVerdict, trace_verdict
from groundwatch.scorers.records import ResponseVerdict

log = get_logger(__name__)

SINK = "phoenix"
IDENTIFIER = "groundwatch"
SPAN_NOT_FOUND = 404


class PhoenixAnnotationSink:
    name = SINK

    def __init__(self, settings: PhoenixSettings, client=None, on_missing: Callable[[int], None] | None = None):
        import httpx

        self.settings = settings
        headers = {"Authorization": f"Bearer {settings.api_key.get_secret_value()}"} if settings.api_key else {}
        self.client = client if client is not None else httpx.Client(
            base_url=settings.url.rstrip("/"), headers=headers, timeout=settings.timeout_s)
        self.sent = 0
        self.missing_spans = 0
        self._on_missing = on_missing or (lambda n: None)  # the metric groundwatch_phoenix_spans_missing_total

    def write(self, verdicts: Sequence[ResponseVerdict]) -> None:
        judged = [v for v in map(trace_verdict, verdicts) if v is not None]
        if not judged:
            return
        if self._post(judged) == SPAN_NOT_FOUND:
            # One unknown span refuses the whole request: annotate the rest one by one.
            missing = sum(self._post([v]) == SPAN_NOT_FOUND for v in judged)
            self.missing_spans += missing
            self._on_missing(missing)
            log.warning("phoenix_spans_missing", missing=missing, annotated=len(judged) - missing)
            self.sent += len(judged) - missing
            return
        self.sent += len(judged)

    def _post(self, judged: list[TraceVerdict]) -> int:
        """POST the annotations; the status (200, or 404 when a span is unknown), else raise."""
        import httpx

        body = {"data": [annotation(v) for v in judged]}
        try:
            answer = self.client.post("/v1/span_annotations", params={"sync": "true"}, json=body)
        except httpx.HTTPError as exc:  # connection refused, timeouts
            raise SinkUnavailable(SINK, f"Phoenix unreachable ({type(exc).__name__})") from exc
        status = answer.status_code
        if status < 300 or status == SPAN_NOT_FOUND:
            return status
        if status in PERMANENT_STATUSES:
            refused = [ItemFailure(v.doc_id, status, f"http_{status}", answer.text[:300]) for v in judged]
            raise SinkError(SINK, f"Phoenix refused {len(judged)} annotations: HTTP {status}",
                            reason="rejected", failures=refused, status=status)
        raise SinkUnavailable(SINK, f"Phoenix answered HTTP {status}")

    def close(self) -> None:
        self.client.close()


def annotation(verdict: TraceVerdict) -> dict:
    return {"span_id": verdict.span_id, "name": EVALUATION_NAME, "annotator_kind": "CODE",
            "identifier": IDENTIFIER,
            "result": {"label": verdict.label, "score": verdict.score, "explanation": verdict.explanation},
            "metadata": {"doc_id": verdict.doc_id, "scorer_version": verdict.scorer_version}}
