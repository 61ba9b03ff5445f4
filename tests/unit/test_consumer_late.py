"""Deadline overruns in the consumer are backpressure: late responses are scored again in smaller
groups, and only one that is late alone, repeatedly, is dead-lettered (consumer/late.py)."""

from __future__ import annotations

import json

from confluent_kafka import Message

from groundwatch.consumer.batch import Batch
from groundwatch.consumer.decode import Limits
from groundwatch.consumer.late import retry_late
from groundwatch.consumer.prepare import prepare
from groundwatch.export.metrics import Metrics
from groundwatch.scorers.errors import DeadlineExceeded
from groundwatch.scorers.records import Verdict
from tests.unit.verdicts import claim, verdict


def _msg(offset: int, request_id: str, partition: int = 0) -> Message:
    value = json.dumps({"request_id": request_id, "answer": "The sky is blue.",
                        "passages": [{"id": "p1", "text": "The sky is blue."}]}).encode()
    return Message(topic="in", partition=partition, offset=offset, key=b"k", value=value)


class BusyScorer:
    """Late for every response of the first `busy_calls` calls; `slow` ids are late in every call."""

    def __init__(self, busy_calls: int = 1, slow: frozenset = frozenset(), cause: str = "batch"):
        self.busy_calls, self.slow, self.cause = busy_calls, slow, cause
        self.calls: list[list[str]] = []

    def score(self, responses, deadline=None):
        ids = [r.request_id for r in responses]
        self.calls.append(ids)
        busy = len(self.calls) <= self.busy_calls
        return [DeadlineExceeded(self.cause, "late") if busy or i in self.slow
                else verdict([claim(0, Verdict.SUPPORTED)], request_id=i) for i in ids]


def _run(scorer, messages, tries_alone=2, wait=lambda: True):
    batch, metrics = Batch(messages), Metrics()
    late = prepare(batch, scorer, Limits(), metrics)
    retry_late(batch, late, lambda responses: scorer.score(responses), metrics, tries_alone, wait)
    return batch, metrics


def test_a_squeezed_batch_is_scored_again_in_smaller_groups_and_nothing_is_lost():
    scorer = BusyScorer(busy_calls=2)
    batch, metrics = _run(scorer, [_msg(i, f"r{i}") for i in range(4)])
    # Round 1: groups of 2, the largest (the last of equals) alone; round 2: one at a time.
    assert scorer.calls == [["r0", "r1", "r2", "r3"], ["r0", "r1"], ["r2"], ["r3"], ["r0"], ["r1"]]
    assert sorted(s.verdict.request_id for s in batch.scored) == ["r0", "r1", "r2", "r3"]
    assert batch.dead == [] and batch.prepared and not batch.interrupted
    assert metrics.scorer_errors.labels("deadline")._value.get() == 0


def test_only_a_response_late_alone_repeatedly_is_dead_lettered_as_deadline():
    scorer = BusyScorer(busy_calls=1, slow=frozenset({"bad"}), cause="future")
    batch, metrics = _run(scorer, [_msg(0, "a"), _msg(1, "bad"), _msg(2, "c")], tries_alone=2)
    # "bad" is the largest record: alone from the first retry on, so "a" and "c" are not held with it.
    assert scorer.calls == [["a", "bad", "c"], ["a", "c"], ["bad"], ["bad"]]
    assert sorted(s.verdict.request_id for s in batch.scored) == ["a", "c"]
    assert [(d.message.offset(), d.stage, d.reason) for d in batch.dead] == [(1, "score", "deadline")]
    assert batch.prepared and metrics.scorer_errors.labels("deadline")._value.get() == 1


def test_shutdown_stops_the_retries_and_leaves_the_batch_unwritten():
    scorer = BusyScorer(busy_calls=1)
    batch, _ = _run(scorer, [_msg(0, "a"), _msg(1, "b")], wait=lambda: False)
    assert batch.interrupted and not batch.prepared and batch.dead == []
    assert scorer.calls == [["a", "b"]]


def test_a_response_cut_short_by_shutdown_while_tried_again_interrupts_the_batch():
    class ShutdownOnRetry(BusyScorer):
        def score(self, responses, deadline=None):
            out = super().score(responses, deadline)
            return out if len(self.calls) == 1 else [DeadlineExceeded("shutdown", "cut short")] * len(out)

    batch, _ = _run(ShutdownOnRetry(), [_msg(0, "a"), _msg(1, "b")])
    assert batch.interrupted and batch.dead == []


