"""prepare(): scoring failures become dead letters named by the scorer's stage; nothing crashes the job."""

from __future__ import annotations

import json

from confluent_kafka import Message

from groundwatch.consumer.batch import Batch
from groundwatch.consumer.decode import Limits
from groundwatch.consumer.prepare import prepare
from groundwatch.export.metrics import Metrics
from groundwatch.scorers.errors import DeadlineExceeded, ScoringError
from groundwatch.scorers.records import Verdict
from tests.unit.verdicts import claim, verdict


def _msg(offset: int, request_id: str) -> Message:
    value = json.dumps({"request_id": request_id, "answer": "The sky is blue.",
                        "passages": [{"id": "p1", "text": "The sky is blue."}]}).encode()
    return Message(topic="in", partition=0, offset=offset, key=b"k", value=value)


class FakeScorer:
    """Scores by request id: 'crash' makes the whole batch call raise, others map to results."""

    def __init__(self, results: dict | None = None):
        self.results = results or {}
        self.calls: list[list[str]] = []

    def score(self, responses, deadline=None):
        ids = [r.request_id for r in responses]
        self.calls.append(ids)
        if "crash" in ids:
            raise MemoryError("something no stage caught")
        return [self.results.get(i) or verdict([claim(0, Verdict.SUPPORTED)], request_id=i) for i in ids]


def test_scoring_errors_are_dead_lettered_with_stage_reason_and_class():
    error = ScoringError.wrap("pairs", ValueError("tokenizer broke"))
    batch = Batch([_msg(0, "a"), _msg(1, "bad"), _msg(2, "c")])
    metrics = Metrics()
    prepare(batch, FakeScorer({"bad": error}), Limits(), metrics)
    assert [s.verdict.request_id for s in batch.scored] == ["a", "c"]
    [letter] = batch.dead
    assert (letter.stage, letter.reason, letter.error_class) == ("score", "pairs", "ValueError")
    assert letter.message.offset() == 1 and "tokenizer broke" in letter.error
    assert metrics.scorer_errors.labels("pairs")._value.get() == 1
    assert batch.prepared and not batch.interrupted


def test_a_batch_call_that_raises_is_retried_one_response_at_a_time():
    scorer = FakeScorer()
    batch = Batch([_msg(0, "a"), _msg(1, "crash"), _msg(2, "c")])
    prepare(batch, scorer, Limits(), Metrics())
    assert scorer.calls == [["a", "crash", "c"], ["a"], ["crash"], ["c"]]
    assert [s.verdict.request_id for s in batch.scored] == ["a", "c"]
    [letter] = batch.dead
    assert (letter.stage, letter.reason, letter.error_class) == ("score", "score", "MemoryError")


def test_scoring_cut_short_by_shutdown_is_not_the_messages_fault():
    batch = Batch([_msg(0, "a"), _msg(1, "late")])
    prepare(batch, FakeScorer({"late": DeadlineExceeded("shutdown", "cut short")}), Limits(), Metrics())
    assert batch.interrupted and batch.dead == [] and batch.pending == []


def test_a_late_result_in_normal_operation_is_returned_for_another_try_not_dead_lettered():
    batch = Batch([_msg(0, "a"), _msg(1, "late")])
    late = prepare(batch, FakeScorer({"late": DeadlineExceeded("future", "too slow")}), Limits(), Metrics())
    assert [(m.offset(), r.request_id) for m, r in late] == [(1, "late")]
    assert batch.dead == [] and [s.verdict.request_id for s in batch.scored] == ["a"]
    assert not batch.prepared and not batch.interrupted, "not written or committed until the late one is settled"
