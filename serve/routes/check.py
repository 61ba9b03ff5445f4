"""POST /v1/check and /v1/check:batch: read the body, refuse early (invalid, too many, not ready),
score through the service, answer with the outcome."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Depends, Header, Request

from groundwatch.serve.auth import authorised
from groundwatch.serve.bodies import read_batch, read_one, respond
from groundwatch.serve.errors import error_response
from groundwatch.serve.openapi import BATCH_BODY, CHECK_BODY, RESPONSES
from groundwatch.serve.service import CheckService, Outcome, readable_request_id

DEADLINE_HEADER = "X-Groundwatch-Deadline-Ms"

router = APIRouter()


def _deadline(service: CheckService, header: str | None):
    try:
        return service.deadline(float(header) if header else None)
    except ValueError:  # an unreadable header asks for nothing: the configured deadline applies
        return service.deadline()


@router.post("/v1/check", dependencies=[Depends(authorised)], openapi_extra=CHECK_BODY, responses=RESPONSES,
             summary="Check one answer before it is sent")
async def check(request: Request, passages: bool = False,
                deadline_ms: str | None = Header(None, alias=DEADLINE_HEADER)):
    service: CheckService = request.app.state.service
    deadline = _deadline(service, deadline_ms)
    record, response = await asyncio.to_thread(read_one, service, await request.body())
    request.state.request_id = readable_request_id(record)
    if isinstance(response, Outcome):
        return await respond(response.body, response.status)
    if service.problems():
        return error_response(503, "not_ready", "; ".join(service.problems()), response.request_id)
    (outcome,) = await service.check([response], deadline, passages)
    return await respond(outcome.body, outcome.status)


@router.post("/v1/check:batch", dependencies=[Depends(authorised)], openapi_extra=BATCH_BODY,
             responses=RESPONSES, summary="Check several answers; one result per record, by position")
async def check_batch(request: Request, passages: bool = False,
                      deadline_ms: str | None = Header(None, alias=DEADLINE_HEADER)):
    service: CheckService = request.app.state.service
    max_items = request.app.state.settings.max_batch_items
    deadline = _deadline(service, deadline_ms)
    records, parsed = await asyncio.to_thread(read_batch, service, max_items, await request.body())
    if records is None:
        return error_response(422, "invalid_request", 'expected {"responses": [record, ...]}', field="responses")
    if parsed is None:
        return error_response(413, "too_many_items", f"{len(records)} records, over the limit of {max_items}")
    if service.problems():
        return error_response(503, "not_ready", "; ".join(service.problems()))
    valid = [p for p in parsed if not isinstance(p, Outcome)]
    scored = iter(await service.check(valid, deadline, passages) if valid else [])
    results = [p if isinstance(p, Outcome) else next(scored) for p in parsed]
    status = 504 if any(r.status == 504 for r in results) else 200
    return await respond({"results": [{"status": r.status, **r.body} for r in results]}, status)