def test_a_message_whose_partition_went_away_is_not_tried_again():
    scorer = BusyScorer(busy_calls=1)
    messages = [_msg(0, "a", partition=0), _msg(0, "b", partition=1)]
    batch = Batch(messages)
    late = prepare(batch, scorer, Limits(), Metrics())

    def revoke_partition_1():  # what StreamApp._on_revoke does while the partitions are polled, paused
        batch.drop({("in", 1)})
        return True

    retry_late(batch, late, scorer.score, Metrics(), 2, revoke_partition_1)
    assert scorer.calls == [["a", "b"], ["a"]]
    assert [s.verdict.request_id for s in batch.scored] == ["a"] and batch.prepared


def test_responses_scored_in_time_are_written_before_the_late_one_is_tried_again():
    """The verdicts settled so far are written (not committed) before each try, so the normal
    responses of a batch never wait for a late one's retries; each verdict reaches each sink once."""
    from tests.unit.test_consumer_checkpoint import FakeSink, _checkpoint

    log: list = []
    store, alerts = FakeSink("opensearch", log), FakeSink("alerts", log)
    checkpoint, consumer = _checkpoint(store, [alerts])
    slow = BusyScorer(busy_calls=0, slow=frozenset({"bad"}))
    stored_at_call: list[list[str]] = []

    def score(responses):
        stored_at_call.append(sorted(r for written in store.written for r in written))
        return slow.score(responses)

    messages = [_msg(0, "a"), _msg(1, "bad"), _msg(2, "c"), _msg(3, "d")]
    batch, metrics = Batch(messages), Metrics()
    late = prepare(batch, slow, Limits(), metrics)
    assert [m.offset() for m, _ in late] == [1]  # a, c and d were scored in time
    retry_late(batch, late, score, metrics, 2, lambda: True, lambda: checkpoint.flush(batch))
    assert stored_at_call == [["a", "c", "d"], ["a", "c", "d"]], "written before the first retry"
    assert consumer.committed == [], "nothing committed while the batch was unsettled"
    checkpoint.attempt(batch)
    assert [d.reason for d in batch.dead] == ["deadline"]
    assert store.written == [["a", "c", "d"], []] and alerts.written == [["a", "c", "d"], []]
    assert consumer.committed == [[(0, 4)]] and checkpoint.delivered(batch)


def test_a_failed_early_write_is_left_to_the_checkpoint_which_retries_it():
    from groundwatch.export.base import SinkUnavailable
    from tests.unit.test_consumer_checkpoint import FakeSink, _checkpoint

    log: list = []
    store = FakeSink("opensearch", log, [SinkUnavailable("opensearch", "down")])
    alerts = FakeSink("alerts", log)
    checkpoint, consumer = _checkpoint(store, [alerts])
    slow = BusyScorer(busy_calls=0, slow=frozenset({"bad"}))
    batch, metrics = Batch([_msg(0, "a"), _msg(1, "bad")]), Metrics()
    late = prepare(batch, slow, Limits(), metrics)
    retry_late(batch, late, slow.score, metrics, 1, lambda: True, lambda: checkpoint.flush(batch))
    assert alerts.written == [], "no alert before its verdict is stored"
    checkpoint.attempt(batch)
    assert store.written == [["a"], ["a"]] and alerts.written == [["a"]]
    assert consumer.committed == [[(0, 2)]]



def test_late_responses_read_from_spans_are_scored_again_not_dropped():
    """A trace topic's responses come with a per-response source (the answer span's message), never one of the
    batch's own message objects: they are still the batch's to score again."""
    from groundwatch.consumer.decode import decode
    from groundwatch.consumer.otlp.stream import ResponseSource

    scorer = BusyScorer(busy_calls=1)
    messages = [_msg(0, "a"), _msg(1, "b")]
    batch = Batch(messages)
    late = [(ResponseSource(m, r.request_id), r) for m in messages for r in [decode(m.value(), Limits())]]
    retry_late(batch, late, scorer.score, Metrics(), 2, lambda: True)
    assert sorted(s.verdict.request_id for s in batch.scored) == ["a", "b"] and batch.prepared
