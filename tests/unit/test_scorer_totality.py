"""Scorer.score is total: a failure in any stage, a cap or a deadline fails that response alone,
named by stage and reason; the rest of the batch is scored."""

from __future__ import annotations

import time
from concurrent.futures import Future

import pytest

from groundwatch.config.scorer import ScorerConfig
from groundwatch.scorers.deadline import Deadline
from groundwatch.scorers.errors import DeadlineExceeded, ScoringError
from groundwatch.scorers.pipeline import Scorer
from groundwatch.scorers.records import ResponseVerdict
from groundwatch.scorers.schema import parse_response

RESPONSE = {
    "request_id": "ok",
    "answer": "Refunds are accepted within 30 days of delivery. Shipping is free for orders over $50.",
    "passages": [
        {"id": "p1", "text": "Refunds are accepted within 30 days of delivery.", "score": 0.9},
        {"id": "p2", "text": "Shipping is free for orders over $50 in the EU.", "score": 0.7},
        {"id": "p3", "text": "Our stores open at nine on weekdays.", "score": 0.2},
    ],
}


def _response(request_id: str = "ok", **changes):
    return parse_response({**RESPONSE, "request_id": request_id, **changes})


@pytest.fixture(scope="module")
def make_scorer(tiny_onnx):
    made = []

    def make(**config) -> Scorer:
        scorer = Scorer.from_config(ScorerConfig(model_dir=str(tiny_onnx), use_embeddings=False, **config))
        made.append(scorer)
        return scorer

    yield make
    for scorer in made:
        scorer.close()


@pytest.fixture(scope="module")
def scorer(make_scorer):
    return make_scorer()


def _only_bad_fails(out, stage: str, reason: str | None = None) -> ScoringError:
    assert [type(o) for o in (out[0], out[2])] == [ResponseVerdict, ResponseVerdict]
    error = out[1]
    assert isinstance(error, ScoringError), error
    assert (error.stage, error.reason) == (stage, reason or stage)
    return error


def test_an_embedding_failure_fails_only_its_response(scorer, monkeypatch):
    original = scorer._embed

    def embed(prepared):
        if any(p.response.request_id == "boom" for p in prepared):
            raise RuntimeError("embedder exploded")
        return original(prepared)

    monkeypatch.setattr(scorer, "_embed", embed)
    out = scorer.score([_response(), _response("boom"), _response("ok-2")])
    error = _only_bad_fails(out, "embed")
    assert error.error_class == "RuntimeError" and "embedder exploded" in str(error)


def test_a_pair_submission_failure_fails_only_its_response(scorer, monkeypatch):
    original = scorer.pairs.submit

    def submit(pairs, expires_at=None):
        if any("Shipping is free for orders over $50." == claim and "BOOM" in premise for premise, claim in pairs):
            raise ValueError("tokenizer broke")
        return original(pairs, expires_at)

    monkeypatch.setattr(scorer.pairs, "submit", submit)
    bad = dict(passages=[{**RESPONSE["passages"][1], "text": "BOOM Shipping is free for orders over $50."}])
    out = scorer.score([_response(), _response("boom", **bad), _response("ok-2")])
    assert _only_bad_fails(out, "pairs").error_class == "ValueError"


def test_a_conflict_submission_failure_fails_only_its_response(scorer, monkeypatch):
    original = scorer.conflicts.submit

    def submit(claims):
        if any("BOOM" in cand.text for c in claims for cand in c.candidates):
            raise KeyError("conflict planner broke")
        return original(claims)

    monkeypatch.setattr(scorer.conflicts, "submit", submit)
    bad = dict(passages=[{**p, "text": p["text"] + " BOOM"} for p in RESPONSE["passages"]])
    out = scorer.score([_response(), _response("boom", **bad), _response("ok-2")])
    _only_bad_fails(out, "conflicts")


def test_a_failure_deciding_the_verdict_fails_only_its_response(scorer, monkeypatch):
    original = scorer._verdict

    def verdict(p, scored_at, deadline):
        if p.response.request_id == "boom":
            raise ZeroDivisionError("guard divided by zero")
        return original(p, scored_at, deadline)

    monkeypatch.setattr(scorer, "_verdict", verdict)
    _only_bad_fails(scorer.score([_response(), _response("boom"), _response("ok-2")]), "verdict")


def test_claims_over_the_cap_fail_with_a_clear_reason(make_scorer):
    scorer = make_scorer(max_claims=2)
    long = _response("boom", answer=" ".join(f"Refunds take {d} days." for d in range(5)))
    short = _response(answer="Refunds are accepted within 30 days of delivery.")
    error = _only_bad_fails(scorer.score([short, long, short]), "limits", "too_many_claims")
    assert "scorer.max_claims (2)" in str(error)


