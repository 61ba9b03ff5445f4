"""The OpenInference convention (Arize Phoenix, LlamaIndex and LangChain instrumentors).

RETRIEVER spans flatten documents as `retrieval.documents.{i}.document.{id,content,score,metadata}`,
RERANKER spans their output as `reranker.output_documents.{i}.document.*`, LLM spans their answer
as `llm.output_messages.{i}.message.{role,content}` (or `output.value`) and the model as
`llm.model_name`. Names come from openinference-semantic-conventions' documented strings.
"""

from __future__ import annotations

import re

from groundwatch.consumer.otlp.spans import SpanRecord
from groundwatch.consumer.otlp.steps import (Document, Generation, Retrieval, metadata_dict, number_or_none,
                                             text_or_none)

KIND = "openinference.span.kind"
SESSION = "session.id"
_INDEXED = re.compile(r"^(\d+)\.(.+)$")


def read(span: SpanRecord) -> Retrieval | Generation | None:
    a = span.attributes
    kind = a.get(KIND)
    if kind == "RETRIEVER":
        return Retrieval(span, text_or_none(a.get("input.value")), _documents(a, "retrieval.documents"))
    if kind == "RERANKER":
        query = text_or_none(a.get("reranker.query")) or text_or_none(a.get("input.value"))
        return Retrieval(span, query, _documents(a, "reranker.output_documents"), reranked=True)
    if kind == "LLM":
        return Generation(span, _answer(a), text_or_none(a.get("llm.model_name")), _last(a, "llm.input_messages",
                                                                                          "user"))
    return None


def _indexed(attributes: dict, prefix: str) -> list[dict]:
    """`prefix.{i}.rest` attributes as one dict of `rest` -> value per i, in index order."""
    items: dict[int, dict] = {}
    start = prefix + "."
    for key, value in attributes.items():
        if key.startswith(start):
            match = _INDEXED.match(key[len(start):])
            if match:
                items.setdefault(int(match.group(1)), {})[match.group(2)] = value
    return [items[i] for i in sorted(items)]


def _documents(attributes: dict, prefix: str) -> list[Document]:
    return [Document(str(d["document.id"]) if d.get("document.id") not in (None, "") else None,
                     text_or_none(d.get("document.content")), number_or_none(d.get("document.score")),
                     metadata_dict(d.get("document.metadata")))
            for d in _indexed(attributes, prefix)]


def _content(message: dict) -> str | None:
    """A message's text: `message.content`, else its text parts (`message.contents.{j}.message_content.*`)."""
    text = text_or_none(message.get("message.content"))
    if text is not None:
        return text
    parts = _indexed(message, "message.contents")
    texts = [p.get("message_content.text") for p in parts if p.get("message_content.type", "text") == "text"]
    return text_or_none("".join(t for t in texts if isinstance(t, str)))


def _last(attributes: dict, prefix: str, role: str) -> str | None:
    for message in reversed(_indexed(attributes, prefix)):
        if message.get("message.role") == role:
            text = _content(message)
            if text is not None:
                return text
    return None


def _answer(attributes: dict) -> str | None:
    answer = _last(attributes, "llm.output_messages", "assistant")
    if answer is None and attributes.get("output.mime_type") != "application/json":
        answer = text_or_none(attributes.get("output.value"))
    return answer
