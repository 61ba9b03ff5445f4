"""Score (premise, claim) pairs: the pair cache in front of the dynamic batcher.

Identical pairs are scored once: the cache key is (model version, premise
hash, claim hash). Pairs not in the cache go to the batcher, which tokenizes
each once and windows long premises (scorers/nli/batcher.py). The cache is
read by submitters and written by the batcher's thread (future callbacks), so
every access holds `_lock`.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from concurrent.futures import Future
from typing import Callable

from groundwatch.scorers.nli.base import NLIBackend, Pair
from groundwatch.scorers.nli.batcher import DynamicBatcher
from groundwatch.scorers.records import NLIScores


def _key(version: str, premise: str, claim: str) -> tuple[str, str, str]:
    h = lambda s: hashlib.sha1(s.encode("utf-8")).hexdigest()  # noqa: E731
    return version, h(premise), h(claim)


class PairScorer:
    def __init__(self, backend: NLIBackend, batcher: DynamicBatcher, model_version: str,
                 cache_size: int = 100_000, rewrite: Callable[[str], str] | None = None):
        self.backend = backend
        self.rewrite = rewrite  # applied to premise and claim before scoring (scorers/polarity_form.py)
        self.batcher = batcher
        self.model_version = model_version
        self._cache: OrderedDict[tuple, NLIScores] = OrderedDict()
        self._lock = threading.Lock()
        self._cache_size = cache_size
        self.cache_hits = 0

    def submit(self, pairs: list[Pair], expires_at: float | None = None) -> list[Future]:
        """One future per pair, resolving to its (window-aggregated) NLIScores; pairs not scored by
        `expires_at` (time.monotonic) fail with DeadlineExceeded and are not cached."""
        results: list[Future] = []
        pending: dict[tuple, list[Future]] = {}
        to_score: list[Pair] = []
        for premise, claim in pairs:
            if self.rewrite is not None:
                premise, claim = self.rewrite(premise), self.rewrite(claim)
            key = _key(self.model_version, premise, claim)
            fut: Future = Future()
            results.append(fut)
            with self._lock:
                cached = self._cache.get(key)
                if cached is not None:
                    self._cache.move_to_end(key)
                    self.cache_hits += 1
            if cached is not None:
                fut.set_result(cached)
                continue
            if key in pending:
                pending[key].append(fut)
                continue
            pending[key] = [fut]
            to_score.append((premise, claim))
        batch_futures = self.batcher.submit(to_score, expires_at) if to_score else []
        for key, bf in zip(pending, batch_futures):
            self._chain(key, bf, pending[key])
        return results

    def _chain(self, key: tuple, batch_future: Future, waiters: list[Future]) -> None:
        def done(_):  # runs on the batcher thread, or here if already done
            try:
                scores = batch_future.result()
            except Exception as exc:  # noqa: BLE001
                for w in waiters:
                    w.set_exception(exc)
                return
            self._store(key, scores)
            for w in waiters:
                w.set_result(scores)

        batch_future.add_done_callback(done)

    def _store(self, key: tuple, scores: NLIScores) -> None:
        with self._lock:
            self._cache[key] = scores
            if len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)

    def score(self, pairs: list[Pair]) -> list[NLIScores]:
        return [f.result() for f in self.submit(pairs)]
