"""The bearer token in front of /v1, /openapi.json and /docs (serve.auth_token; open when unset)."""

from __future__ import annotations

import hmac

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from groundwatch.serve.errors import Unauthorised

bearer = HTTPBearer(auto_error=False, description="serve.auth_token, when set")


def token_of(settings) -> bytes | None:
    return settings.auth_token.get_secret_value().encode() if settings.auth_token else None


async def authorised(request: Request, credentials: HTTPAuthorizationCredentials | None = Depends(bearer)) -> None:
    token = request.app.state.token
    if token is None:
        return
    given = credentials.credentials.encode() if credentials and credentials.scheme.lower() == "bearer" else b""
    if not hmac.compare_digest(given, token):  # constant time: the comparison does not leak the token
        raise Unauthorised()
