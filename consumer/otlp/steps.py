"""What a span did in a RAG request, read from either convention: a retrieval or a generation."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from groundwatch.consumer.otlp.spans import SpanRecord


@dataclass(frozen=True)
class Document:
    id: str | None
    text: str | None        # None: logged without its text (the GenAI convention needs only id and score)
    score: float | None = None
    metadata: dict | None = None


@dataclass(frozen=True)
class Retrieval:
    span: SpanRecord
    query: str | None
    documents: list[Document]
    reranked: bool = False  # a reranker's output: the passages the model actually saw


@dataclass(frozen=True)
class Generation:
    span: SpanRecord
    answer: str | None       # None: no text answer (a tool call)
    model: str | None
    user_message: str | None  # the last user message of its input, when the retrieval logged no query


def text_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def number_or_none(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return None
    return None


def json_value(value: Any) -> Any:
    """A structured attribute as given, or one the instrumentation wrote as a JSON string (None if not JSON)."""
    if isinstance(value, str):
        try:
            return json.loads(value)
        except (json.JSONDecodeError, RecursionError):
            return None
    return value


def metadata_dict(value: Any) -> dict | None:
    parsed = json_value(value)
    return parsed if isinstance(parsed, dict) else None
