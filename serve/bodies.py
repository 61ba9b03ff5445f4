"""JSON in and out of the check endpoints, on worker threads: reading, validating and writing a large
body must never hold the event loop."""

from __future__ import annotations

import asyncio
import json

from fastapi.responses import JSONResponse

from groundwatch.scorers.errors import InvalidResponse
from groundwatch.serve.errors import MalformedJson, NestedTooDeep
from groundwatch.serve.service import CheckService, invalid, readable_request_id


def read_json(body: bytes):
    try:
        return json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise MalformedJson(f"body is not JSON: {exc}") from None
    except RecursionError:
        raise NestedTooDeep("body nests too deeply for the JSON parser") from None


def read_one(service: CheckService, body: bytes):
    """(record, Response or the 422 Outcome), on a worker thread."""
    record = read_json(body)
    try:
        return record, service.parse(record)
    except InvalidResponse as exc:
        return record, invalid(exc, readable_request_id(record))


def read_batch(service: CheckService, max_items: int, body: bytes):
    """(records, [Response or Outcome]) or (None, None) when the body is not {"responses": [...]};
    (records, None) when there are more than max_items."""
    payload = read_json(body)
    records = payload.get("responses") if isinstance(payload, dict) else None
    if not isinstance(records, list):
        return None, None
    if len(records) > max_items:
        return records, None
    parsed: list = []
    for record in records:
        try:
            parsed.append(service.parse(record))
        except InvalidResponse as exc:
            parsed.append(invalid(exc, readable_request_id(record)))
    return records, parsed


def render(content, status: int) -> JSONResponse:
    return JSONResponse(content, status_code=status)


async def respond(content, status: int) -> JSONResponse:
    """A JSON response serialised on a worker thread: a large verdict must not hold the event loop."""
    return await asyncio.to_thread(render, content, status)
