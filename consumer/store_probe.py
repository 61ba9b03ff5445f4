"""While a sink is down, ask it cheaply whether it answers again, so the retry need not sit out its backoff.

The backoff grows to consumer.sink_retry_max_s (30 s by default): a store that came back early
would wait the rest of it. During the wait a probe (OpenSearch: HEAD /, a short timeout) asks every
consumer.sink_probe_interval_s, jittered so replicas do not ask together; the first answer ends the
wait and the batch is written at once.
"""

from __future__ import annotations

import random
import time
from typing import Callable


class StoreProbe:
    def __init__(self, answers: Callable[[], bool], interval_s: float, jitter: float = 0.2,
                 clock: Callable[[], float] = time.monotonic):
        self._answers = answers
        self.interval_s = interval_s
        self.jitter = jitter
        self._clock = clock
        self._next = clock() + self._interval()

    def _interval(self) -> float:
        return self.interval_s * (1 + random.uniform(-self.jitter, self.jitter))

    def answers(self) -> bool:
        """True once the sink answered a probe; asks only when one is due (never raises)."""
        if self._clock() < self._next:
            return False
        try:
            ok = bool(self._answers())
        except Exception:  # noqa: BLE001 - a probe reports, never raises
            ok = False
        self._next = self._clock() + self._interval()
        return ok

    def due_in(self) -> float:
        """Seconds until the next probe is due (0 when it is)."""
        return max(0.0, self._next - self._clock())
