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

import time
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request

from groundwatch.config.package_version import package_version
from groundwatch.config.settings import ServeSettings
from groundwatch.serve.auth import token_of
from groundwatch.serve.errors import add_error_handlers
from groundwatch.serve.limits import BodyLimit
from groundwatch.serve.openapi import add_schemas
from groundwatch.serve.routes import check, docs, health
from groundwatch.serve.service import CheckService

ENDPOINTS = {"/v1/check": "check", "/v1/check:batch": "check_batch"}  # path -> metric label


def create_app(service: CheckService, settings: ServeSettings, registry) -> FastAPI:
    app = FastAPI(title="groundwatch", version=package_version(), lifespan=_lifespan, docs_url=None, redoc_url=None,
                  openapi_url=None, description=__doc__.split("\n\n", 1)[1])
    # What the routes read through request.app.state: set once here, never changed.
    app.state.service = service
    app.state.settings = settings
    app.state.token = token_of(settings)
    app.state.registry = registry
    app.add_middleware(BodyLimit, max_bytes=settings.max_request_bytes)
    add_error_handlers(app)
    app.middleware("http")(_count)
    for routes in (check, health, docs):
        app.include_router(routes.router)
    add_schemas(app)
    return app


@asynccontextmanager
async def _lifespan(app: FastAPI):
    yield
    app.state.service.close()  # uvicorn stopped taking requests: score what is queued, flush publishing


async def _count(request: Request, call_next):
    """Requests to the check endpoints, by endpoint and status, with their duration."""
    endpoint = ENDPOINTS.get(request.url.path)
    start = time.perf_counter()
    response = await call_next(request)
    if endpoint:
        request.app.state.service.metrics.http_request(endpoint, response.status_code, time.perf_counter() - start)
    return response
