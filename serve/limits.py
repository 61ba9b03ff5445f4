"""Request-size limit for the check endpoints: 413 before the body is read when it says it is too
large (Content-Length), or as soon as a streamed (chunked) body passes the limit."""

from __future__ import annotations

import json


class BodyTooLarge(Exception):
    pass


def too_large_body(max_bytes: int) -> bytes:
    # The body was not read, so its request id is unknown (every error body names the field).
    return json.dumps({"error": "request_too_large", "message": f"request body over {max_bytes} bytes",
                       "request_id": None}).encode()


class BodyLimit:
    """Pure ASGI middleware; only POST requests under `prefix` are limited."""

    def __init__(self, app, max_bytes: int, prefix: str = "/v1/"):
        self.app = app
        self.max_bytes = max_bytes
        self.prefix = prefix

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["method"] != "POST" or not scope["path"].startswith(self.prefix):
            return await self.app(scope, receive, send)
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None and length.isdigit() and int(length) > self.max_bytes:
            return await self._refuse(send)
        received = 0
        started = False

        async def limited_receive():
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise BodyTooLarge()
            return message

        async def tracking_send(message):
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except BodyTooLarge:
            if not started:
                await self._refuse(send)

    async def _refuse(self, send) -> None:
        body = too_large_body(self.max_bytes)
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})
