"""Why a server could not be reached, in a few words: the cause a user can act on, not a client's
nested exception text ("HTTPConnection(host=..., port=1): Failed to establish a new connection: ...")."""

from __future__ import annotations

import socket
import ssl


def reason(exc: BaseException) -> str:
    """'connection refused', 'timed out', 'host not found', 'TLS failed', else the innermost error's first line."""
    seen, chain = set(), []
    stack = [exc]
    while stack:  # the exception, its cause and context, and a client's wrapped original (`.info`)
        e = stack.pop()
        if e is None or id(e) in seen or not isinstance(e, BaseException):
            continue
        seen.add(id(e))
        chain.append(e)
        stack += [getattr(e, "info", None), e.__cause__, e.__context__, *getattr(e, "args", ())[:3]]
        reason_attr = getattr(e, "reason", None)  # urllib3's MaxRetryError, urllib's URLError
        stack.append(reason_attr if isinstance(reason_attr, BaseException) else None)
    for e in chain:
        if isinstance(e, ConnectionRefusedError):
            return "connection refused"
        if isinstance(e, socket.gaierror):
            return "host not found"
        if isinstance(e, ssl.SSLError):
            return "TLS failed"
        if isinstance(e, (TimeoutError, socket.timeout)) or "timed out" in str(e).lower():
            return "timed out"
    text = " ".join(str(chain[-1] if chain else exc).split())
    lowered = text.lower()
    for words, short in (("connection refused", "connection refused"), ("name or service not known", "host not found"),
                         ("nodename nor servname", "host not found"), ("timed out", "timed out")):
        if words in lowered or words in str(exc).lower():
            return short
    return text[:200] or type(exc).__name__
