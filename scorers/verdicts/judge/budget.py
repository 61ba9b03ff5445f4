"""The judge's budget: calls per second, a share of the checked claims, and tokens a minute.

A claim that finds the budget spent keeps the small model's verdict at once (outcome `budget`);
nothing waits for a bucket to refill, so the judge never slows the stream it watches. The share
counts since the scorer started: at most ceil(max_share x checked claims) calls, so the first
uncertain claim may be judged. Reply tokens are capped per call (max_tokens, sent with the request);
tokens a minute, when set, are charged after each reply with what the endpoint reports having used,
so a call may overdraw once and the next ones wait for the refill.
"""

from __future__ import annotations

import math
import threading
import time
from typing import Callable


class Budget:
    def __init__(self, calls_per_s: float, max_share: float, clock: Callable[[], float] = time.monotonic,
                 tokens_per_min: int | None = None):
        self._tokens_per_s = None if tokens_per_min is None else tokens_per_min / 60.0
        self._token_capacity = float(tokens_per_min or 0)
        self._token_balance = self._token_capacity
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
            if self._tokens_per_s is not None:
                self._token_balance = min(self._token_capacity,
                                          self._token_balance + (now - self._last) * self._tokens_per_s)
            self._last = now
            if self._tokens < 1 or self._calls + 1 > math.ceil(self._share * self._claims):
                return False
            if self._tokens_per_s is not None and self._token_balance <= 0:
                return False
            self._tokens -= 1
            self._calls += 1
            return True

    def spent_tokens(self, n: int | None) -> None:
        """Charge a reply's tokens (usage.total_tokens; None when the endpoint does not say)."""
        if n and self._tokens_per_s is not None:
            with self._lock:
                self._token_balance -= n

    @property
    def calls(self) -> int:
        return self._calls
