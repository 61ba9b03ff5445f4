"""Decode every message of a batch and score the valid ones with one scorer call.

One `scorer.score` call per batch lets all pairs of all its responses share
the dynamic batcher. Messages that cannot be decoded or scored become dead
letters (stage decode or score, with the scorer's stage as the reason); none
is dropped, and nothing a message does to the scorer stops the job: if the
batch call itself raises, each response is scored alone so only the one at
fault is dead-lettered. A response that missed the deadline is not the
message's fault: prepare returns it as late, for consumer/late.py to score
again, and the batch stays unprepared until that is done. A batch whose
scoring was cut short by shutdown is marked interrupted: neither written nor
committed, it is read again later.
"""

from __future__ import annotations

import time

import structlog

from groundwatch.config.logs import get_logger
from groundwatch.consumer.batch import Batch, Scored
from groundwatch.consumer.dead_letters import DeadLetter
from groundwatch.consumer.decode import DecodeError, Limits, decode
from groundwatch.export.metrics import Metrics
from groundwatch.scorers.deadline import Deadline
from groundwatch.scorers.errors import DeadlineExceeded, ScoringError

log = get_logger(__name__)


def scoring_reason(error: Exception) -> str:
    """The metric label and dead-letter reason: the scorer's fixed word (stage, cap or deadline)."""
    return error.reason if isinstance(error, ScoringError) else "score"


def message_context(msg, request_id: str | None = None) -> dict:
    ctx = {"topic": msg.topic(), "partition": msg.partition(), "offset": msg.offset()}
    if request_id:
        ctx["request_id"] = request_id
    return ctx


def prepare(batch: Batch, scorer, limits: Limits, metrics: Metrics, deadline: Deadline | None = None) -> list:
    """Decode and score the batch; returns the (message, response) pairs that missed the deadline."""
    valid = []
    for msg in batch.messages:
        start = time.perf_counter()
        result = decode(msg.value(), limits)
        metrics.observe_stage("decode", time.perf_counter() - start)
        if isinstance(result, DecodeError):
            with structlog.contextvars.bound_contextvars(**message_context(msg)):
                log.warning("decode_failed", reason=result.reason, field=result.field,
                            error_class=result.error_class, size_bytes=len(msg.value() or b""))
            batch.add_dead_letters([DeadLetter(msg, result.stage, result.error_class, result.message,
                                               result.reason)])
        else:
            valid.append((msg, result))
    late = []
    if valid:
        results = score_isolated(scorer, [response for _, response in valid], deadline)
        for (msg, response), result in zip(valid, results):
            if settle(batch, msg, response, result, metrics) == "late":
                late.append((msg, response))
        metrics.scored(batch.verdicts)
    batch.prepared = not late
    return late


def settle(batch: Batch, msg, response, result, metrics: Metrics, late_is_final: bool = False) -> str:
    """Put one result where it belongs: scored, dead | interrupted (shutdown) | late (a deadline
    overrun, kept for another try unless `late_is_final`, then a dead letter with reason deadline)."""
    if isinstance(result, DeadlineExceeded) and result.cause == "shutdown":
        batch.interrupted = True  # not the message's fault: leave it for the next run
        return "interrupted"
    if isinstance(result, DeadlineExceeded) and not late_is_final:
        return "late"
    if isinstance(result, ScoringError):
        reason = scoring_reason(result)
        with structlog.contextvars.bound_contextvars(**message_context(msg, response.request_id)):
            log.error("score_failed", stage=result.stage, reason=reason, error_class=result.error_class)
        metrics.scorer_error(reason)
        batch.add_dead_letters([DeadLetter(msg, "score", result.error_class, str(result), reason)])
        return "dead"
    batch.scored.append(Scored(msg, result))
    return "scored"


def score_isolated(scorer, responses: list, deadline: Deadline | None) -> list:
    """Results by position; what escapes the batch call is pinned on the response that causes it."""
    try:
        return scorer.score(responses, deadline=deadline)
    except Exception as exc:  # noqa: BLE001 - isolate the response at fault instead of crash-looping
        log.error("batch_score_failed", error_class=type(exc).__name__, responses=len(responses))
    out = []
    for response in responses:
        try:
            out.extend(scorer.score([response], deadline=deadline))
        except Exception as exc:  # noqa: BLE001
            out.append(ScoringError.wrap("score", exc))
    return out
