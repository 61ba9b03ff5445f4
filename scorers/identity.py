"""The stored identity of a verdict: which app and tenant it belongs to, and its document id.

Two apps may both send request id 42, so the id hashes (app, tenant, request_id,
scorer_version), not the request id alone: each app keeps its own verdict, and a
replay of the same message still overwrites its own document. A sha256 in hex is
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


def document_id(app, tenant, request_id: str, scorer_version: str) -> str:
    # A JSON array keeps the parts apart: ("a:b", "c") and ("a", "b:c") hash differently.
    parts = [identity_value(app), identity_value(tenant), str(request_id), str(scorer_version)]
    return hashlib.sha256(json.dumps(parts, ensure_ascii=False).encode("utf-8")).hexdigest()


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
