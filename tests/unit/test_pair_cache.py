"""The pair-score cache: its size setting, hit / miss / joined counts, the metrics they reach, LRU eviction."""

from __future__ import annotations

import pytest

from groundwatch.config.settings_check import SettingsError
from groundwatch.config.settings import load_settings
from groundwatch.config.scorer import ScorerConfig
from groundwatch.export.metrics import Metrics
from groundwatch.scorers.nli.batcher import DynamicBatcher
from groundwatch.scorers.nli.pair_scorer import CacheStats, PairScorer
from groundwatch.scorers.pipeline import Scorer
from groundwatch.scorers.schema import parse_response
from tests.tiny_models import SlowBackend


@pytest.fixture
def backend(tiny_onnx):
    return SlowBackend(tiny_onnx)


def _scorer(backend, size, lookups=None):
    batcher = DynamicBatcher(backend, max_wait_ms=0)
    return PairScorer(backend, batcher, "v", size,
                      on_lookups=lambda *counts: lookups.append(counts) if lookups is not None else None)


def test_hits_misses_and_joins_are_counted_apart_and_reported(backend):
    backend.delay = 0.3  # the second call finds "A dog." still in flight
    lookups: list[tuple] = []
    scorer = _scorer(backend, 10, lookups)
    try:
        first = scorer.submit([("A dog.", "A dog."), ("A cat.", "A cat."), ("A cat.", "A cat.")])
        second = scorer.submit([("A dog.", "A dog.")])
        assert [f.result(10) for f in first + second]
        scorer.score([("A cat.", "A cat."), ("A hen.", "A hen.")])
        assert scorer.stats == CacheStats(hits=1, misses=3, joined=2)
        # (hits, misses, joined, entries) per call; entries as found by the call
        assert lookups == [(0, 2, 1, 0), (0, 0, 1, 0), (1, 1, 0, 2)]
        assert sorted(backend.scored) == ["A cat.", "A dog.", "A hen."]
    finally:
        scorer.batcher.close()


def test_size_zero_turns_the_cache_and_the_joins_off(backend):
    backend.delay = 0.3
    scorer = _scorer(backend, 0)
    try:
        first = scorer.submit([("A dog.", "A dog.")])
        second = scorer.submit([("A dog.", "A dog.")])  # in flight, but not joined
        assert first[0].result(10) == second[0].result(10)
        scorer.score([("A dog.", "A dog."), ("A dog.", "A dog.")])  # a repeat within one call is scored once
        assert backend.scored == ["A dog."] * 3 and len(scorer) == 0
        assert scorer.stats == CacheStats(hits=0, misses=3, joined=1) and scorer._in_flight == {}
    finally:
        scorer.batcher.close()


def test_the_least_recently_used_pair_leaves_first(backend):
    scorer = _scorer(backend, 2)
    try:
        scorer.score([("A.", "A.")])
        scorer.score([("B.", "B.")])
        scorer.score([("A.", "A.")])  # A used again: B is now the oldest
        scorer.score([("C.", "C.")])  # evicts B
        assert len(scorer) == 2
        backend.scored.clear()
        scorer.score([("A.", "A."), ("C.", "C."), ("B.", "B.")])
        assert backend.scored == ["B."]
    finally:
        scorer.batcher.close()


def test_a_negative_size_is_refused(backend):
    with pytest.raises(ValueError, match="pair cache size"):
        PairScorer(backend, None, "v", -1)  # type: ignore[arg-type]


def test_the_setting_is_validated_in_one_line(monkeypatch, tmp_path):
    assert ScorerConfig().pair_cache_size == 100_000
    monkeypatch.setenv("GROUNDWATCH_SCORER__PAIR_CACHE_SIZE", "-5")
    with pytest.raises(SettingsError) as caught:
        load_settings()
    assert "GROUNDWATCH_SCORER__PAIR_CACHE_SIZE" in str(caught.value) and "\n" not in str(caught.value)
    monkeypatch.setenv("GROUNDWATCH_SCORER__PAIR_CACHE_SIZE", "0")
    assert load_settings().scorer.pair_cache_size == 0


RESPONSE = parse_response({"request_id": "r1", "question": "How long do refunds take?",
                           "answer": "Refunds take 30 days. Exports are free.",
                           "passages": [{"id": "p1", "text": "Refunds take 30 days from purchase."},
                                        {"id": "p2", "text": "Data exports are free of charge."}]})


@pytest.mark.parametrize("size", [1000, 0])
def test_the_scorer_sizes_its_cache_from_the_setting_and_reports_to_the_metrics(backend, size):
    metrics = Metrics()
    config = ScorerConfig(use_embeddings=False, pair_cache_size=size)
    scorer = Scorer(config, backend, on_pair_cache=metrics.observe_pair_cache)
    try:
        first = scorer.score([RESPONSE])
        scored = len(backend.scored)
        again = scorer.score([RESPONSE])
        assert [v.to_dict()["claims"] for v in first] == [v.to_dict()["claims"] for v in again]
        assert scorer.pairs._cache_size == size and len(scorer.pairs) <= size
        value = lambda outcome: metrics.registry.get_sample_value(  # noqa: E731
            "groundwatch_pair_cache_lookups_total", {"model": "small", "outcome": outcome})
        stats = scorer.pairs.stats
        assert (value("hit"), value("miss"), value("joined")) == (stats.hits, stats.misses, stats.joined)
        assert metrics.registry.get_sample_value("groundwatch_pair_cache_entries", {"model": "small"}) <= size
        if size == 0:
            assert stats.hits == 0 and len(backend.scored) == 2 * scored
        else:
            assert stats.hits > 0 and len(backend.scored) < 2 * scored
        assert metrics.registry.get_sample_value("groundwatch_pair_cache_lookups_total",
                                                 {"model": "second_opinion", "outcome": "hit"}) == 0
    finally:
        scorer.close()
