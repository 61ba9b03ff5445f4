"""Judge replies by (judge model, premise, claim), least recently used out first.

Only valid replies are kept: a timeout or a malformed answer is asked again next time. The key
is a sha256 of the three, so the cache holds no claim or passage text as keys.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict

from groundwatch.scorers.judge.reply import JudgeReply


def cache_key(model: str, premise: str, claim: str) -> str:
    return hashlib.sha256("\x1f".join((model, premise, claim)).encode("utf-8")).hexdigest()


class ReplyCache:
    def __init__(self, size: int):
        self.size = size
        self._items: OrderedDict[str, tuple[JudgeReply, str]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> tuple[JudgeReply, str] | None:
        with self._lock:
            hit = self._items.get(key)
            if hit is not None:
                self._items.move_to_end(key)
            return hit

    def put(self, key: str, reply: JudgeReply, raw: str) -> None:
        if self.size <= 0:
            return
        with self._lock:
            self._items[key] = (reply, raw)
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
