"""The OpenTelemetry GenAI convention (development status).

A retrieval span has `gen_ai.operation.name = "retrieval"`, its query in `gen_ai.retrieval.query.text`
and its documents in `gen_ai.retrieval.documents` (structured or a JSON string; only `id` and `score`
are required, so the text may be absent). An inference span (`chat`, `text_completion`,
`generate_content`) has `gen_ai.output.messages` (`[{role, parts: [{type: "text", content}]}]`) and
the model in `gen_ai.response.model` or `gen_ai.request.model`.
"""

from __future__ import annotations

from groundwatch.consumer.otlp.spans import SpanRecord
from groundwatch.consumer.otlp.steps import (Document, Generation, Retrieval, json_value, metadata_dict,
                                             number_or_none, text_or_none)

OPERATION = "gen_ai.operation.name"
SESSION = "gen_ai.conversation.id"
INFERENCE = frozenset({"chat", "text_completion", "generate_content"})


def read(span: SpanRecord) -> Retrieval | Generation | None:
    a = span.attributes
    operation = a.get(OPERATION)
    if operation == "retrieval":
        return Retrieval(span, text_or_none(a.get("gen_ai.retrieval.query.text")),
                         _documents(a.get("gen_ai.retrieval.documents")))
    if operation in INFERENCE:
        model = text_or_none(a.get("gen_ai.response.model")) or text_or_none(a.get("gen_ai.request.model"))
        return Generation(span, _last(a.get("gen_ai.output.messages"), "assistant"), model,
                          _last(a.get("gen_ai.input.messages"), "user"))
    return None


def _documents(value) -> list[Document]:
    documents = json_value(value)
    out = []
    for d in documents if isinstance(documents, list) else ():
        if not isinstance(d, dict):
            continue
        text = text_or_none(d.get("content")) or text_or_none(d.get("text"))
        doc_id = d.get("id")
        out.append(Document(str(doc_id) if doc_id not in (None, "") else None, text, number_or_none(d.get("score")),
                            metadata_dict(d.get("metadata"))))
    return out


def _last(value, role: str) -> str | None:
    messages = json_value(value)
    for message in reversed(messages if isinstance(messages, list) else []):
        if not isinstance(message, dict) or message.get("role") != role:
            continue
        parts = message.get("parts") if isinstance(message.get("parts"), list) else []
        texts = [p.get("content") for p in parts
                 if isinstance(p, dict) and p.get("type") == "text" and isinstance(p.get("content"), str)]
        text = text_or_none("".join(texts))
        if text is not None:
            return text
    return None
