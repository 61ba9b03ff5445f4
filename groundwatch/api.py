"""The Python API: check an answer against its passages in three lines.

    from groundwatch import Checker
    with Checker() as checker:
        result = checker.check(question="...", answer="...", passages=["...", "..."])

One Checker loads the model once and owns one scorer; `check`, `check_many` and `acheck` all
queue their responses for the same owner thread (serve/collector.py), so concurrent callers
share the NLI batcher's model batches as `groundwatch serve` does. Results are the verdict
records `groundwatch score` writes, as typed objects (groundwatch/results.py).
"""

from __future__ import annotations

import asyncio
import difflib
import json
import uuid
from collections import deque
from concurrent.futures import Future
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import structlog

from groundwatch.config.logs import configure as configure_logs
from groundwatch.config.scorer import ScorerConfig
from groundwatch.config.settings import Settings, load_settings
from groundwatch.consumer.otlp.missing_text import flag_missing_text
from groundwatch.results import Result
from groundwatch.scorers.errors import InvalidResponse, ScoringError
from groundwatch.scorers.redaction import Redactor
from groundwatch.scorers.schema import Response, parse_response
from groundwatch.serve.collector import Collector, Overloaded


def build_scorer(settings: Settings, **kwargs):
    """The scorer the settings describe: the policy when enabled, the corpus lookups when enabled."""
    from groundwatch.scorers.verdicts.calibration import for_model
    from groundwatch.scorers.pipeline import Scorer
    from groundwatch.scorers.verdicts.policy import ActionPolicy

    if settings.policy.enabled:
        kwargs.setdefault("policy", ActionPolicy(settings.policy))
    if settings.corpus.enabled:  # per-claim lookups in the knowledge base (off by default)
        from groundwatch.recall_probe.corpus import build_corpus

        kwargs.setdefault("corpus", build_corpus(settings.opensearch, settings.corpus))
        kwargs.setdefault("corpus_settings", settings.corpus)
    if settings.judge.enabled:  # the LLM judge for the uncertain band (off by default)
        from groundwatch.scorers.verdicts.judge.judge import Judge

        kwargs.setdefault("judge", Judge.from_settings(settings.judge, settings.redaction))
    return Scorer.from_config(for_model(settings.scorer), **kwargs)  # the model's calibration.json, its window


