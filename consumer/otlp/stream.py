"""The streaming job's decode stage for trace topics: messages -> held spans -> released traces -> responses.

Each message (one OTLP export request) is decoded; its spans go into the join buffer
(join.py), and the traces it releases are assembled and scored together, as one batch of
the response path is. A response is written against the message that carried its answer
span (through ResponseSource, so a dead letter for one response never takes another's
verdict with it). The batch commits the join's offsets: below the oldest held message.
Dead letters: an undecodable message (stage decode), a trace too large (stage join, its
first message), a response the assembler refuses (stage decode), a message of late spans
(stage join, reason late_span, when `traces.late_spans` is dead_letter).
"""

from __future__ import annotations

import time

import structlog

from groundwatch.config.logs import get_logger
from groundwatch.consumer.batch import Batch
from groundwatch.consumer.dead_letters import DeadLetter
from groundwatch.consumer.decode import DecodeError
from groundwatch.consumer.otlp.assemble import assemble_trace
from groundwatch.consumer.otlp.decode import decode_request
from groundwatch.consumer.otlp.join import ReleasedTrace, TraceJoin
from groundwatch.consumer.otlp.missing_text import flag_missing_text
from groundwatch.consumer.prepare import message_context, score_isolated, settle
from groundwatch.export.metrics import Metrics
from groundwatch.scorers.errors import InvalidResponse
from groundwatch.scorers.schema import RecordLimits

log = get_logger(__name__)


class ResponseSource:
    """The message that carried a response's answer span, one object per response."""

    def __init__(self, message, request_id: str):
        self._message, self.request_id = message, request_id

    def __getattr__(self, name):
        return getattr(self._message, name)


def prepare_traces(batch: Batch, join: TraceJoin, scorer, settings, metrics: Metrics, deadline=None,
                   store=None) -> list:
    """Decode, join, assemble and score; returns the (source, response) pairs that missed the deadline."""
    encoding = settings.kafka.input_format
    for msg in batch.messages:
        join.seen(msg)
        start = time.perf_counter()
        spans = decode_request(msg.value(), encoding, settings.traces)
        metrics.observe_stage("decode", time.perf_counter() - start)
        if isinstance(spans, DecodeError):
            _dead(batch, msg, spans.stage, spans.error_class, spans.message, spans.reason, metrics)
            continue
        late = join.add(msg, spans)
        if late:
            metrics.late_spans(len(late))
            with structlog.contextvars.bound_contextvars(**message_context(msg)):
                log.warning("late_spans", spans=len(late), action=settings.traces.late_spans)
            if settings.traces.late_spans == "dead_letter":
                _dead(batch, msg, "join", "LateSpan", f"{len(late)} span(s) of traces already released",
                      "late_span", metrics, log_it=False)
    limits = RecordLimits.from_config(settings.scorer)
    valid = []
    for trace in join.release():
        metrics.trace_join(trace.outcome)
        valid.extend(_responses(batch, trace, settings, limits, store, metrics))
    metrics.held_traces(len(join))
    batch.commit_to = join.commit_offsets()
    late = []
    if valid:
        results = score_isolated(scorer, [response for _, response in valid], deadline)
        for (source, response), result in zip(valid, results):
            flag_missing_text(result)
            if settle(batch, source, response, result, metrics) == "late":
                late.append((source, response))
        metrics.scored(batch.verdicts)
    batch.prepared = not late
    return late


def _responses(batch: Batch, trace: ReleasedTrace, settings, limits, store, metrics) -> list:
    if trace.outcome == "too_large":
        _dead(batch, trace.first_message, "join", "InvalidTraces",
              f"trace holds more than {settings.traces.max_spans_per_trace} spans", "too_many_spans", metrics)
        return []
    out = []
    for where, item in assemble_trace(trace.spans, settings.traces, limits, store):
        span_id = where.rsplit(" ", 1)[-1]
        message = trace.sources.get(span_id, trace.first_message)
        if isinstance(item, InvalidResponse):
            _dead(batch, ResponseSource(message, where), "decode", type(item).__name__, f"{where}: {item}",
                  item.reason, metrics)
        else:
            out.append((ResponseSource(message, item.request_id), item))
    return out


def _dead(batch: Batch, msg, stage: str, error_class: str, message: str, reason: str, metrics: Metrics,
          log_it: bool = True) -> None:
    if log_it:
        with structlog.contextvars.bound_contextvars(**message_context(msg)):
            log.warning("decode_failed" if stage == "decode" else "join_failed", stage=stage, reason=reason,
                        error_class=error_class)
    # Straight onto the lists: a message holds spans of many traces, so its dead letter must not
    # take the verdicts of the others written against it (Batch.add_dead_letters would).
    letter = DeadLetter(msg, stage, error_class, message, reason)
    batch.dead.append(letter)
    batch.pending.append(letter)
