"""GET /openapi.json and /docs (an interactive page with no outside assets), behind the bearer token
like /v1: the document describes what the token protects."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, JSONResponse

from groundwatch.serve.auth import authorised
from groundwatch.serve.docs_page import docs_page

router = APIRouter()


@router.get("/openapi.json", dependencies=[Depends(authorised)], include_in_schema=False)
async def openapi_document(request: Request):
    return JSONResponse(request.app.openapi())


@router.get("/docs", dependencies=[Depends(authorised)], include_in_schema=False)
async def docs(request: Request):
    return HTMLResponse(docs_page(request.app.openapi()))
