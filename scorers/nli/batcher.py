"""Dynamic batcher: one owner thread, many submitters.

Pairs from every claim of every response in flight are queued; the owner
closes a batch on a token budget (padded cost = longest x items), a maximum
item count or a maximum wait, sorts by length to cut padding, and resolves
each submitter's future. The wait only applies while a submission is in
progress: with the queue empty and nobody submitting, nothing else is coming,
so the batch closes at once (one answer at a time pays no timer). A caller
that submits in a loop holds `submitting()` around it, so its pairs share
batches. When a batch fails, every item in it gets the error.
An item may carry an expiry (its submitter's deadline): once that has passed
when its batch is about to run, it is dropped unscored and its future fails
with DeadlineExceeded, so late work never delays the next batch.

The batcher owns the encodings: `submit` tokenizes each pair once
(scorers/nli/encoding.py), cutting premises longer than the model window into
overlapping token windows; the lengths that size the batches are those
encodings' lengths, and the backend scores the same encodings. A pair's future
resolves once all its windows are scored: the window with the highest
entailment, with the highest contradiction of any window (a contradiction
anywhere counts).
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from concurrent.futures import Future
from contextlib import contextmanager
from dataclasses import dataclass, field

from groundwatch.config.logs import get_logger
from groundwatch.scorers.errors import DeadlineExceeded
from groundwatch.scorers.nli.base import NLIBackend
from groundwatch.scorers.nli.encoding import Pair, PairEncoding
from groundwatch.scorers.records import NLIScores

log = get_logger(__name__)


@dataclass
class _Item:
    encoding: PairEncoding
    future: Future = field(default_factory=Future)
    expires_at: float | None = None  # time.monotonic; None: never

    @property
    def length(self) -> int:
        return len(self.encoding)


def combine_windows(scores: list[NLIScores]) -> NLIScores:
    """One pair's score from its premise windows: best entailment, worst contradiction."""
    best = max(scores, key=lambda s: s.entailment)
    if len(scores) > 1:
        best = NLIScores(best.entailment, best.neutral, max(s.contradiction for s in scores))
    return best


def _gather(pair_future: Future, window_futures: list[Future]) -> None:
    """Resolve pair_future from its windows' futures (callbacks run on the batcher thread)."""
    state = {"left": len(window_futures)}
    lock = threading.Lock()

    def done(_):
        with lock:
            state["left"] -= 1
            if state["left"]:
                return
        try:
            pair_future.set_result(combine_windows([wf.result() for wf in window_futures]))
        except Exception as exc:  # noqa: BLE001 - a failed window fails the pair
            pair_future.set_exception(exc)

    for wf in window_futures:
        wf.add_done_callback(done)


@dataclass
class BatchStats:
    batches: int = 0
    pairs: int = 0
    padded_tokens: int = 0
    real_tokens: int = 0
    sizes: list[int] = field(default_factory=list)
    expired: int = 0  # items dropped unscored because their deadline had passed


