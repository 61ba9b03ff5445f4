"""The scorer's deadline (batch and per future, tightened by shutdown) and the pair cache under two threads."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from concurrent.futures import Future

import pytest

from groundwatch.scorers.deadline import Deadline
from groundwatch.scorers.errors import DeadlineExceeded, ScoringError
from groundwatch.scorers.nli.batcher import DynamicBatcher
from groundwatch.scorers.nli.pair_scorer import PairScorer
from groundwatch.scorers.records import NLIScores
from tests.tiny_models import SlowBackend


def _done(value) -> Future:
    f: Future = Future()
    f.set_result(value)
    return f


def test_a_result_already_there_is_used_even_after_the_deadline():
    deadline = Deadline(0.0, 0.0)
    assert deadline.expired()
    assert deadline.result(_done(7)) == 7


def test_a_late_future_fails_with_the_per_future_limit():
    deadline = Deadline(30.0, future_s=0.05)
    with pytest.raises(DeadlineExceeded) as caught:
        deadline.result(Future())
    assert caught.value.cause == "future" and caught.value.reason == "deadline"
    assert isinstance(caught.value, ScoringError) and caught.value.stage == "deadline"


def test_the_batch_deadline_bounds_every_wait_after_it():
    deadline = Deadline(0.05, future_s=30.0)
    with pytest.raises(DeadlineExceeded) as caught:
        deadline.result(Future())
    assert caught.value.cause == "batch"
    with pytest.raises(DeadlineExceeded):
        deadline.result(Future())  # the next one does not wait again


def test_shutdown_tightens_a_wait_in_progress_from_another_thread():
    deadline = Deadline(60.0, future_s=60.0)
    threading.Timer(0.1, lambda: deadline.tighten(time.monotonic(), "shutdown")).start()
    with pytest.raises(DeadlineExceeded) as caught:
        deadline.result(Future())
    assert caught.value.cause == "shutdown" and "shutdown" in str(caught.value)
    deadline.tighten(time.monotonic() + 100, "later")  # never loosened
    assert deadline.cause == "shutdown"


def test_scoring_error_wraps_what_escaped_a_stage():
    error = ScoringError.wrap("pairs", KeyError("x"))
    assert (error.stage, error.reason, error.error_class) == ("pairs", "pairs", "KeyError")
    assert ScoringError.wrap("verdict", error) is error


class _Tok:
    def __call__(self, text, add_special_tokens=False, return_offsets_mapping=False):
        ids = text.split()
        out = {"input_ids": ids}
        if return_offsets_mapping:
            out["offset_mapping"] = [(0, 1)] * len(ids)
        return out


class _Backend:
    tokenizer = _Tok()
    max_length = 256


class _ThreadedBatcher:
    """Resolves futures on its own thread, as the dynamic batcher does (cache writes happen there)."""

    def __init__(self):
        self.queue: list = []
        self.lock = threading.Lock()
        self.stop = False
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def submit(self, pairs, expires_at=None):
        futures = [Future() for _ in pairs]
        with self.lock:
            self.queue.extend(futures)
        return futures

    def _run(self):
        while not self.stop:
            with self.lock:
                todo, self.queue = self.queue, []
            for f in todo:
                f.set_result(NLIScores(0.5, 0.3, 0.2))
            time.sleep(0)


class _LockChecked(OrderedDict):
    """The cache, failing any access made without the scorer's lock held."""

    lock: threading.Lock

    def _check(self):
        if not self.lock.locked():
            raise AssertionError("pair cache touched without its lock")

    def get(self, *a):
        self._check()
        return super().get(*a)

    def __setitem__(self, k, v):
        self._check()
        super().__setitem__(k, v)

    def move_to_end(self, *a, **kw):
        self._check()
        super().move_to_end(*a, **kw)

    def popitem(self, *a, **kw):
        self._check()
        return super().popitem(*a, **kw)


