"""NLI backend, batcher and pair scorer on a tiny random model exported to ONNX."""

import threading

import numpy as np
import pytest

from groundwatch.scorers.errors import ModelLoadError
from groundwatch.scorers.nli.base import read_label_order
from groundwatch.scorers.nli.batcher import DynamicBatcher
from groundwatch.scorers.nli.factory import load_backend
from groundwatch.scorers.nli.pair_scorer import PairScorer

PAIRS = [("Refunds are available within 30 days of purchase.", "Refunds take 60 days."),
         ("A man plays a guitar.", "Someone makes music."),
         ("The office is closed on Sundays and public holidays in Germany and Austria.", "The office opens Sunday."),
         ("Short.", "A much longer hypothesis with many more tokens than the premise has in it."),
         ("x " * 40, "y")]


@pytest.fixture(scope="module")
def backend(tiny_onnx):
    return load_backend(tiny_onnx, "onnx", providers="cpu")


def test_backend_reports_provider_precision_and_health(backend):
    assert backend.provider == "cpu" and backend.precision == "fp32"
    assert backend.health()


def test_probabilities_sum_to_one_by_position(backend):
    scores = backend.predict(PAIRS)
    assert len(scores) == len(PAIRS)
    for s in scores:
        assert s.entailment + s.neutral + s.contradiction == pytest.approx(1.0, abs=1e-5)


def test_a_pair_scored_inside_a_batch_equals_it_scored_alone(backend):
    batcher = DynamicBatcher(backend, max_batch_tokens=4096, max_batch_size=16, max_wait_ms=50)
    try:
        together = batcher.predict(PAIRS)
        alone = [backend.predict([p])[0] for p in PAIRS]
        for a, b in zip(together, alone):
            assert a.entailment == pytest.approx(b.entailment, abs=1e-5)
            assert a.contradiction == pytest.approx(b.contradiction, abs=1e-5)
        assert batcher.stats.pairs == len(PAIRS) and batcher.stats.batches >= 1
    finally:
        batcher.close()


def test_batches_respect_token_budget_and_size(backend):
    batcher = DynamicBatcher(backend, max_batch_tokens=64, max_batch_size=2, max_wait_ms=20)
    try:
        batcher.predict(PAIRS * 3)
        assert max(batcher.stats.sizes) <= 2
        assert batcher.stats.pairs == 15
    finally:
        batcher.close()


def test_many_submitters_share_batches(backend):
    batcher = DynamicBatcher(backend, max_batch_tokens=8192, max_batch_size=64, max_wait_ms=100)
    results = {}

    def work(i):
        results[i] = batcher.predict([PAIRS[i % len(PAIRS)]])

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    batcher.close()
    assert len(results) == 8 and batcher.stats.batches < 8


class Exploding:
    """A backend whose inference fails, to check that every waiter hears of it."""

    def __init__(self, inner):
        self.inner = inner

    def tokenize(self, pairs, windows=False):
        return self.inner.tokenize(pairs, windows)

    def predict(self, pairs):
        raise RuntimeError("device lost")


def test_a_failed_batch_fails_every_item(backend):
    batcher = DynamicBatcher(Exploding(backend), max_wait_ms=20)
    try:
        futures = batcher.submit(PAIRS[:3])
        for f in futures:
            with pytest.raises(RuntimeError, match="device lost"):
                f.result(timeout=10)
    finally:
        batcher.close()


def test_long_premises_are_scored_as_overlapping_windows(backend):
    batcher = DynamicBatcher(backend)
    scorer = PairScorer(backend, batcher, "tiny")
    try:
        premise = " ".join(f"Fact number {i} is that item {i} costs {i} euros." for i in range(80))
        [encodings] = backend.tokenize([(premise, "Item 79 costs 79 euros.")], windows=True)
        windows = [e.pair[0] for e in encodings]
        assert len(windows) > 1 and all(len(e) <= backend.max_length for e in encodings)
        assert windows[0].startswith("Fact number 0") and "Fact number 79" in windows[-1]
        # consecutive windows overlap
        assert windows[0][-20:] in premise and windows[1][:15] in windows[0]
        [whole] = scorer.score([(premise, "Item 79 costs 79 euros.")])
        per_window = backend.predict(encodings)
        assert whole.entailment == pytest.approx(max(s.entailment for s in per_window), abs=1e-5)
        assert whole.contradiction == pytest.approx(max(s.contradiction for s in per_window), abs=1e-5)
        assert batcher.stats.pairs == len(encodings)  # one model input per window
    finally:
        batcher.close()


def test_identical_pairs_are_scored_once(backend):
    batcher = DynamicBatcher(backend)
    scorer = PairScorer(backend, batcher, "tiny")
    try:
        scorer.score(PAIRS[:2])
        before = batcher.stats.pairs
        again = scorer.score(PAIRS[:2] + PAIRS[:2])
        assert batcher.stats.pairs == before and scorer.stats.hits == 4 and len(again) == 4
    finally:
        batcher.close()


def test_label_order_comes_from_id2label(tmp_path):
    import json

    (tmp_path / "config.json").write_text(json.dumps({"id2label": {"0": "CONTRADICTION", "1": "ENTAILMENT",
                                                                  "2": "NEUTRAL"}}))
    assert read_label_order(tmp_path) == {"contradiction": 0, "entailment": 1, "neutral": 2}
    (tmp_path / "config.json").write_text(json.dumps({"id2label": {"0": "LABEL_0", "1": "LABEL_1"}}))
    with pytest.raises(ModelLoadError, match="id2label"):
        read_label_order(tmp_path)


def test_missing_model_directory_is_a_clear_error(tmp_path):
    with pytest.raises(ModelLoadError, match="not found"):
        load_backend(tmp_path / "nope")


def test_a_rewrite_is_applied_to_both_sides_before_scoring_and_caching(backend):
    batcher = DynamicBatcher(backend)
    scorer = PairScorer(backend, batcher, "tiny", rewrite=lambda text: text.replace("optional", "not required"))
    try:
        [rewritten] = scorer.score([("Entry is optional.", "Entry is optional.")])
        [direct] = backend.predict([("Entry is not required.", "Entry is not required.")])
        assert rewritten.entailment == pytest.approx(direct.entailment, abs=1e-5)
        before = batcher.stats.pairs
        scorer.score([("Entry is not required.", "Entry is not required.")])  # the same input: cached
        assert batcher.stats.pairs == before
    finally:
        batcher.close()
