"""Dynamic batcher: one owner thread, many submitters.

Pairs from every claim of every response in flight are queued; the owner
closes a batch on a token budget (padded cost = longest x items), a maximum
item count or a maximum wait, sorts by length to cut padding, and resolves
each submitter's future. When a batch fails, every item in it gets the error.
"""

from __future__ import annotations

import queue
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass, field

from scorers.nli.base import NLIBackend, Pair
from scorers.records import NLIScores


@dataclass
class _Item:
    pair: Pair
    length: int
    future: Future = field(default_factory=Future)


@dataclass
class BatchStats:
    batches: int = 0
    pairs: int = 0
    padded_tokens: int = 0
    real_tokens: int = 0
    sizes: list[int] = field(default_factory=list)


class DynamicBatcher:
    def __init__(self, backend: NLIBackend, max_batch_tokens: int = 8192, max_batch_size: int = 64,
                 max_wait_ms: float = 5.0, max_queue: int = 100_000, on_batch=None):
        self.backend = backend
        self.max_batch_tokens = max_batch_tokens
        self.max_batch_size = max_batch_size
        self.max_wait = max_wait_ms / 1000.0
        self._queue: queue.Queue[_Item | None] = queue.Queue(maxsize=max_queue)
        self._on_batch = on_batch  # callback(size, seconds) for metrics
        self.stats = BatchStats()
        self._thread = threading.Thread(target=self._run, name="nli-batcher", daemon=True)
        self._closed = False
        self._thread.start()

    def submit(self, pairs: list[Pair]) -> list[Future]:
        """Queue pairs; blocks when the queue is full (backpressure, never drops)."""
        if self._closed:
            raise RuntimeError("batcher is closed")
        lengths = self.backend.token_lengths(pairs) if pairs else []
        items = [_Item(p, n) for p, n in zip(pairs, lengths)]
        for item in items:
            self._queue.put(item)
        return [i.future for i in items]

    def predict(self, pairs: list[Pair]) -> list[NLIScores]:
        return [f.result() for f in self.submit(pairs)]

    def close(self, timeout: float = 10.0) -> None:
        if not self._closed:
            self._closed = True
            self._queue.put(None)
            self._thread.join(timeout)

    def _collect(self) -> tuple[list[_Item], bool]:
        first = self._queue.get()
        if first is None:
            return [], True
        items = [first]
        deadline = time.monotonic() + self.max_wait
        longest = first.length
        while len(items) < self.max_batch_size * 4:
            remaining = deadline - time.monotonic()
            try:
                item = self._queue.get(timeout=max(remaining, 0)) if remaining > 0 else self._queue.get_nowait()
            except queue.Empty:
                break
            if item is None:
                self._run_batches(items)
                return [], True
            items.append(item)
            longest = max(longest, item.length)
            if longest * len(items) >= self.max_batch_tokens * 4:
                break
        return items, False

    def _batches(self, items: list[_Item]) -> list[list[_Item]]:
        """Split sorted items so each batch fits the token budget and the size cap."""
        items = sorted(items, key=lambda i: i.length)
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

    def _run_batches(self, items: list[_Item]) -> None:
        for batch in self._batches(items):
            start = time.perf_counter()
            try:
                scores = self.backend.predict([i.pair for i in batch])
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
            if items:
                self._run_batches(items)
            if stop:
                return