def test_the_pair_cache_survives_submitters_and_the_batcher_thread_at_once():
    batcher = _ThreadedBatcher()
    scorer = PairScorer(_Backend(), batcher, "m", cache_size=8)  # tiny: evictions all the time
    scorer._cache = _LockChecked()
    scorer._cache.lock = scorer._lock
    errors: list = []

    def submitter(seed: int):
        try:
            for i in range(400):
                pairs = [(f"premise {(seed + i + j) % 12}", "claim") for j in range(4)]
                for f in scorer.submit(pairs):
                    assert f.result(timeout=5).entailment == 0.5
        except Exception as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=submitter, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    batcher.stop = True
    assert errors == [] and scorer.stats.hits > 0
    assert len(scorer._cache) <= 8


def test_the_batcher_drops_pairs_whose_deadline_passed_while_they_queued(tiny_onnx):
    backend = SlowBackend(tiny_onnx, delay=0.3)
    batcher = DynamicBatcher(backend, max_batch_size=1, max_wait_ms=0)
    try:
        first = batcher.submit([("The sky is blue.", "The sky is blue.")])
        long = "Grass is green and the meadow behind the old farm is wide."  # sorted after the first pair
        late = batcher.submit([(long, long)], expires_at=time.monotonic() + 0.1)
        kept = batcher.submit([("Snow is white.", "Snow is white.")], expires_at=time.monotonic() + 60)
        assert first[0].result(10).entailment > 0.9 and kept[0].result(10).entailment > 0.9
        with pytest.raises(DeadlineExceeded) as caught:
            late[0].result(10)
        assert caught.value.reason == "deadline"
        assert long not in backend.scored and batcher.stats.expired == 1
    finally:
        batcher.close()


def test_an_expired_pair_is_not_cached(tiny_onnx):
    backend = SlowBackend(tiny_onnx, delay=0.3)
    backend.delay = 0.0
    batcher = DynamicBatcher(backend, max_wait_ms=0)
    scorer = PairScorer(backend, batcher, "v")
    try:
        [gone] = scorer.submit([("A cat.", "A cat.")], expires_at=time.monotonic() - 1)
        with pytest.raises(DeadlineExceeded):
            gone.result(10)
        assert scorer.score([("A cat.", "A cat.")])[0].entailment > 0.9 and backend.scored == ["A cat."]
    finally:
        batcher.close()


def test_a_pair_already_in_flight_is_joined_not_scored_again(tiny_onnx):
    backend = SlowBackend(tiny_onnx, delay=0.3)  # each batch held 0.3 s: the second submit finds the pair in flight
    batcher = DynamicBatcher(backend, max_wait_ms=0)
    scorer = PairScorer(backend, batcher, "v")
    try:
        first = scorer.submit([("A dog.", "A dog.")])
        second = scorer.submit([("A dog.", "A dog.")], expires_at=time.monotonic() + 60)
        assert first[0].result(10) == second[0].result(10) and backend.scored == ["A dog."]
        assert scorer._in_flight == {} and scorer.score([("A dog.", "A dog.")]) == [first[0].result()]
    finally:
        batcher.close()


def test_a_pair_in_flight_that_may_expire_first_is_not_joined(tiny_onnx):
    backend = SlowBackend(tiny_onnx, delay=0.3)
    batcher = DynamicBatcher(backend, max_batch_size=1, max_wait_ms=0)
    scorer = PairScorer(backend, batcher, "v")
    try:
        blocker = scorer.submit([("Busy.", "Busy.")])  # holds the model while the next two queue
        soon = scorer.submit([("A cow.", "A cow.")], expires_at=time.monotonic() + 0.1)
        later = scorer.submit([("A cow.", "A cow.")], expires_at=time.monotonic() + 60)
        blocker[0].result(10)
        with pytest.raises(DeadlineExceeded):
            soon[0].result(10)
        assert later[0].result(10).entailment > 0.9 and backend.scored == ["Busy.", "A cow."]
        assert scorer._in_flight == {}
    finally:
        batcher.close()


def test_a_refused_submit_leaves_nobody_waiting(tiny_onnx):
    backend = SlowBackend(tiny_onnx, delay=0.3)
    batcher = DynamicBatcher(backend)
    scorer = PairScorer(backend, batcher, "v")
    batcher.close()
    with pytest.raises(RuntimeError, match="closed"):
        scorer.submit([("A hen.", "A hen.")])
    assert scorer._in_flight == {}
