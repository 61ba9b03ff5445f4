"""Input schema groundwatch.response.v1: one logged RAG response."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from groundwatch.scorers.errors import InvalidResponse
from groundwatch.scorers.text_check import check_record_text

SCHEMA = "groundwatch.response.v1"


class Passage(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")

    id: str = Field(min_length=1)
    text: str
    score: float | None = None
    doc_id: str | None = None
    title: str | None = None
    updated_at: str | None = None
    metadata: dict[str, Any] | None = None  # the retriever's own fields for the document, kept as given

    @field_validator("id", mode="before")
    @classmethod
    def _id_as_text(cls, v: Any) -> Any:
        return str(v) if isinstance(v, int) else v


class Citation(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")

    passage_id: str = Field(min_length=1)
    span: tuple[int, int] | None = None


class Metadata(BaseModel):
    model_config = ConfigDict(frozen=True, extra="allow")

    app: str | None = None
    model: str | None = None
    retriever: str | None = None
    tenant: str | None = None


class Response(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")

    request_id: str = Field(min_length=1, max_length=512)
    timestamp: datetime | None = None
    question: str | None = None
    answer: str
    passages: list[Passage]
    citations: list[Citation] = Field(default_factory=list)
    claims: list[str] | None = None
    gold_passage_ids: list[str] | None = None
    metadata: Metadata | None = None

    @field_validator("request_id", mode="before")
    @classmethod
    def _request_id_as_text(cls, v: Any) -> Any:
        return str(v) if isinstance(v, int) else v


def _describe(exc: ValidationError) -> InvalidResponse:
    err = exc.errors()[0]
    field = ".".join(str(p) for p in err["loc"]) or "<record>"
    more = f" (and {len(exc.errors()) - 1} more)" if len(exc.errors()) > 1 else ""
    return InvalidResponse(f"{field}: {err['msg']}{more}", field=field)


# Reasons of a record over a limit (serve answers 413); any other refusal is invalid (422).
LIMIT_REASONS = frozenset({"too_large", "too_deep", "too_many_passages", "answer_too_long", "passage_too_long",
                           "too_many_claims", "claim_too_long"})


@dataclass(frozen=True)
class RecordLimits:
    """What one record may hold, checked on the raw JSON before any validation or scoring work.

    The streaming paths (consumer, serve) build it from the scorer settings; offline commands
    pass none and keep only the size and passage-count limits.
    """

    max_bytes: int = 1_000_000
    max_passages: int = 100
    max_depth: int = 32           # JSON nesting, the record itself being level 1
    max_answer_chars: int = 20_000
    max_passage_chars: int = 100_000
    max_claims: int = 128         # producer-supplied claims
    max_claim_chars: int = 2_000

    @classmethod
    def from_config(cls, config) -> "RecordLimits":
        """The limits of a ScorerConfig."""
        return cls(config.max_record_bytes, config.max_passages, config.max_json_depth, config.max_answer_chars,
                   config.max_passage_chars, config.max_claims, config.max_claim_chars)


def too_deep(value: Any, limit: int) -> bool:
    """Do containers nest deeper than `limit`? Iterative: a deep record must not exhaust the stack."""
    stack = [(value, 1)] if isinstance(value, (dict, list)) else []
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return True
        children = node.values() if isinstance(node, dict) else node
        stack.extend((c, depth + 1) for c in children if isinstance(c, (dict, list)))
    return False


def _over(what: str, size: int, limit: int, field: str, reason: str) -> InvalidResponse:
    return InvalidResponse(f"{field}: {what} is {size}, over the limit of {limit}", field, reason)


def _check_content(record: dict, limits: RecordLimits) -> None:
    """Lengths and counts of the fields scoring works on, read from the raw record (cheap, before validation)."""
    answer = record.get("answer")
    if isinstance(answer, str) and len(answer) > limits.max_answer_chars:
        raise _over("length", len(answer), limits.max_answer_chars, "answer", "answer_too_long")
    passages = record.get("passages")
    for i, p in enumerate(passages if isinstance(passages, list) else ()):
        text = p.get("text") if isinstance(p, dict) else None
        if isinstance(text, str) and len(text) > limits.max_passage_chars:
            raise _over("length", len(text), limits.max_passage_chars, f"passages.{i}.text", "passage_too_long")
    claims = record.get("claims")
    if isinstance(claims, list):
        if len(claims) > limits.max_claims:
            raise _over("count", len(claims), limits.max_claims, "claims", "too_many_claims")
        for i, claim in enumerate(claims):
            if isinstance(claim, str) and len(claim) > limits.max_claim_chars:
                raise _over("length", len(claim), limits.max_claim_chars, f"claims.{i}", "claim_too_long")


def _load_json(text: str | bytes) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidResponse(f"record is not JSON: {exc.msg.removesuffix(' at')} at line {exc.lineno} "
                              f"column {exc.colno}", "<record>", "not_json") from None
    except RecursionError:  # deeper than the parser goes: a limit, not a crash of the caller
        raise InvalidResponse("record nests too deeply for the JSON parser", "<record>", "too_deep") from None


def parse_response(record: dict | str | bytes, *, max_bytes: int = 1_000_000, max_passages: int = 100,
                   limits: RecordLimits | None = None) -> Response:
    """Validate one record; raise InvalidResponse naming the offending field and a reason.

    With `limits`, every limit of RecordLimits applies (max_bytes and max_passages are then ignored).
    """
    content = limits
    limits = limits or RecordLimits(max_bytes, max_passages)
    max_bytes, max_passages = limits.max_bytes, limits.max_passages
    if isinstance(record, (bytes, bytearray)):
        if len(record) > max_bytes:
            raise InvalidResponse(f"record is {len(record)} bytes, over the limit of {max_bytes}", "<record>",
                                  "too_large")
        try:
            record = record.decode("utf-8-sig")  # a byte-order mark before the record is not part of it
        except UnicodeDecodeError as exc:
            raise InvalidResponse(f"record is not UTF-8: {exc.reason}", "<record>", "not_json") from None
    if isinstance(record, str):
        if len(record) > max_bytes:
            raise InvalidResponse(f"record is {len(record)} bytes, over the limit of {max_bytes}", "<record>",
                                  "too_large")
        record = _load_json(record)
    if content is not None and too_deep(record, content.max_depth):
        raise InvalidResponse(f"record nests deeper than the limit of {content.max_depth} levels", "<record>",
                              "too_deep")
    if not isinstance(record, dict):
        raise InvalidResponse(f"record must be a JSON object, got {type(record).__name__}", "<record>")
    schema = record.get("schema")
    if schema is not None and schema != SCHEMA:
        raise InvalidResponse(f"schema: expected {SCHEMA!r}, got {schema!r}", "schema")
    passages = record.get("passages")
    if isinstance(passages, list) and len(passages) > max_passages:
        raise InvalidResponse(f"passages: {len(passages)} passages, over the limit of {max_passages}", "passages",
                              "too_many_passages")
    if content is not None:
        _check_content(record, content)
    check_record_text(record)  # every field, before validation: one reason whichever field it is
    try:
        response = Response.model_validate(record)
    except ValidationError as exc:
        raise _describe(exc) from None
    except RecursionError:  # a dict built by the caller, nested beyond the validator's reach
        raise InvalidResponse("record nests too deeply to validate", "<record>", "too_deep") from None
    ids = [p.id for p in response.passages]
    if len(set(ids)) != len(ids):
        seen: set[str] = set()
        dup = next(i for i in ids if i in seen or seen.add(i))
        raise InvalidResponse(f"passages: duplicate passage id {dup!r}", "passages")
    if not response.answer.strip():
        raise InvalidResponse("answer: empty answer", "answer")
    return response
