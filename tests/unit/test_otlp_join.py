"""The trace join buffer (consumer/otlp/join.py): release on root end or after the wait, bounded by
traces, bytes and spans, late spans told apart, and offsets committed only below the oldest held."""

from __future__ import annotations

import pytest
from confluent_kafka import Message

from groundwatch.config.traces import TraceSettings
from groundwatch.consumer.otlp.join import TraceJoin
from groundwatch.consumer.otlp.spans import SpanRecord


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _span(trace: int, span: int, parent: int | None = 1) -> SpanRecord:
    return SpanRecord(f"{trace:032x}", f"{span:016x}", None if parent is None else f"{parent:016x}", "s", 1, 2)


def _msg(offset: int, partition: int = 0, size: int = 100) -> Message:
    return Message(topic="otlp_spans", partition=partition, offset=offset, value=b"x" * size)


def _offsets(join: TraceJoin) -> dict[int, int]:
    return {tp.partition: tp.offset for tp in join.commit_offsets()}


def _feed(join: TraceJoin, msg: Message, spans: list[SpanRecord]) -> list[SpanRecord]:
    join.seen(msg)
    return join.add(msg, spans)


def test_a_trace_split_over_messages_and_partitions_is_released_whole_when_its_root_ends():
    clock = Clock()
    join = TraceJoin(TraceSettings(release_wait_s=5), clock)
    _feed(join, _msg(0, 0), [_span(1, 3), _span(2, 7)])  # two traces' children
    _feed(join, _msg(0, 1), [_span(1, 4)])               # the other partition
    assert not join.due() and _offsets(join) == {0: 0, 1: 0}
    _feed(join, _msg(1, 1), [_span(1, 1, parent=None)])  # trace 1's root: ended
    assert join.due()
    [trace] = join.release()
    assert trace.outcome == "released" and sorted(s.span_id[-1] for s in trace.spans) == ["1", "3", "4"]
    assert trace.sources[f"{4:016x}"].partition() == 1
    # trace 2 still holds partition 0 at offset 0; partition 1 is free up to what was polled
    assert _offsets(join) == {1: 2} and len(join) == 1  # partition 0 has not moved: nothing new to commit


def test_the_root_grace_waits_for_children_still_on_their_way():
    clock = Clock()
    join = TraceJoin(TraceSettings(release_wait_s=5, root_grace_s=1), clock)
    _feed(join, _msg(0, 1), [_span(1, 1, parent=None)])  # the root first, from the other partition
    assert not join.due()
    clock.now += 0.5
    _feed(join, _msg(0, 0), [_span(1, 3)])
    clock.now += 0.9
    assert not join.due()
    clock.now += 0.1
    [trace] = join.release()
    assert trace.outcome == "released" and len(trace.spans) == 2


def test_a_trace_that_never_closes_is_released_after_the_wait_since_its_last_span():
    clock = Clock()
    join = TraceJoin(TraceSettings(release_wait_s=5), clock)
    _feed(join, _msg(0), [_span(1, 3)])
    clock.now += 4
    _feed(join, _msg(1), [_span(1, 4)])  # out of order and later: the wait starts again
    clock.now += 4
    assert not join.due()
    clock.now += 1
    [trace] = join.release()
    assert trace.outcome == "timed_out" and len(trace.spans) == 2 and _offsets(join) == {0: 2}


def test_the_buffer_is_bounded_by_traces_and_bytes():
    join = TraceJoin(TraceSettings(max_held_traces=2), Clock())
    for i in range(3):
        _feed(join, _msg(i), [_span(i + 1, 3)])
    [evicted] = join.release()
    assert evicted.outcome == "evicted" and evicted.trace_id == f"{1:032x}" and len(join) == 2
    join = TraceJoin(TraceSettings(max_held_bytes=1024), Clock())
    for i in range(5):
        _feed(join, _msg(i, size=400), [_span(i + 1, 3)])
    assert [t.outcome for t in join.release()] == ["evicted"] * 3 and join.bytes <= 1024


def test_a_trace_over_the_span_limit_keeps_no_more_spans_and_is_released_as_too_large():
    join = TraceJoin(TraceSettings(max_spans_per_trace=3), Clock())
    _feed(join, _msg(0), [_span(1, i) for i in range(2, 10)])
    assert join.bytes == 0
    _feed(join, _msg(1), [_span(1, 1, parent=None)])
    [trace] = join.release()
    assert trace.outcome == "too_large" and trace.spans == [] and trace.first_message.offset() == 0


@pytest.mark.parametrize("mode", ["dead_letter", "rescore"])
def test_a_late_span_is_told_from_a_new_trace(mode):
    join = TraceJoin(TraceSettings(late_spans=mode), Clock())
    _feed(join, _msg(0), [_span(1, 1, parent=None)])
    join.release()
    late = _feed(join, _msg(1), [_span(1, 5), _span(2, 6)])
    assert late == [_span(1, 5)]
    assert len(join) == (1 if mode == "dead_letter" else 2)  # rescore holds it again as a new version


def test_clear_forgets_everything_held():
    join = TraceJoin(TraceSettings(), Clock())
    _feed(join, _msg(3), [_span(1, 2)])
    join.clear()
    assert len(join) == 0 and join.commit_offsets() == [] and join.bytes == 0


def test_after_clear_the_spans_of_a_released_trace_read_again_rebuild_it_instead_of_being_late():
    """Partitions revoked and assigned back: the replay from the committed offset is a rebuild, as after a restart."""
    join = TraceJoin(TraceSettings(), Clock())
    _feed(join, _msg(0), [_span(1, 1, parent=None)])
    assert [t.outcome for t in join.release()] == ["released"]
    join.clear()
    assert _feed(join, _msg(0), [_span(1, 1, parent=None)]) == []
    assert [t.trace_id for t in join.release()] == [f"{1:032x}"]
