"""Score (premise, claim) pairs: the pair cache in front of the dynamic batcher.

Identical pairs are scored once: the cache key is (model version, premise
hash, claim hash), and a pair already on its way to the model is joined rather
than sent again, so how many pairs reach the model does not depend on timing.
Pairs not in the cache go to the batcher, which tokenizes each once and
windows long premises (scorers/nli/batcher.py). The cache and the in-flight
table are read by submitters and written by the batcher's thread (future
callbacks), so every access holds `_lock`.

The cache holds at most `cache_size` scores, least recently used out first
(scorer.pair_cache_size); 0 turns it off, and with it the joins of pairs in
flight, so every pair goes to the model (a pair repeated within one call is
still scored once). Each call counts its pairs as hits, misses (sent to the
model) and joined (waiting on a copy in flight) in `stats`, and reports them
to `on_lookups(hits, misses, joined, entries)` for the metrics.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Callable

from groundwatch.scorers.nli.base import NLIBackend, Pair
from groundwatch.scorers.nli.batcher import DynamicBatcher
from groundwatch.scorers.records import NLIScores


def _key(version: str, premise: str, claim: str) -> tuple[str, str, str]:
    h = lambda s: hashlib.sha1(s.encode("utf-8")).hexdigest()  # noqa: E731
    return version, h(premise), h(claim)


@dataclass
class CacheStats:
    hits: int = 0
    misses: int = 0   # sent to the model
    joined: int = 0   # answered by a copy already on its way (in flight, or earlier in the same call)


class PairScorer:
    def __init__(self, backend: NLIBackend, batcher: DynamicBatcher, model_version: str,
                 cache_size: int = 100_000, rewrite: Callable[[str], str] | None = None,
                 on_lookups: Callable[[int, int, int, int], None] | None = None):
        if cache_size < 0:
            raise ValueError(f"pair cache size must be >= 0, got {cache_size}")
        self.backend = backend
        self.rewrite = rewrite  # applied to premise and claim before scoring (scorers/english/polarity_form.py)
        self.batcher = batcher
        self.model_version = model_version
        self._cache: OrderedDict[tuple, NLIScores] = OrderedDict()
        self._in_flight: dict[tuple, tuple[float | None, list[Future]]] = {}  # key -> (expires_at, waiters)
        self._lock = threading.Lock()
        self._cache_size = cache_size
        self.stats = CacheStats()
        self._on_lookups = on_lookups

    def __len__(self) -> int:
        """Scores held in the cache."""
        return len(self._cache)

    def clear(self) -> None:
        """Forget every cached score (a benchmark's cold run); pairs in flight are not touched."""
        with self._lock:
            self._cache.clear()

    def submit(self, pairs: list[Pair], expires_at: float | None = None) -> list[Future]:
        """One future per pair, resolving to its (window-aggregated) NLIScores; pairs not scored by
        `expires_at` (time.monotonic) fail with DeadlineExceeded and are not cached."""
        results: list[Future] = []
        to_score: dict[tuple, tuple[Pair, list[Future]]] = {}
        hits = joined = 0
        for premise, claim in pairs:
            if self.rewrite is not None:
                premise, claim = self.rewrite(premise), self.rewrite(claim)
            key = _key(self.model_version, premise, claim)
            fut: Future = Future()
            results.append(fut)
            cached = None
            if self._cache_size:
                with self._lock:
                    cached = self._cache.get(key)
                    if cached is not None:
                        self._cache.move_to_end(key)
                    elif key not in to_score and self._joinable(key, expires_at):
                        self._in_flight[key][1].append(fut)
                        joined += 1
                        continue
            if cached is not None:
                hits += 1
                fut.set_result(cached)
            elif key in to_score:
                joined += 1
                to_score[key][1].append(fut)
            else:
                to_score[key] = ((premise, claim), [fut])
        self._count(hits, len(to_score), joined)
        if to_score:
            self._send(to_score, expires_at)
        return results

    def _count(self, hits: int, misses: int, joined: int) -> None:
        with self._lock:
            self.stats.hits += hits
            self.stats.misses += misses
            self.stats.joined += joined
            entries = len(self._cache)
        if self._on_lookups is not None and (hits or misses or joined):
            self._on_lookups(hits, misses, joined, entries)

    def _joinable(self, key: tuple, expires_at: float | None) -> bool:
        """A pair in flight serves a new waiter unless it may expire before the new waiter's deadline."""
        flight = self._in_flight.get(key)
        if flight is None:
            return False
        return flight[0] is None or (expires_at is not None and flight[0] >= expires_at)

    def _send(self, to_score: dict[tuple, tuple[Pair, list[Future]]], expires_at: float | None) -> None:
        """Queue the pairs; each is listed as in flight (unless an earlier-expiring copy already is)."""
        with self._lock:  # without a cache nothing joins, so nothing is listed
            listed = {key for key in to_score if key not in self._in_flight} if self._cache_size else set()
            for key in listed:
                self._in_flight[key] = (expires_at, to_score[key][1])
        try:
            batch_futures = self.batcher.submit([pair for pair, _ in to_score.values()], expires_at)
        except Exception as exc:
            with self._lock:  # waiters that joined meanwhile must not wait forever
                for key in listed:
                    del self._in_flight[key]
            for _, waiters in to_score.values():
                for w in waiters:
                    w.set_exception(exc)
            raise
        for key, bf in zip(to_score, batch_futures):
            waiters = to_score[key][1]
            bf.add_done_callback(lambda done, key=key, waiters=waiters, listed=key in listed:
                                 self._settle(key, done, waiters, listed))

    def _settle(self, key: tuple, batch_future: Future, waiters: list[Future], listed: bool) -> None:
        """Runs on the batcher thread (or here if already done): cache the scores, answer every waiter.
        Caching and leaving the in-flight table happen under one lock, so no submitter sees neither."""
        error = batch_future.exception()
        with self._lock:
            if listed:
                del self._in_flight[key]
            if error is None and self._cache_size:
                self._cache[key] = batch_future.result()
                if len(self._cache) > self._cache_size:
                    self._cache.popitem(last=False)
        for w in waiters:
            if error is None:
                w.set_result(batch_future.result())
            else:
                w.set_exception(error)

    def score(self, pairs: list[Pair]) -> list[NLIScores]:
        return [f.result() for f in self.submit(pairs)]
