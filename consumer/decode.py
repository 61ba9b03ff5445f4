"""Message bytes -> Response, or a DecodeError that names what is wrong.

parse_response is the authority, under the scorer's record limits (size, JSON
nesting, passage count, answer, passage and claim lengths, claim count), all
checked on the raw JSON before any scoring work; its reason word becomes the
dead-letter reason and metric label. Nothing a message holds escapes as an
exception: a record the JSON parser cannot nest into is a DecodeError too.
"""

from __future__ import annotations

from dataclasses import dataclass

from groundwatch.scorers.errors import InvalidResponse
from groundwatch.scorers.schema import RecordLimits, Response, parse_response

STAGE = "decode"
Limits = RecordLimits  # the consumer's name for the record limits


@dataclass(frozen=True)
class DecodeError:
    """Why one message is not a groundwatch.response.v1 record (no record text in it)."""

    error_class: str
    message: str
    # empty | not_json | schema | a limit: too_large, too_deep, too_many_passages, answer_too_long,
    # passage_too_long, too_many_claims, claim_too_long
    reason: str
    field: str | None = None
    stage: str = STAGE


def decode(value: bytes | None, limits: Limits = Limits()) -> Response | DecodeError:
    if not value:
        return DecodeError("InvalidResponse", "message has no value (null or empty)", "empty", "<record>")
    try:
        return parse_response(value, limits=limits)
    except InvalidResponse as exc:
        return DecodeError(type(exc).__name__, str(exc), exc.reason, exc.field)