class DynamicBatcher:
    def __init__(self, backend: NLIBackend, max_batch_tokens: int = 2048, max_batch_size: int = 64,
                 max_wait_ms: float = 5.0, max_queue: int = 100_000, on_batch=None):
        self.backend = backend
        self.max_batch_tokens = max_batch_tokens
        self.max_batch_size = max_batch_size
        self._whole = getattr(backend, "chunks_batches", False)  # hand it everything collected (base.py)
        self.max_wait = max_wait_ms / 1000.0
        self._max_queue = max_queue
        self._queue: deque[_Item] = deque()
        self._submitting = 0  # submissions in progress: while any is, a batch may wait for more
        self._changed = threading.Condition()  # guards the queue, _submitting and _closed
        self._on_batch = on_batch  # callback(size, seconds) for metrics
        self.stats = BatchStats()
        self._thread = threading.Thread(target=self._run, name="nli-batcher", daemon=True)
        self._closed = False
        self._thread.start()

    @contextmanager
    def submitting(self):
        """Marks a submission in progress: batches may wait (up to max_wait) for its items."""
        with self._changed:
            self._submitting += 1
        try:
            yield
        finally:
            with self._changed:
                self._submitting -= 1
                self._changed.notify_all()

    def submit(self, pairs: list[Pair], expires_at: float | None = None) -> list[Future]:
        """Queue pairs, one future each; blocks when the queue is full (backpressure). A pair still
        unscored at `expires_at` (time.monotonic) is dropped and its future fails with DeadlineExceeded."""
        if self._closed:
            raise RuntimeError("batcher is closed")
        futures = []
        with self.submitting():
            for windows in self.backend.tokenize(pairs, windows=True) if pairs else []:
                items = [_Item(e, expires_at=expires_at) for e in windows]
                if len(items) == 1:
                    futures.append(items[0].future)
                else:
                    pair_future: Future = Future()
                    _gather(pair_future, [i.future for i in items])
                    futures.append(pair_future)
                for item in items:
                    self._put(item)
        return futures

    def _put(self, item: _Item) -> None:
        with self._changed:
            while len(self._queue) >= self._max_queue and not self._closed:
                self._changed.wait()
            self._queue.append(item)
            self._changed.notify_all()

    def predict(self, pairs: list[Pair]) -> list[NLIScores]:
        return [f.result() for f in self.submit(pairs)]

    def close(self, timeout: float = 10.0) -> None:
        if not self._closed:
            with self._changed:
                self._closed = True
                self._changed.notify_all()
            self._thread.join(timeout)

    def _collect(self) -> tuple[list[_Item], bool]:
        """The next items to batch, and whether the batcher is closing (after these)."""
        with self._changed:
            while not self._queue and not self._closed:
                self._changed.wait()
            if not self._queue:
                return [], True
            items = [self._queue.popleft()]
            longest = items[0].length
            deadline = time.monotonic() + self.max_wait
            budget = math.inf if self._whole else self.max_batch_tokens * 4
            while len(items) < self.max_batch_size * 4 and longest * len(items) < budget:
                if self._queue:
                    items.append(self._queue.popleft())
                    longest = max(longest, items[-1].length)
                    continue
                remaining = deadline - time.monotonic()
                if self._closed or not self._submitting or remaining <= 0:
                    break  # nothing else is coming, or the wait is over
                self._changed.wait(remaining)
            self._changed.notify_all()  # room in the queue for blocked submitters
            return items, self._closed and not self._queue

    def _batches(self, items: list[_Item]) -> list[list[_Item]]:
        """Split sorted items so each batch fits the token budget and the size cap (one batch for a backend that
        cuts its own chunks)."""
        items = sorted(items, key=lambda i: i.length)
        if self._whole:
            return [items]
        batches, current = [], []
        for item in items:
            if current and (len(current) >= self.max_batch_size
                            or item.length * (len(current) + 1) > self.max_batch_tokens):
                batches.append(current)
                current = []
            current.append(item)
        if current:
            batches.append(current)
        return batches

    def _live(self, batch: list[_Item]) -> list[_Item]:
        """The items still wanted; the expired ones fail now, unscored."""
        now = time.monotonic()
        live = []
        for item in batch:
            if item.expires_at is not None and now >= item.expires_at:
                self.stats.expired += 1
                item.future.set_exception(DeadlineExceeded("batch", "the deadline passed before this pair was scored"))
            else:
                live.append(item)
        return live

    def _run_batches(self, items: list[_Item]) -> None:
        for batch in self._batches(items):
            batch = self._live(batch)
            if not batch:
                continue
            start = time.perf_counter()
            try:
                scores = self.backend.predict([i.encoding for i in batch])
            except Exception as exc:  # noqa: BLE001 - every waiter must learn of the failure
                for item in batch:
                    item.future.set_exception(exc)
                continue
            for item, score in zip(batch, scores):
                item.future.set_result(score)
            self._record(batch, time.perf_counter() - start)

    def _record(self, batch: list[_Item], seconds: float) -> None:
        s = self.stats
        s.batches += 1
        s.pairs += len(batch)
        s.padded_tokens += max(i.length for i in batch) * len(batch)
        s.real_tokens += sum(i.length for i in batch)
        if len(s.sizes) < 10000:
            s.sizes.append(len(batch))
        if self._on_batch:
            self._on_batch(len(batch), seconds)

    def _run(self) -> None:
        while True:
            items, stop = self._collect()
            try:
                if items:
                    self._run_batches(items)
            except Exception as exc:  # noqa: BLE001 - a dead batcher thread would leave every later caller waiting
                log.error("nli_batcher_error", error=type(exc).__name__)
                for item in items:
                    if not item.future.done():
                        item.future.set_exception(exc)
            if stop:
                return
