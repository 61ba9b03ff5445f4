"""serve's error bodies: every error is JSON with `error`, `message` and `request_id` (null when the
record could not be read), and the handlers that turn serve's exceptions into those bodies."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from groundwatch.config.logs import get_logger

log = get_logger("groundwatch.serve.app")  # the event name and logger the service has always used


class MalformedJson(ValueError):
    """The body is not JSON: 400."""


class NestedTooDeep(ValueError):
    """The body nests deeper than the JSON parser goes: 413, reason too_deep, like any record over
    scorer.max_json_depth."""


class Unauthorised(Exception):
    """Missing or wrong bearer token: 401."""


def error_response(status: int, error: str, message: str, request_id: str | None = None, **extra) -> JSONResponse:
    return JSONResponse({"error": error, "message": message, "request_id": request_id, **extra}, status_code=status)


async def _unauthorised(request: Request, exc: Unauthorised):
    return JSONResponse({"error": "unauthorised", "message": "missing or wrong bearer token", "request_id": None},
                        status_code=401, headers={"WWW-Authenticate": "Bearer"})


async def _malformed(request: Request, exc: MalformedJson):
    return error_response(400, "malformed_json", str(exc))


async def _too_deep(request: Request, exc: NestedTooDeep):
    return error_response(413, "too_large", str(exc), reason="too_deep")


async def _unexpected(request: Request, exc: Exception):
    # A bug, not the client's fault: JSON like every other error, with the request id if it was read.
    log.error("serve_request_failed", path=request.url.path, error_class=type(exc).__name__)
    return error_response(500, "internal_error", type(exc).__name__, getattr(request.state, "request_id", None))


def add_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(Unauthorised, _unauthorised)
    app.add_exception_handler(MalformedJson, _malformed)
    app.add_exception_handler(NestedTooDeep, _too_deep)
    app.add_exception_handler(Exception, _unexpected)
