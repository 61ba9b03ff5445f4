"""Message bytes -> Response, or a DecodeError that names what is wrong.

parse_response is the authority; the reason word (a metric label) is worked
out only on the failure path, from cheap facts about the bytes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from groundwatch.scorers.errors import InvalidResponse
from groundwatch.scorers.schema import Response, parse_response

STAGE = "decode"


@dataclass(frozen=True)
class DecodeError:
    """Why one message is not a groundwatch.response.v1 record (no record text in it)."""

    error_class: str
    message: str
    reason: str  # empty | too_large | not_json | too_many_passages | schema
    field: str | None = None
    stage: str = STAGE


@dataclass(frozen=True)
class Limits:
    max_bytes: int = 1_000_000
    max_passages: int = 100


def decode(value: bytes | None, limits: Limits = Limits()) -> Response | DecodeError:
    if not value:
        return DecodeError("InvalidResponse", "message has no value (null or empty)", "empty", "<record>")
    try:
        return parse_response(value, max_bytes=limits.max_bytes, max_passages=limits.max_passages)
    except InvalidResponse as exc:
        return DecodeError(type(exc).__name__, str(exc), _reason(value, exc, limits), exc.field)


def _reason(value: bytes, exc: InvalidResponse, limits: Limits) -> str:
    if len(value) > limits.max_bytes:
        return "too_large"
    try:
        record = json.loads(value)
    except (UnicodeDecodeError, json.JSONDecodeError):
        return "not_json"
    passages = record.get("passages") if isinstance(record, dict) else None
    if exc.field == "passages" and isinstance(passages, list) and len(passages) > limits.max_passages:
        return "too_many_passages"
    return "schema"
