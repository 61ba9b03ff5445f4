"""Decode every message of a batch and score the valid ones with one scorer call.

One `scorer.score` call per batch lets all pairs of all its responses share
the dynamic batcher. Messages that cannot be decoded or scored become dead
letters; none is dropped.
"""

from __future__ import annotations

import re
import time

import structlog

from config.logs import get_logger
from consumer.batch import Batch, Scored
from consumer.dead_letters import DeadLetter
from consumer.decode import DecodeError, Limits, decode
from export.metrics import Metrics
from scorers.errors import ScoringError

log = get_logger(__name__)

_CLASS_NAME = re.compile(r"^([A-Za-z_][A-Za-z0-9_.]{0,60}):")


def scoring_reason(error: Exception) -> str:
    """The failing exception's class as a metric label (the scorer's message starts 'Class: ...')."""
    match = _CLASS_NAME.match(str(error))
    return (match.group(1).rsplit(".", 1)[-1] if match else type(error).__name__)[:40]


def message_context(msg, request_id: str | None = None) -> dict:
    ctx = {"topic": msg.topic(), "partition": msg.partition(), "offset": msg.offset()}
    if request_id:
        ctx["request_id"] = request_id
    return ctx


def prepare(batch: Batch, scorer, limits: Limits, metrics: Metrics) -> None:
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
    if valid:
        results = scorer.score([response for _, response in valid])
        for (msg, response), result in zip(valid, results):
            if isinstance(result, ScoringError):
                reason = scoring_reason(result)
                with structlog.contextvars.bound_contextvars(**message_context(msg, response.request_id)):
                    log.error("score_failed", reason=reason)
                metrics.scorer_error(reason)
                batch.add_dead_letters([DeadLetter(msg, "score", type(result).__name__, str(result), reason)])
            else:
                batch.scored.append(Scored(msg, result))
        metrics.scored(batch.verdicts)
    batch.prepared = True
