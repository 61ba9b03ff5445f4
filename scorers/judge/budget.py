"""The judge's budget: calls per second (a token bucket) and a share of the checked claims.

A claim that finds the budget spent keeps the small model's verdict at once (outcome `budget`);
nothing waits for the bucket to refill, so the judge never slows the stream it watches. The share
counts since the scorer started: at most ceil(max_share x checked claims) calls, so the first
uncertain claim may be judged. Reply tokens are capped per call (max_tokens, sent with the request).
"""

from __future__ import annotations

import math
import threading
import time
from typing import Callable


class Budget:
    def __init__(self, calls_per_s: float, max_share: float, clock: Callable[[], float] = time.monotonic):
        self._rate = calls_per_s
        self._capacity = max(1.0, calls_per_s)  # a burst of one second's calls
        self._tokens = self._capacity
        self._share = max_share
        self._clock = clock
        self._last = clock()
        self._claims = 0
        self._calls = 0
        self._lock = threading.Lock()

    def saw_claims(self, n: int) -> None:
        """Count checked claims (the denominator of the share)."""
        with self._lock:
            self._claims += n

    def take(self) -> bool:
        """Spend one call if both budgets allow it."""
        with self._lock:
            now = self._clock()
            self._tokens = min(self._capacity, self._tokens + (now - self._last) * self._rate)
            self._last = now
            if self._tokens < 1 or self._calls + 1 > math.ceil(self._share * self._claims):
                return False
            self._tokens -= 1
            self._calls += 1
            return True

    @property
    def calls(self) -> int:
        return self._calls
