"""The stored identity of a verdict: which app and tenant it belongs to, and its document id.

Two apps may both send request id 42, so the id hashes (app, tenant, request_id,
scorer_version, content hash), not the request id alone: each app keeps its own
verdict, a replay of the same message still overwrites its own document, and a
different response sent under a request id already used is kept beside the first
(export/duplicates.py flags both). A sha256 in hex is
64 ASCII bytes whatever the inputs, far under OpenSearch's 512-byte `_id` limit.
"""

from __future__ import annotations

import hashlib
import json
from urllib.parse import quote

ID_BYTES = 64


def identity_value(value) -> str:
    """A metadata value as the id and the stored keyword see it: text as is, anything else as JSON."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def document_id(app, tenant, request_id: str, scorer_version: str, content_hash: str | None = None) -> str:
    # A JSON array keeps the parts apart: ("a:b", "c") and ("a", "b:c") hash differently. Without a
    # content hash (verdicts stored before it existed) the id is what it always was.
    parts = [identity_value(app), identity_value(tenant), str(request_id), str(scorer_version)]
    if content_hash:
        parts.append(content_hash)
    return hashlib.sha256(json.dumps(parts, ensure_ascii=False).encode("utf-8")).hexdigest()


def content_hash(response) -> str:
    """What the verdict judged (question, answer, passages, citations, claims) as 16 hex digits.

    A replay of a record hashes the same, so it overwrites its own document; a different answer
    under the same request id hashes differently and is stored beside the first. Time, metadata,
    retrieval scores and gold ids are left out: they do not change what is judged.
    """
    passages = [{k: v for k, v in p.model_dump(exclude_none=True).items() if k != "score"} for p in response.passages]
    content = {"question": response.question, "answer": response.answer, "passages": passages,
               "citations": [c.model_dump(exclude_none=True) for c in response.citations],
               "claims": response.claims}
    canonical = json.dumps(content, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]


def app_of(record: dict) -> str:
    """The app a verdict record (as stored) belongs to; "" when it names none."""
    return identity_value((record.get("metadata") or {}).get("app"))


def tenant_of(record: dict) -> str:
    return identity_value((record.get("metadata") or {}).get("tenant"))


def record_key(record: dict) -> tuple[str, str, str]:
    """(app, tenant, request_id): one response, whatever scorer version scored it."""
    return app_of(record), tenant_of(record), str(record.get("request_id"))


def app_prefixed(app, rest: str) -> str:
    """`rest` under its app ("support:42"), for alert keys and review ids; no app: `rest` alone.
    The app is percent-encoded, so a ':' in it cannot make two apps' keys meet."""
    app = identity_value(app)
    return f"{quote(app, safe='')}:{rest}" if app else rest
