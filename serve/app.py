"""The HTTP surface of groundwatch serve (FastAPI on uvicorn).

POST /v1/check         one groundwatch.response.v1 record -> verdict, action, answer to send
POST /v1/check:batch   {"responses": [record, ...]} -> one result per record, by position
GET  /healthz /readyz /metrics, and the OpenAPI document at /openapi.json

Status codes: 200 scored; 401 missing or wrong bearer token (when serve.auth_token
is set); 413 body over serve.max_request_bytes or more than serve.max_batch_items
records; 422 not a valid record (the field is named); 500 scoring failed; 503 the
queue is full or the model is not loaded; 504 the deadline passed (the body says
what is known and the on_timeout action). Every error body is JSON with `error`.
"""

from __future__ import annotations

import hmac
import json
import time
from contextlib import asynccontextmanager

from fastapi import Depends, FastAPI, Header, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from groundwatch.config.settings import ServeSettings
from groundwatch.scorers import SCORER_VERSION
from groundwatch.scorers.errors import InvalidResponse
from groundwatch.serve.limits import BodyLimit
from groundwatch.serve.openapi import BATCH_BODY, CHECK_BODY, RESPONSES, add_schemas
from groundwatch.serve.service import CheckService, Outcome, invalid

ENDPOINTS = {"/v1/check": "check", "/v1/check:batch": "check_batch"}
DEADLINE_HEADER = "X-Groundwatch-Deadline-Ms"


def _error(status: int, error: str, message: str, **extra) -> JSONResponse:
    return JSONResponse({"error": error, "message": message, **extra}, status_code=status)


def _json(body: bytes):
    try:
        return json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InvalidResponse(f"body is not JSON: {exc}", "<record>") from None


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

    app = FastAPI(title="groundwatch", version=SCORER_VERSION, lifespan=lifespan, docs_url=None, redoc_url=None,
                  description=__doc__.split("\n\n", 1)[1])
    app.add_middleware(BodyLimit, max_bytes=settings.max_request_bytes)

    @app.exception_handler(_Unauthorised)
    async def _unauthorised(request: Request, exc: _Unauthorised):
        return JSONResponse({"error": "unauthorised", "message": "missing or wrong bearer token"}, status_code=401,
                            headers={"WWW-Authenticate": "Bearer"})

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
        if service.problems():
            return _error(503, "not_ready", "; ".join(service.problems()))
        deadline = _deadline(deadline_ms)
        try:
            response = service.parse(_json(await request.body()))
        except InvalidResponse as exc:
            return _outcome(invalid(exc))
        (outcome,) = await service.check([response], deadline, passages)
        return _outcome(outcome)

    @app.post("/v1/check:batch", dependencies=[Depends(authorised)], openapi_extra=BATCH_BODY,
              responses=RESPONSES, summary="Check several answers; one result per record, by position")
    async def check_batch(request: Request, passages: bool = False,
                          deadline_ms: str | None = Header(None, alias=DEADLINE_HEADER)):
        if service.problems():
            return _error(503, "not_ready", "; ".join(service.problems()))
        deadline = _deadline(deadline_ms)
        try:
            body = _json(await request.body())
        except InvalidResponse as exc:
            return _outcome(invalid(exc))
        records = body.get("responses") if isinstance(body, dict) else None
        if not isinstance(records, list):
            return _error(422, "invalid_request", 'expected {"responses": [record, ...]}', field="responses")
        if len(records) > settings.max_batch_items:
            return _error(413, "too_many_items", f"{len(records)} records, over the limit of "
                                                 f"{settings.max_batch_items}")
        parsed: list = []
        for record in records:
            try:
                parsed.append(service.parse(record))
            except InvalidResponse as exc:
                parsed.append(invalid(exc, record.get("request_id") if isinstance(record, dict) else None))
        valid = [p for p in parsed if not isinstance(p, Outcome)]
        scored = iter(await service.check(valid, deadline, passages) if valid else [])
        results = [p if isinstance(p, Outcome) else next(scored) for p in parsed]
        status = 504 if any(r.status == 504 for r in results) else 200
        return JSONResponse({"results": [{"status": r.status, **r.body} for r in results]}, status_code=status)

    @app.get("/healthz", response_class=PlainTextResponse, summary="The process is alive")
    async def healthz():
        return "ok\n"

    @app.get("/readyz", summary="Model loaded, scorer running, not shutting down")
    async def readyz():
        problems = service.problems()
        return JSONResponse({"ready": not problems, "problems": problems}, status_code=503 if problems else 200)

    @app.get("/metrics", summary="Prometheus metrics")
    async def metrics():
        return Response(generate_latest(registry), media_type=CONTENT_TYPE_LATEST)

    add_schemas(app)
    return app


class _Unauthorised(Exception):
    pass


def _outcome(outcome: Outcome) -> JSONResponse:
    return JSONResponse(outcome.body, status_code=outcome.status)