def test_claims_over_the_cap_are_refused_before_any_per_claim_work(make_scorer, monkeypatch):
    import groundwatch.scorers.pipeline as pipeline

    scorer = make_scorer(max_claims=2)
    seen = []
    original = pipeline.decorative_reason
    monkeypatch.setattr(pipeline, "decorative_reason", lambda text: seen.append(text) or original(text))
    [error] = scorer.score([_response("boom", answer=" ".join(f"Refunds take {d} days." for d in range(500)))])
    assert error.reason == "too_many_claims" and seen == []


def test_chunks_over_the_cap_are_refused_before_embedding(make_scorer, monkeypatch):
    scorer = make_scorer(max_chunks=3, chunk_sentences=1, chunk_overlap=0)
    embedded = []
    monkeypatch.setattr(scorer, "_embed", lambda prepared: embedded.extend(p.response.request_id for p in prepared))
    many = dict(passages=[{"id": "p1", "text": " ".join(f"Stores open at {h}." for h in range(40))}])
    error = _only_bad_fails(scorer.score([_response(), _response("boom", **many), _response("ok-2")]),
                            "limits", "too_many_chunks")
    assert "40 passage chunks" in str(error) and "scorer.max_chunks (3)" in str(error)
    assert embedded == ["ok", "ok-2"]


def test_pairs_over_the_cap_fail_with_a_clear_reason(make_scorer):
    scorer = make_scorer(max_pairs=6, top_k=3, pair_top=0)
    one_claim = _response(answer="Refunds are accepted within 30 days of delivery.")
    three_claims = _response("boom", answer="Refunds take 30 days. Shipping is free. Stores open at nine.")
    error = _only_bad_fails(scorer.score([one_claim, three_claims, one_claim]), "limits", "too_many_pairs")
    assert "scorer.max_pairs (6)" in str(error)


def test_late_model_results_fail_only_the_responses_waiting_for_them(scorer, monkeypatch):
    original = scorer.pairs.submit

    def submit(pairs, expires_at=None):
        if any("never answered" in premise for premise, _ in pairs):
            return [Future() for _ in pairs]  # a batch the backend never returns
        return original(pairs, expires_at)

    monkeypatch.setattr(scorer.pairs, "submit", submit)
    slow = dict(passages=[{**p, "text": p["text"] + " It is never answered."} for p in RESPONSE["passages"]])
    start = time.monotonic()
    out = scorer.score([_response(), _response("boom", **slow), _response("ok-2")], deadline=Deadline(5.0, 0.3))
    assert time.monotonic() - start < 5.0, "bounded by the per-future limit, not the batch deadline"
    error = _only_bad_fails(out, "deadline")
    assert isinstance(error, DeadlineExceeded) and error.cause == "future"


def test_an_expired_batch_deadline_still_uses_results_already_in(scorer):
    out = scorer.score([_response()], deadline=Deadline(0.0, 0.0))
    assert all(isinstance(o, (ResponseVerdict, DeadlineExceeded)) for o in out)


def test_offline_scoring_waits_for_every_result_and_online_callers_pass_the_config_deadline(make_scorer):
    scorer = make_scorer(batch_deadline_s=7.0, future_timeout_s=3.0)
    seen = []
    original = scorer._verdict

    def verdict(p, scored_at, deadline):
        remaining = deadline.remaining()
        seen.append((None if remaining is None else round(remaining), deadline.future_s))
        return original(p, scored_at, deadline)

    scorer._verdict = verdict
    scorer.score([_response()])
    scorer.score([_response()], deadline=Deadline.from_config(scorer.config))
    assert seen == [(None, None), (7, 3.0)]


class SteppingClock:
    """A monotonic clock that moves one second at every reading."""

    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def test_cpu_stages_stop_at_the_deadline_so_late_responses_do_no_work(scorer, monkeypatch):
    import groundwatch.scorers.pipeline as pipeline

    seen = []
    original = pipeline.decorative_reason
    monkeypatch.setattr(pipeline, "decorative_reason", lambda text: seen.append(text) or original(text))
    before = scorer.batcher.stats.pairs
    many = _response("long", answer=" ".join(f"Refunds take {d} days." for d in range(50)))
    out = scorer.score([many, _response("next")], deadline=Deadline(5.0, clock=SteppingClock()))
    assert all(isinstance(o, DeadlineExceeded) and o.cause == "batch" for o in out)
    assert "during claims" in str(out[0]) and 0 < len(seen) < 10, "the long answer stopped between claims"
    assert scorer.batcher.stats.pairs == before, "nothing was sent to the model"