def apply_overrides(settings: Settings, overrides: Mapping[str, Any]) -> Settings:
    """`settings` with keyword overrides: a section name (`policy={...}`) replaces fields of that
    section; any other name is a `scorer` field (`tau_entailment=0.6`). Unknown names are refused."""
    sections = set(Settings.model_fields) - {"log_format", "log_level"}
    scorer_fields = set(ScorerConfig.model_fields)
    scorer, updates = {}, {}
    for name, value in overrides.items():
        if name in sections:
            current = getattr(settings, name)
            given = value.model_dump() if hasattr(value, "model_dump") else dict(value)
            updates[name] = type(current).model_validate({**current.model_dump(), **given})
        elif name in scorer_fields:
            scorer[name] = value
        else:
            close = difflib.get_close_matches(name, sorted(scorer_fields | sections), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise TypeError(f"Checker() got an unknown setting {name!r}{hint}")
    if scorer:
        base = updates.get("scorer", settings.scorer)
        # Only what was set stays set: a threshold left unset still comes from the model's calibration.json.
        updates["scorer"] = ScorerConfig.model_validate({**base.model_dump(exclude_unset=True), **scorer})
    return settings.model_copy(update=updates) if updates else settings


def response_record(*, answer: str, passages: Sequence[str | Mapping[str, Any]], question: str | None = None,
                    request_id: str | None = None, **fields: Any) -> dict[str, Any]:
    """A groundwatch.response.v1 record; passages given as plain strings get the ids p1, p2, ..."""
    if isinstance(passages, (str, bytes)) or isinstance(passages, Mapping):
        raise TypeError("passages: a list of passages (strings or {id, text} dicts), not a single one")
    if not isinstance(passages, Iterable):
        raise TypeError(f"passages: a list of passages (strings or {{id, text}} dicts), not {type(passages).__name__}")
    # Anything else stays as given, for validation to name ("passages.2: ...").
    listed = [{"id": f"p{i}", "text": p} if isinstance(p, str) else dict(p) if isinstance(p, Mapping) else p
              for i, p in enumerate(passages, 1)]
    record = {"request_id": request_id or uuid.uuid4().hex, "question": question, "answer": answer,
              "passages": listed}
    record.update({k: v for k, v in fields.items() if v is not None})
    return {k: v for k, v in record.items() if v is not None}


class Checker:
    """Checks answers claim by claim against their passages; construct once, call many times.

    `Checker()` uses the shipped model and the default settings (plus GROUNDWATCH_* environment
    variables). Pass a Settings object, a JSON settings file (`config=`), or settings as keywords:
    scorer fields directly (`Checker(tau_entailment=0.6, model_dir="models/deberta")`), other
    sections by name (`Checker(policy={"enabled": False})`).
    """

    def __init__(self, settings: Settings | None = None, *, config: str | Path | None = None, **overrides: Any):
        if settings is not None and config is not None:
            raise TypeError("Checker() takes settings or config, not both")
        self.settings = apply_overrides(settings if settings is not None else load_settings(config), overrides)
        if not structlog.is_configured():  # unconfigured structlog prints to stdout; an application's own set-up wins
            configure_logs(self.settings.log_format, self.settings.log_level)
        self._scorer = build_scorer(self.settings)
        serve = self.settings.serve
        self._collector = Collector(self._scorer, serve.max_batch_responses, serve.max_queue, serve.collect_wait_ms,
                                    future_s=self.settings.scorer.future_timeout_s)
        self._redactor = Redactor.from_settings(self.settings.redaction)  # as in the file `score` writes

    @property
    def scorer_version(self) -> str:
        return self._scorer.version

    @property
    def model(self) -> str:
        return self._scorer.model

    # -- checking ---------------------------------------------------------------

    def check(self, *, answer: str, passages: Sequence[str | Mapping[str, Any]], question: str | None = None,
              request_id: str | None = None, **fields: Any) -> Result:
        """Check one answer. `passages`: strings, or dicts `{id, text, title?, updated_at?, ...}` in the
        retriever's order; other groundwatch.response.v1 fields (citations, claims, metadata, timestamp)
        as keywords. Raises InvalidResponse naming the field, or ScoringError when scoring failed."""
        record = response_record(answer=answer, passages=passages, question=question, request_id=request_id,
                                 **fields)
        return self._result(self._submit(self._parse(record, "check()")).result())

    def check_many(self, records: Iterable[Mapping[str, Any] | Response], *,
                   return_exceptions: bool = False) -> list[Result | ScoringError]:
        """Check groundwatch.response.v1 records (dicts, as in a JSONL file) together, in order.

        Every record is validated before any is scored (InvalidResponse names the record's position
        and field). A response whose scoring failed raises its ScoringError, or with
        `return_exceptions=True` stands in the list in that response's place."""
        # A Response built in Python is read again, so its text is checked as a record's is.
        responses = [self._parse(r.model_dump() if isinstance(r, Response) else r, f"records[{i}]")
                     for i, r in enumerate(records)]
        futures: deque[Future] = deque()
        submitted: list[Future] = []
        for response in responses:
            while True:
                try:
                    future = self._submit(response)
                    break
                except Overloaded:  # the queue is full: wait for the oldest, then go on
                    futures.popleft().exception()
            futures.append(future)
            submitted.append(future)
        out: list[Result | ScoringError] = []
        for future in submitted:
            result = future.result()
            if isinstance(result, ScoringError) and return_exceptions:
                out.append(result)
            else:
                out.append(self._result(result))
        return out

    def check_spans(self, spans: Iterable[Any], *, return_exceptions: bool = False
                    ) -> list[Result | InvalidResponse | ScoringError]:
        """Check the responses that traces hold: OpenTelemetry SDK spans (as an exporter receives them),
        ExportTraceServiceRequest messages or their protobuf bytes, in the OpenInference or the GenAI
        convention. The spans are joined by trace id and each expected answer becomes one response
        (the `traces` settings; docs/opentelemetry.md), in trace order; its request id is the trace id
        and the answer span's id. A request or trace that cannot be read raises InvalidResponse naming
        it, or with `return_exceptions=True` stands in the list where its responses would be."""
        from groundwatch.consumer.decode import DecodeError
        from groundwatch.consumer.otlp.assemble import assemble
        from groundwatch.consumer.otlp.decode import decode_request
        from groundwatch.consumer.otlp.in_process import export_requests
        from groundwatch.scorers.schema import RecordLimits

        traces = self.settings.traces
        records, refused = [], []
        for i, value in enumerate(export_requests(spans)):
            decoded = decode_request(value, "otlp_proto", traces)
            if isinstance(decoded, DecodeError):
                refused.append(InvalidResponse(f"spans: export request {i}: {decoded.message}", decoded.field,
                                               decoded.reason))
            else:
                records.extend(decoded)
        found = refused + [r if isinstance(r, Response) else InvalidResponse(f"{where}: {r}", r.field, r.reason)
                           for where, r in assemble(records, traces, RecordLimits.from_config(self.settings.scorer),
                                                    self._passage_store())]
        bad = [r for r in found if isinstance(r, InvalidResponse)]
        if bad and not return_exceptions:
            raise bad[0]
        results = iter(self.check_many([r for r in found if isinstance(r, Response)],
                                       return_exceptions=return_exceptions))
        return [r if isinstance(r, InvalidResponse) else next(results) for r in found]

    async def acheck(self, *, answer: str, passages: Sequence[str | Mapping[str, Any]], question: str | None = None,
                     request_id: str | None = None, **fields: Any) -> Result:
        """`check` for asyncio code: concurrent calls are scored together in the shared batcher."""
        record = response_record(answer=answer, passages=passages, question=question, request_id=request_id,
                                 **fields)
        future = self._submit(self._parse(record, "acheck()"))
        return self._result(await asyncio.wrap_future(future))

    # -- lifetime -----------------------------------------------------------------

    def close(self) -> None:
        """Score what is queued, then stop the scorer's threads."""
        self._collector.close()
        self._scorer.close()

    def __enter__(self) -> "Checker":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    async def __aenter__(self) -> "Checker":
        return self

    async def __aexit__(self, *exc) -> None:
        await asyncio.to_thread(self.close)

    # -- internals ------------------------------------------------------------------

    def _parse(self, record: Mapping[str, Any], where: str) -> Response:
        limits = self.settings.scorer
        try:
            return parse_response(dict(record), max_bytes=limits.max_record_bytes, max_passages=limits.max_passages)
        except InvalidResponse as exc:
            raise InvalidResponse(f"{where}: {exc}", exc.field, exc.reason) from None

    def _passage_store(self):
        if not hasattr(self, "_store"):  # built on first use: only trace input needs it
            from groundwatch.consumer.otlp.passage_store import build_passage_store

            self._store = build_passage_store(self.settings)
        return self._store

    def _submit(self, response: Response) -> Future:
        return self._collector.submit(response)

    def _result(self, verdict) -> Result:
        if isinstance(verdict, ScoringError):
            raise verdict
        flag_missing_text(verdict)  # a response read from traces whose documents came without text
        record = verdict.to_dict()
        if self._redactor:
            record = self._redactor.document(record)
        return Result.from_dict(json.loads(json.dumps(record)))  # exactly the JSON `groundwatch score` writes
