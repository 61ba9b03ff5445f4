"""scorer.max_windows: model inputs per response are capped before inference (scorers/evidence/window_cap.py)."""

import pytest

from groundwatch.config.scorer import ScorerConfig
from groundwatch.scorers.errors import ScoringError
from groundwatch.scorers.nli.fake_backend import FakeBackend
from groundwatch.scorers.pipeline import Scorer
from groundwatch.scorers.records import ResponseVerdict
from groundwatch.scorers.schema import parse_response
from groundwatch.scorers.evidence.window_cap import windows_over


@pytest.fixture(scope="module")
def backend(tiny_onnx):
    return FakeBackend(tiny_onnx)


def _batcher_count(backend, pairs):
    return sum(len(windows) for windows in backend.tokenize(pairs, windows=True))


def test_windows_are_counted_as_the_batcher_cuts_them(backend):
    long = " ".join(f"word{i} is listed here" for i in range(400))
    pairs = [("Refunds take 30 days.", "Refunds take a month."), (long, "Refunds take a month."),
             (long, "A much longer claim about refunds, shipping and the returns desk hours.")]
    exact = _batcher_count(backend, pairs)
    assert exact > 10
    assert windows_over(backend.encoder, pairs, exact - 1) == exact
    assert windows_over(backend.encoder, pairs, exact) is None
    assert windows_over(backend.encoder, pairs[:1], 1) is None


def test_a_near_1mb_single_sentence_passage_is_refused_before_inference(backend):
    words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"]
    huge = " ".join(words[i % 8] + str(i % 97) for i in range(125_000)) + " refunds take 30 days."  # ~1 MB, no stop
    assert 900_000 < len(huge) < 1_000_000
    limits = dict(max_passage_chars=1_000_000, max_record_bytes=1_100_000, use_embeddings=False,
                  context_conflicts=False)
    record = {"request_id": "big", "answer": "Refunds take 30 days.", "passages": [{"id": "p1", "text": huge}]}
    small = {"request_id": "ok", "answer": "Refunds take 30 days.",
             "passages": [{"id": "p1", "text": "Refunds take 30 days."}]}
    scorer = Scorer(ScorerConfig(**limits), backend)
    try:
        ok, big = scorer.score([parse_response(small), parse_response(record)])
        assert isinstance(ok, ResponseVerdict)
        assert isinstance(big, ScoringError) and (big.stage, big.reason) == ("limits", "too_many_windows")
        assert "scorer.max_windows (1024)" in str(big)
        assert scorer.batcher.stats.pairs == 1, "the refused response reached the model"
    finally:
        scorer.close()
    # the count in the message is the batcher's own
    n = int(str(big).split()[0])
    assert n == _batcher_count(backend, [(huge, "Refunds take 30 days.")]) and n > 1024
