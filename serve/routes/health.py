"""GET /healthz (alive), /readyz (ready to score) and /metrics (Prometheus); open without a token, as
probes and scrapers expect."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

router = APIRouter()


@router.get("/healthz", response_class=PlainTextResponse,
            summary="Alive: the last background probe of the model answered (never runs the model itself)")
async def healthz(request: Request):
    problem = request.app.state.service.liveness()
    return PlainTextResponse(f"{problem}\n" if problem else "ok\n", status_code=503 if problem else 200)


@router.get("/readyz", summary="Model loaded, scorer running, not shutting down")
async def readyz(request: Request):
    problems = request.app.state.service.problems()
    return JSONResponse({"ready": not problems, "problems": problems}, status_code=503 if problems else 200)


@router.get("/metrics", summary="Prometheus metrics")
async def metrics(request: Request):
    return Response(generate_latest(request.app.state.registry), media_type=CONTENT_TYPE_LATEST)
