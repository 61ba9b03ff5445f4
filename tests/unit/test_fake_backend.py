"""The deterministic fake NLI backend: same scores for the same pair, in or out of a batch; a full scorer runs on it."""

from __future__ import annotations

import pytest

from groundwatch.config.scorer import ScorerConfig
from groundwatch.scorers.errors import ModelLoadError
from groundwatch.scorers.nli.factory import load_backend
from groundwatch.scorers.pipeline import Scorer
from groundwatch.scorers.schema import parse_response

PAIRS = [("Refunds are accepted within 30 days.", "Refunds are accepted within 30 days."),
         ("Our stores open at nine.", "Refunds are accepted within 30 days."),
         ("Shipping is free over $50.", "Shipping is free worldwide.")]


def test_scores_are_deterministic_probabilities_by_position():
    backend = load_backend(backend="fake")
    batch = backend.predict(PAIRS)
    assert batch == [backend.predict([pair])[0] for pair in PAIRS]
    assert all(abs(s.entailment + s.neutral + s.contradiction - 1) < 1e-9 for s in batch)
    assert batch[0].entailment > 0.9 > batch[2].entailment > batch[1].entailment
    assert backend.provider == "fake" and backend.name.startswith("fake-") and backend.health()


def test_unknown_backend_names_the_choices():
    with pytest.raises(ModelLoadError, match="'onnx', 'torch' or 'fake'"):
        load_backend(backend="tpu")


def test_a_scorer_runs_on_the_fake_backend():
    scorer = Scorer.from_config(ScorerConfig(backend="fake", use_embeddings=False))
    try:
        record = {"request_id": "r1", "answer": "Refunds are accepted within 30 days of delivery.",
                  "passages": [{"id": "p1", "text": "Refunds are accepted within 30 days of delivery."}]}
        [verdict] = scorer.score([parse_response(record)])
        assert verdict.request_id == "r1" and verdict.model.startswith("fake-")
    finally:
        scorer.close()
