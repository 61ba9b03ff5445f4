"""One owner thread scores what concurrent requests queued, in one scorer call.

Requests submit a response and get a future; the owner takes everything
queued (up to `max_batch` responses) and calls `scorer.score` once, so the
claims of many requests share the NLI batcher's model batches and one
embedding call. While one call runs the next requests queue, so the batch
grows with the load. Under concurrent load (the previous call had more than
one response, or requests arrived while it ran) the owner waits up to
`wait_ms` for more after the first: clients answered together come back a
few milliseconds apart, and two clients would otherwise take turns with one
response per call. A lone client never waits. The
queue is bounded: a full queue refuses (Overloaded) instead of buffering
without limit. A request that gave up (its future cancelled) is skipped; when
a call fails, every future in it gets the error. Each call runs under the
scorer's own deadline mechanism (scorers/deadline.py) until the latest
deadline of its requests: model results later than that come back as
DeadlineExceeded for their response, and the owner moves on.
"""

from __future__ import annotations

import queue
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Callable

from groundwatch.config.logs import get_logger
from groundwatch.scorers.deadline import Deadline
from groundwatch.scorers.schema import Response

log = get_logger(__name__)


class Overloaded(RuntimeError):
    """The queue is full: answer 503 and let the client retry."""


@dataclass
class _Item:
    response: Response
    expires: float | None = None  # monotonic time the request's deadline passes; None: no limit
    future: Future = field(default_factory=Future)


class Collector:
    def __init__(self, scorer, max_batch: int = 32, max_queue: int = 1024, wait_ms: float = 0.0,
                 on_batch: Callable[[int, float], None] | None = None, future_s: float | None = None):
        self.scorer = scorer
        self.future_s = future_s  # the scorer's per-result limit (scorer.future_timeout_s)
        self.max_batch = max_batch
        self.wait = wait_ms / 1000.0
        self._queue: queue.Queue[_Item | None] = queue.Queue(maxsize=max_queue)
        self._on_batch = on_batch or (lambda responses, seconds: None)
        self._closed = False
        self.calls = 0
        self._concurrent = False  # the last call had company, or requests queued while it ran
        self._busy_since: float | None = None  # monotonic start of the scorer call running now
        self._thread = threading.Thread(target=self._run, name="serve-collector", daemon=True)
        self._thread.start()

    @property
    def alive(self) -> bool:
        return self._thread.is_alive() and not self._closed

    def depth(self) -> int:
        return self._queue.qsize()

    def busy_for(self) -> float:
        """Seconds the scorer call running now has taken (0 when idle): readiness fails past a limit."""
        since = self._busy_since
        return 0.0 if since is None else time.monotonic() - since

    def submit(self, response: Response, deadline_s: float | None = None) -> Future:
        """A future of the response's ResponseVerdict (or ScoringError); Overloaded when full."""
        if self._closed:
            raise Overloaded("shutting down")
        item = _Item(response, None if deadline_s is None else time.monotonic() + deadline_s)
        try:
            self._queue.put_nowait(item)
        except queue.Full:
            raise Overloaded(f"{self._queue.maxsize} responses already waiting") from None
        return item.future

    def close(self, timeout: float = 30.0) -> None:
        """Score what is queued, then stop."""
        if not self._closed:
            self._closed = True
            self._queue.put(None)
            self._thread.join(timeout)

    def _take(self) -> tuple[list[_Item], bool]:
        first = self._queue.get()
        if first is None:
            return [], True
        items, stop = [first], False
        until = time.monotonic() + (self.wait if self._concurrent else 0.0)
        while len(items) < self.max_batch:
            left = until - time.monotonic()
            try:
                item = self._queue.get(timeout=left) if left > 0 else self._queue.get_nowait()
            except queue.Empty:
                break
            if item is None:
                stop = True
                break
            items.append(item)
        return items, stop

    def _run(self) -> None:
        while True:
            items, stop = self._take()
            live = [i for i in items if i.future.set_running_or_notify_cancel()]
            if live:
                self._score(live)
            self._concurrent = len(live) > 1 or self._queue.qsize() > 0
            if stop:
                return

    def _score(self, items: list[_Item]) -> None:
        start = time.perf_counter()
        self._busy_since = time.monotonic()
        try:
            self._call(items, start)
        finally:
            self._busy_since = None

    def _call(self, items: list[_Item], start: float) -> None:
        ends = [i.expires for i in items]
        seconds = None if None in ends else max(0.0, max(ends) - time.monotonic())
        try:
            results = self.scorer.score([i.response for i in items], deadline=Deadline(seconds, self.future_s))
        except Exception as exc:  # noqa: BLE001 - every waiter must learn of the failure
            log.error("serve_score_failed", responses=len(items), error_class=type(exc).__name__)
            for item in items:
                item.future.set_exception(exc)
            return
        self.calls += 1
        self._on_batch(len(items), time.perf_counter() - start)
        for item, result in zip(items, results):
            item.future.set_result(result)
