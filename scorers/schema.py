"""Input schema groundwatch.response.v1: one logged RAG response."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from groundwatch.scorers.errors import InvalidResponse

SCHEMA = "groundwatch.response.v1"


class Passage(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")

    id: str = Field(min_length=1)
    text: str
    score: float | None = None
    doc_id: str | None = None
    title: str | None = None
    updated_at: str | None = None

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


def parse_response(record: dict | str | bytes, *, max_bytes: int = 1_000_000,
                   max_passages: int = 100) -> Response:
    """Validate one record; raise InvalidResponse naming the offending field."""
    if isinstance(record, (bytes, bytearray)):
        if len(record) > max_bytes:
            raise InvalidResponse(f"record is {len(record)} bytes, over the limit of {max_bytes}", "<record>")
        try:
            record = record.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InvalidResponse(f"record is not UTF-8: {exc.reason}", "<record>") from None
    if isinstance(record, str):
        if len(record) > max_bytes:
            raise InvalidResponse(f"record is {len(record)} bytes, over the limit of {max_bytes}", "<record>")
        try:
            record = json.loads(record)
        except json.JSONDecodeError as exc:
            raise InvalidResponse(f"record is not JSON: {exc.msg.removesuffix(' at')} at line {exc.lineno} "
                                  f"column {exc.colno}", "<record>") from None
    if not isinstance(record, dict):
        raise InvalidResponse(f"record must be a JSON object, got {type(record).__name__}", "<record>")
    schema = record.get("schema")
    if schema is not None and schema != SCHEMA:
        raise InvalidResponse(f"schema: expected {SCHEMA!r}, got {schema!r}", "schema")
    passages = record.get("passages")
    if isinstance(passages, list) and len(passages) > max_passages:
        raise InvalidResponse(f"passages: {len(passages)} passages, over the limit of {max_passages}", "passages")
    try:
        response = Response.model_validate(record)
    except ValidationError as exc:
        raise _describe(exc) from None
    ids = [p.id for p in response.passages]
    if len(set(ids)) != len(ids):
        dup = next(i for i in ids if ids.count(i) > 1)
        raise InvalidResponse(f"passages: duplicate passage id {dup!r}", "passages")
    if not response.answer.strip():
        raise InvalidResponse("answer: empty answer", "answer")
    return response
