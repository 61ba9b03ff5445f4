"""The HTTP surface of groundwatch serve (FastAPI on uvicorn).

POST /v1/check         one groundwatch.response.v1 record -> verdict, action, answer to send
POST /v1/check:batch   {"responses": [record, ...]} -> one result per record, by position
GET  /healthz /readyz /metrics; the OpenAPI document at /openapi.json and an interactive page at /docs
(both behind the bearer token, like /v1)

Status codes: 200 scored; 400 the body is not JSON; 401 missing or wrong bearer token (when
serve.auth_token is set); 413 body over serve.max_request_bytes, more than serve.max_batch_items
records, or a record over a scorer limit (`reason` names it: too_deep, answer_too_long, passage_too_long,
too_many_claims, claim_too_long, too_many_passages, too_large, too_many_chunks, too_many_pairs);
422 not a valid record (the field is named); 500 scoring failed; 503 the queue is full or
the service is not ready; 504 the deadline passed (the body says what is known and the on_timeout
action). Every error body is JSON with `error` and `request_id` (null when it could not be read).
Reading, validating and writing JSON run on worker threads, never on the event loop.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import time
from contextlib import asynccontextmanager

from fastapi import Depends, FastAPI, Header, Request
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from groundwatch.config.logs import get_logger
from groundwatch.config.package_version import package_version
from groundwatch.config.settings import ServeSettings
from groundwatch.scorers.errors import InvalidResponse
from groundwatch.serve.docs_page import docs_page
from groundwatch.serve.limits import BodyLimit
from groundwatch.serve.openapi import BATCH_BODY, CHECK_BODY, RESPONSES, add_schemas
from groundwatch.serve.service import CheckService, Outcome, invalid, readable_request_id

log = get_logger(__name__)
ENDPOINTS = {"/v1/check": "check", "/v1/check:batch": "check_batch"}
DEADLINE_HEADER = "X-Groundwatch-Deadline-Ms"


def _error(status: int, error: str, message: str, request_id: str | None = None, **extra) -> JSONResponse:
    return JSONResponse({"error": error, "message": message, "request_id": request_id, **extra}, status_code=status)


class MalformedJson(ValueError):
    """The body is not JSON: 400."""


class NestedTooDeep(ValueError):
    """The body nests deeper than the JSON parser goes: 413, reason too_deep, like any record over
    scorer.max_json_depth."""


def _json(body: bytes):
    try:
        return json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise MalformedJson(f"body is not JSON: {exc}") from None
    except RecursionError:
        raise NestedTooDeep("body nests too deeply for the JSON parser") from None


def _render(content, status: int) -> JSONResponse:
    return JSONResponse(content, status_code=status)


async def _respond(content, status: int) -> JSONResponse:
    """A JSON response serialised on a worker thread: a large verdict must not hold the event loop."""
    return await asyncio.to_thread(_render, content, status)


def create_app(service: CheckService, settings: ServeSettings, registry) -> FastAPI:
    bearer = HTTPBearer(auto_error=False, description="serve.auth_token, when set")
    token = settings.auth_token.get_secret_value().encode() if settings.auth_token else None

    async def authorised(credentials: HTTPAuthorizationCredentials | None = Depends(bearer)) -> None:
        if token is None:
            return
        given = credentials.credentials.encode() if credentials and credentials.scheme.lower() == "bearer" else b""
        if not hmac.compare_digest(given, token):
            raise _Unauthorised()

    @asynccontextmanager
    async def lifespan(app):
        yield
        service.close()  # uvicorn stopped taking requests: score what is queued, flush publishing

    app = FastAPI(title="groundwatch", version=package_version(), lifespan=lifespan, docs_url=None, redoc_url=None,
                  openapi_url=None, description=__doc__.split("\n\n", 1)[1])
    app.add_middleware(BodyLimit, max_bytes=settings.max_request_bytes)

    @app.exception_handler(_Unauthorised)
    async def _unauthorised(request: Request, exc: _Unauthorised):
        return JSONResponse({"error": "unauthorised", "message": "missing or wrong bearer token", "request_id": None},
                            status_code=401, headers={"WWW-Authenticate": "Bearer"})

    @app.exception_handler(MalformedJson)
    async def _malformed(request: Request, exc: MalformedJson):
        return _error(400, "malformed_json", str(exc))

    @app.exception_handler(NestedTooDeep)
    async def _too_deep(request: Request, exc: NestedTooDeep):
        return _error(413, "too_large", str(exc), reason="too_deep")

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception):
        # A bug, not the client's fault: JSON like every other error, with the request id if it was read.
        log.error("serve_request_failed", path=request.url.path, error_class=type(exc).__name__)
        return _error(500, "internal_error", type(exc).__name__, getattr(request.state, "request_id", None))

    def _read_one(body: bytes):
        """(record, Response or the 422 Outcome), on a worker thread."""
        record = _json(body)
        try:
            return record, service.parse(record)
        except InvalidResponse as exc:
            return record, invalid(exc, readable_request_id(record))

    def _read_batch(body: bytes):
        """(records, [Response or Outcome]) or (None, None) when the body is not {"responses": [...]}."""
        payload = _json(body)
        records = payload.get("responses") if isinstance(payload, dict) else None
        if not isinstance(records, list):
            return None, None
        if len(records) > settings.max_batch_items:
            return records, None
        parsed: list = []
        for record in records:
            try:
                parsed.append(service.parse(record))
            except InvalidResponse as exc:
                parsed.append(invalid(exc, readable_request_id(record)))
        return records, parsed

    @app.middleware("http")
    async def count(request: Request, call_next):
        endpoint = ENDPOINTS.get(request.url.path)
        start = time.perf_counter()
        response = await call_next(request)
        if endpoint:
            service.metrics.http_request(endpoint, response.status_code, time.perf_counter() - start)
        return response

    def _deadline(header: str | None):
        try:
            return service.deadline(float(header) if header else None)
        except ValueError:
            return service.deadline()

    @app.post("/v1/check", dependencies=[Depends(authorised)], openapi_extra=CHECK_BODY, responses=RESPONSES,
              summary="Check one answer before it is sent")
    async def check(request: Request, passages: bool = False,
                    deadline_ms: str | None = Header(None, alias=DEADLINE_HEADER)):
        deadline = _deadline(deadline_ms)
        record, response = await asyncio.to_thread(_read_one, await request.body())
        request.state.request_id = readable_request_id(record)
        if isinstance(response, Outcome):
            return await _respond(response.body, response.status)
        if service.problems():
            return _error(503, "not_ready", "; ".join(service.problems()), response.request_id)
        (outcome,) = await service.check([response], deadline, passages)
        return await _respond(outcome.body, outcome.status)

    @app.post("/v1/check:batch", dependencies=[Depends(authorised)], openapi_extra=BATCH_BODY,
              responses=RESPONSES, summary="Check several answers; one result per record, by position")
    async def check_batch(request: Request, passages: bool = False,
                          deadline_ms: str | None = Header(None, alias=DEADLINE_HEADER)):
        deadline = _deadline(deadline_ms)
        records, parsed = await asyncio.to_thread(_read_batch, await request.body())
        if records is None:
            return _error(422, "invalid_request", 'expected {"responses": [record, ...]}', field="responses")
        if parsed is None:
            return _error(413, "too_many_items", f"{len(records)} records, over the limit of "
                                                 f"{settings.max_batch_items}")
        if service.problems():
            return _error(503, "not_ready", "; ".join(service.problems()))
        valid = [p for p in parsed if not isinstance(p, Outcome)]
        scored = iter(await service.check(valid, deadline, passages) if valid else [])
        results = [p if isinstance(p, Outcome) else next(scored) for p in parsed]
        status = 504 if any(r.status == 504 for r in results) else 200
        return await _respond({"results": [{"status": r.status, **r.body} for r in results]}, status)

    @app.get("/healthz", response_class=PlainTextResponse,
             summary="Alive: the last background probe of the model answered (never runs the model itself)")
    async def healthz():
        problem = service.liveness()
        return PlainTextResponse(f"{problem}\n" if problem else "ok\n", status_code=503 if problem else 200)

    @app.get("/readyz", summary="Model loaded, scorer running, not shutting down")
    async def readyz():
        problems = service.problems()
        return JSONResponse({"ready": not problems, "problems": problems}, status_code=503 if problems else 200)

    @app.get("/metrics", summary="Prometheus metrics")
    async def metrics():
        return Response(generate_latest(registry), media_type=CONTENT_TYPE_LATEST)

    @app.get("/openapi.json", dependencies=[Depends(authorised)], include_in_schema=False)
    async def openapi_document():
        return JSONResponse(app.openapi())

    @app.get("/docs", dependencies=[Depends(authorised)], include_in_schema=False)
    async def docs():
        return HTMLResponse(docs_page(app.openapi()))

    add_schemas(app)
    return app


class _Unauthorised(Exception):
    pass


