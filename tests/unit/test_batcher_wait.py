"""The batcher's wait: none when nothing else is coming, the full max_wait while a submission is in progress."""

from __future__ import annotations

import threading
import time

import pytest

from groundwatch.scorers.nli.batcher import DynamicBatcher
from groundwatch.scorers.nli.fake_backend import FakeBackend


class RecordingBackend(FakeBackend):
    """The fake backend, recording the claims of each batch it scored."""

    def __init__(self, model_dir):
        super().__init__(model_dir)
        self.batches: list[list[str]] = []

    def predict(self, items):
        self.batches.append(sorted(i.pair[1] for i in items))
        return super().predict(items)


@pytest.fixture
def backend(tiny_onnx):
    return RecordingBackend(tiny_onnx)


def test_one_submitter_does_not_wait_for_the_timer(backend):
    batcher = DynamicBatcher(backend, max_wait_ms=2000)
    try:
        start = time.monotonic()
        batcher.predict([("A dog.", "A dog."), ("A cat sat.", "A cat sat.")])
        batcher.predict([("A hen.", "A hen.")])
        assert time.monotonic() - start < 1.0  # two batches, either would have waited 2 s before
        assert backend.batches == [["A cat sat.", "A dog."], ["A hen."]]
    finally:
        batcher.close()


def test_a_submission_in_progress_joins_the_batch(backend):
    batcher = DynamicBatcher(backend, max_wait_ms=2000)
    try:
        with batcher.submitting():  # as the scorer holds it around its per-claim submissions
            first = batcher.submit([("A dog.", "A dog.")])
            time.sleep(0.2)  # the batcher has the first item and waits: a submission is still in progress
            second = batcher.submit([("A cat.", "A cat.")])
        assert first[0].result(10) and second[0].result(10)
        assert backend.batches == [["A cat.", "A dog."]]
    finally:
        batcher.close()


def test_another_threads_submit_in_progress_is_not_cut_in_the_middle(backend):
    started, release = threading.Event(), threading.Event()

    class SlowTokenizer(RecordingBackend):
        def tokenize(self, pairs, windows=False):
            out = super().tokenize(pairs, windows=windows)
            if pairs[0][1] == "A cow.":  # the other thread: still tokenizing when the first item is queued
                started.set()
                release.wait(10)
            return out

    slow = SlowTokenizer(backend.model_dir)
    batcher = DynamicBatcher(slow, max_wait_ms=2000)
    try:
        other = threading.Thread(target=lambda: batcher.predict([("A cow.", "A cow."), ("A pig.", "A pig.")]))
        other.start()
        assert started.wait(10)
        mine = batcher.submit([("A dog.", "A dog.")])
        time.sleep(0.2)
        release.set()
        other.join(10)
        assert mine[0].result(10)
        assert slow.batches == [["A cow.", "A dog.", "A pig."]]
    finally:
        batcher.close()


def test_the_token_budget_still_closes_a_batch_mid_submission(backend):
    batcher = DynamicBatcher(backend, max_batch_tokens=16, max_batch_size=64, max_wait_ms=2000)
    try:
        pairs = [(f"Item {i} costs {i} euros.", f"Item {i} costs {i} euros.") for i in range(40)]
        start = time.monotonic()
        scores = batcher.predict(pairs)
        assert len(scores) == 40 and batcher.stats.batches > 1 and time.monotonic() - start < 1.0
    finally:
        batcher.close()


def test_a_backend_that_cuts_its_own_chunks_gets_everything_collected_at_once(backend):
    backend.chunks_batches = True  # as the torch backend with fixed shapes: its memory is a chunk's, not a batch's
    batcher = DynamicBatcher(backend, max_batch_tokens=16, max_batch_size=64, max_wait_ms=2000)
    try:
        pairs = [(f"Item {i} costs {i} euros.", f"Item {i} costs {i} euros.") for i in range(40)]
        assert len(batcher.predict(pairs)) == 40
        assert batcher.stats.batches == 1 and len(backend.batches[0]) == 40
    finally:
        batcher.close()


def test_an_error_outside_the_model_fails_its_pairs_and_the_batcher_keeps_serving(backend):
    calls = []

    def on_batch(size, seconds):  # a metrics callback that fails once
        calls.append(size)
        if len(calls) == 1:
            raise RuntimeError("metrics backend down")

    batcher = DynamicBatcher(backend, max_wait_ms=50, on_batch=on_batch)
    try:
        assert batcher.submit([("A dog.", "A dog.")])[0].result(10)  # scored before the callback failed
        assert batcher.submit([("A hen.", "A hen.")])[0].result(10)  # the thread is still alive
    finally:
        batcher.close()
