"""The OpenAPI description of the check endpoints: request bodies are the schema's own model
(groundwatch.response.v1), read and validated by groundwatch itself so errors name the field."""

from __future__ import annotations

from pydantic import BaseModel, Field

from groundwatch.scorers.schema import Response as ResponseV1

_REF = "#/components/schemas/{model}"


class Decision(BaseModel):
    action: str = Field(description="pass | log | hedge | strip | block")
    rule: str = Field(description="the rule that decided (or default, on_timeout, on_error)")
    reason: str
    claims: list[int] = Field(default_factory=list, description="claims that decided the action")
    stripped: list[int] = Field(default_factory=list, description="claims whose spans `strip` removed")


class CheckResult(BaseModel):
    request_id: str
    action: Decision | None = Field(description="null when the policy is disabled")
    answer: str = Field(description="the answer to send: unchanged, hedged, stripped or the block message")
    changed: bool
    verdict: dict = Field(description="the verdict record (passages left out unless ?passages=true)")


class KnownClaim(BaseModel):
    index: int
    text: str
    span: list[int]
    severity: str
    verdict: None = None


class TimedOut(BaseModel):
    request_id: str
    error: str = "deadline_exceeded"
    stage: str = Field(description="queued | scoring")
    deadline_s: float | None
    elapsed_s: float | None
    claims: list[KnownClaim]
    action: Decision | None = Field(description="the policy's on_timeout decision")
    answer: str
    verdict: None = None


class ErrorBody(BaseModel):
    error: str
    message: str | None = None
    field: str | None = None
    request_id: str | None = Field(None, description="the record's request id when it could be read, else null")


class BatchResults(BaseModel):
    results: list[dict] = Field(description="per record: {status, ...} with the body /v1/check would give")


def _body(ref: str, description: str) -> dict:
    return {"requestBody": {"required": True, "description": description,
                            "content": {"application/json": {"schema": {"$ref": _REF.format(model=ref)}}}}}


class BatchRequest(BaseModel):
    responses: list[ResponseV1]


CHECK_BODY = _body("Response", "one groundwatch.response.v1 record")
BATCH_BODY = _body("BatchRequest", "records to check, at most serve.max_batch_items")
RESPONSES = {
    400: {"model": ErrorBody, "description": "the body is not JSON"},
    401: {"model": ErrorBody, "description": "missing or wrong bearer token"},
    413: {"model": ErrorBody, "description": "body or record count over the limit"},
    422: {"model": ErrorBody, "description": "not a valid groundwatch.response.v1 record"},
    500: {"model": ErrorBody, "description": "scoring failed (body carries the on_error action)"},
    503: {"model": ErrorBody, "description": "queue full, or not ready"},
    504: {"model": TimedOut, "description": "the deadline passed: what is known, and the on_timeout action"},
}


def add_schemas(app) -> None:
    """Put the request models into components.schemas of the generated document."""
    base = app.openapi

    def openapi() -> dict:
        if app.openapi_schema:
            return app.openapi_schema
        doc = base()
        schemas = doc.setdefault("components", {}).setdefault("schemas", {})
        for name, model in (("Response", ResponseV1), ("BatchRequest", BatchRequest)):
            schema = model.model_json_schema(ref_template=_REF)
            schemas.update(schema.pop("$defs", {}))
            schemas[name] = schema
        for path, ok in (("/v1/check", CheckResult), ("/v1/check:batch", BatchResults)):
            schema = ok.model_json_schema(ref_template=_REF)
            schemas.update(schema.pop("$defs", {}))
            schemas[ok.__name__] = schema
            doc["paths"][path]["post"]["responses"]["200"] = {
                "description": "scored", "content": {"application/json": {"schema": {"$ref": _REF.format(
                    model=ok.__name__)}}}}
        app.openapi_schema = doc
        return doc

    app.openapi = openapi
