"""Capped exponential backoff with jitter, for retrying a batch whose sink failed."""

from __future__ import annotations

import random


class Backoff:
    def __init__(self, initial_s: float, max_s: float, factor: float = 2.0, jitter: float = 0.2):
        if initial_s <= 0 or max_s < initial_s:
            raise ValueError(f"backoff needs 0 < initial_s <= max_s, got {initial_s} and {max_s}")
        self.initial_s = initial_s
        self.max_s = max_s
        self.factor = factor
        self.jitter = jitter
        self._next = initial_s

    def next(self) -> float:
        """The next delay: grows by `factor` up to `max_s`; jitter spreads replicas apart."""
        delay = self._next
        self._next = min(self.max_s, self._next * self.factor)
        return min(self.max_s, delay * (1 + random.uniform(-self.jitter, self.jitter)))

    def reset(self) -> None:
        self._next = self.initial_s
