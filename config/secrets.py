"""Credentials inside URLs, masked wherever text is logged.

`https://user:pass@host/...` keeps its scheme and host but not its user information, and
query parameters that carry a secret (token, key, sig, password, ...) keep their name but not
their value. A webhook URL is a credential as a whole (settings: SecretStr); this catches the
URLs that are not declared secret, e.g. a password put into opensearch.url.
"""

from __future__ import annotations

import re
from typing import Any

MASK = "***"
_USERINFO = re.compile(r"(?P<scheme>\b[a-zA-Z][a-zA-Z0-9+.-]*://)(?P<userinfo>[^/?#@\s]+)@")
_SECRET_QUERY = re.compile(r"(?P<key>[?&](?:access_token|token|api[_-]?key|key|sig|signature|secret|password|pwd|"
                           r"auth|code)=)(?P<value>[^&#\s]+)", re.IGNORECASE)


def mask_url_credentials(text: str) -> str:
    """`text` with every URL's user information and secret query values replaced by ***."""
    if "://" not in text and "=" not in text:
        return text
    text = _USERINFO.sub(lambda m: f"{m['scheme']}{MASK}@", text)
    return _SECRET_QUERY.sub(lambda m: f"{m['key']}{MASK}", text)


def masked(value: Any) -> Any:
    """A copy of `value` (dicts, lists, strings) with URL credentials masked in every string."""
    if isinstance(value, str):
        return mask_url_credentials(value)
    if isinstance(value, dict):
        return {k: masked(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [masked(v) for v in value]
    return value


def mask_event(logger, method_name: str, event_dict: dict) -> dict:
    """structlog processor: no log line carries a URL's credentials, whichever event logged it."""
    return {k: masked(v) for k, v in event_dict.items()}
