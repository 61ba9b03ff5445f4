"""The judge reply cache's key: a sha256 of (judge model, premise, claim), so no text is kept as a key.

The cache itself is a ByteLRU (scorers/byte_cache.py) of `judge.cache_mb`; only valid replies are
kept: a timeout or a malformed answer is asked again next time.
"""

from __future__ import annotations

import hashlib


def cache_key(model: str, premise: str, claim: str) -> str:
    return hashlib.sha256("\x1f".join((model, premise, claim)).encode("utf-8")).hexdigest()
