"""The scorer's one deadline mechanism: a batch deadline and a per-future limit.

`Scorer.score` waits for model results only through `Deadline.result`, so no
caller waits longer than the batch deadline (`scorer.batch_deadline_s`) and no
single future longer than `scorer.future_timeout_s`. Its CPU stages call
`check` before each response and each claim, and pairs carry `ends_at` into the
batcher, which drops them unscored once it has passed. A result that is late
becomes a DeadlineExceeded for its response alone; results that are already
there are still used. Whoever owns the batch may tighten the deadline from
another thread (a SIGTERM handler: `tighten(at, "shutdown")`); waits notice
within `SLICE_S`. The streaming consumer uses it, and an inline `serve`
command can pass one per request.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Callable

from groundwatch.scorers.errors import DeadlineExceeded

SLICE_S = 0.2  # longest single wait, so a tightened deadline is seen promptly


class Deadline:
    def __init__(self, seconds: float | None, future_s: float | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self._clock = clock
        self._end = None if seconds is None else clock() + seconds
        self._cause = "batch"
        self.future_s = future_s
        self._lock = threading.Lock()

    @classmethod
    def from_config(cls, config) -> "Deadline":
        """The batch deadline and per-future limit of a ScorerConfig, starting now."""
        return cls(config.batch_deadline_s, config.future_timeout_s)

    def tighten(self, at: float, cause: str = "shutdown") -> None:
        """End no later than monotonic time `at`; a late result then names `cause`."""
        with self._lock:
            if self._end is None or at < self._end:
                self._end, self._cause = at, cause

    @property
    def cause(self) -> str:
        return self._cause

    def remaining(self) -> float | None:
        return None if self._end is None else max(0.0, self._end - self._clock())

    def expired(self) -> bool:
        return self._end is not None and self._clock() >= self._end

    def ends_at(self) -> float | None:
        """When the deadline passes, on its clock (time.monotonic unless a test gave another); None: never."""
        return self._end

    def check(self, stage: str) -> None:
        """Raise DeadlineExceeded once the deadline has passed: CPU stages call it between units of work."""
        if self.expired():
            raise DeadlineExceeded(self._cause, self._late_text() if self._cause == "shutdown"
                                   else f"the batch's scoring deadline passed during {stage}")

    def result(self, future: Future):
        """The future's result, waiting at most the per-future limit and never past the deadline."""
        if future.done():
            return future.result()
        limit_end = None if self.future_s is None else self._clock() + self.future_s
        while True:
            now = self._clock()
            if self._end is not None and now >= self._end:
                raise DeadlineExceeded(self._cause, self._late_text())
            if limit_end is not None and now >= limit_end:
                raise DeadlineExceeded("future", f"a model result took longer than {self.future_s} s")
            step = min([SLICE_S] + [e - now for e in (self._end, limit_end) if e is not None])
            try:
                return future.result(timeout=max(step, 0.0))
            except FutureTimeout:
                continue

    def _late_text(self) -> str:
        if self._cause == "shutdown":
            return "scoring cut short by shutdown"
        return "the batch's scoring deadline passed before this response's model results came back"
