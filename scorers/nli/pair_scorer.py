"""Score (premise, claim) pairs: cache, long-premise windows, dynamic batching.

Premises longer than the model's window are cut into overlapping token
windows; the pair takes the window with the highest entailment, and the
highest contradiction of any window (a contradiction anywhere counts).
Identical pairs are scored once: the cache key is (model version, premise
hash, claim hash). The cache is read by submitters and written by the
batcher's thread (future callbacks), so every access holds `_lock`.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from concurrent.futures import Future

from scorers.nli.base import NLIBackend, Pair
from scorers.nli.batcher import DynamicBatcher
from scorers.records import NLIScores


def _key(version: str, premise: str, claim: str) -> tuple[str, str, str]:
    h = lambda s: hashlib.sha1(s.encode("utf-8")).hexdigest()  # noqa: E731
    return version, h(premise), h(claim)


class PairScorer:
    def __init__(self, backend: NLIBackend, batcher: DynamicBatcher, model_version: str,
                 cache_size: int = 100_000, window_overlap: float = 0.2):
        self.backend = backend
        self.batcher = batcher
        self.model_version = model_version
        self._cache: OrderedDict[tuple, NLIScores] = OrderedDict()
        self._lock = threading.Lock()
        self._cache_size = cache_size
        self._overlap = window_overlap
        self.cache_hits = 0

    def windows(self, premise: str, claim: str) -> list[str]:
        """The premise itself, or overlapping slices of it that fit the model window."""
        tok = self.backend.tokenizer
        claim_len = len(tok(claim, add_special_tokens=False)["input_ids"])
        budget = self.backend.max_length - claim_len - 4
        enc = tok(premise, add_special_tokens=False, return_offsets_mapping=True)
        offsets = enc["offset_mapping"]
        if len(offsets) <= budget or budget < 16:
            return [premise]
        stride = max(8, int(budget * (1 - self._overlap)))
        out = []
        for start in range(0, len(offsets), stride):
            piece = offsets[start:start + budget]
            out.append(premise[piece[0][0]:piece[-1][1]])
            if start + budget >= len(offsets):
                break
        return out

    def submit(self, pairs: list[Pair]) -> list[Future]:
        """One future per pair, resolving to its (window-aggregated) NLIScores."""
        results: list[Future] = []
        pending: dict[tuple, list[tuple[Future, int]]] = {}
        to_score: list[Pair] = []
        owners: list[tuple[tuple, int]] = []
        for premise, claim in pairs:
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
                pending[key].append((fut, 0))
                continue
            wins = self.windows(premise, claim)
            pending[key] = [(fut, len(wins))]
            for w in wins:
                to_score.append((w, claim))
                owners.append((key, len(wins)))
        window_futures = self.batcher.submit(to_score) if to_score else []
        grouped: dict[tuple, list[Future]] = {}
        for (key, _), wf in zip(owners, window_futures):
            grouped.setdefault(key, []).append(wf)
        for key, wfs in grouped.items():
            self._chain(key, wfs, [f for f, _ in pending[key]])
        return results

    def _chain(self, key: tuple, window_futures: list[Future], waiters: list[Future]) -> None:
        state = {"left": len(window_futures)}
        lock = threading.Lock()  # callbacks run on the batcher thread, or here if already done

        def done(_):
            with lock:
                state["left"] -= 1
                if state["left"]:
                    return
            try:
                scores = [wf.result() for wf in window_futures]
            except Exception as exc:  # noqa: BLE001
                for w in waiters:
                    w.set_exception(exc)
                return
            best = max(scores, key=lambda s: s.entailment)
            if len(scores) > 1:
                best = NLIScores(best.entailment, best.neutral, max(s.contradiction for s in scores))
            self._store(key, best)
            for w in waiters:
                w.set_result(best)

        for wf in window_futures:
            wf.add_done_callback(done)

    def _store(self, key: tuple, scores: NLIScores) -> None:
        with self._lock:
            self._cache[key] = scores
            if len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)

    def score(self, pairs: list[Pair]) -> list[NLIScores]:
        return [f.result() for f in self.submit(pairs)]
