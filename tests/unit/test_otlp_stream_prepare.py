"""The consumer's decode stage for trace topics (consumer/otlp/stream.py): messages in, verdicts written
against the message of each answer span, dead letters that name the problem and take no other verdict."""

from __future__ import annotations

import pytest
from confluent_kafka import Message

from groundwatch.config.settings import Settings
from groundwatch.consumer.batch import Batch
from groundwatch.consumer.otlp.join import TraceJoin
from groundwatch.consumer.otlp.stream import prepare_traces
from groundwatch.export.metrics import Metrics
from groundwatch.scorers.pipeline import Scorer
from tests.otlp_apps import App, Doc, genai_app, openinference_app, otlp_proto

PASSAGE = "Refunds are accepted within 30 days of delivery."


@pytest.fixture(scope="module")
def scorer():
    s = Scorer.from_config(Settings(scorer={"backend": "fake", "use_embeddings": False}).scorer)
    yield s
    s.close()


def _settings(**traces) -> Settings:
    return Settings(kafka={"input_format": "otlp_proto"}, scorer={"backend": "fake", "use_embeddings": False},
                    traces=traces)


def _msg(offset: int, value: bytes) -> Message:
    return Message(topic="otlp_spans", partition=0, offset=offset, value=value)


def _two_traces_one_message() -> bytes:
    app = App("shop")
    openinference_app(app, "Refund window?", PASSAGE, [Doc("kb-1", PASSAGE)])
    genai_app(app, "Refund window?", PASSAGE, [Doc("kb-9", "x" * 100_001)])  # over scorer.max_passage_chars
    genai_app(app, "Refund window?", PASSAGE, [Doc("kb-2", PASSAGE)])
    return otlp_proto(app.finished())


def test_responses_of_one_message_are_written_and_refused_one_by_one(scorer):
    settings, metrics = _settings(), Metrics()
    join = TraceJoin(settings.traces)
    batch = Batch([_msg(0, b"\x00garbage"), _msg(1, _two_traces_one_message())])
    assert prepare_traces(batch, join, scorer, settings, metrics) == []
    assert batch.prepared and len(batch.scored) == 2 and len(join) == 0
    assert {s.message.offset() for s in batch.scored} == {1}
    assert [(d.stage, d.reason, d.message.offset()) for d in batch.dead] == [("decode", "not_protobuf", 0),
                                                                             ("decode", "passage_too_long", 1)]
    assert [(tp.partition, tp.offset) for tp in batch.offsets()] == [(0, 2)]
    assert metrics.registry.get_sample_value("groundwatch_trace_joins_total", {"outcome": "released"}) == 3


def test_held_traces_hold_the_commit_and_late_spans_are_dead_lettered(scorer):
    settings, metrics = _settings(release_wait_s=60), Metrics()
    join = TraceJoin(settings.traces)
    app = App("shop")
    openinference_app(app, "Refund window?", PASSAGE, [Doc("kb-1", PASSAGE)])
    children = [s for s in app.finished() if s.parent is not None]
    root = [s for s in app.finished() if s.parent is None]
    first = Batch([_msg(0, otlp_proto(children))])
    prepare_traces(first, join, scorer, settings, metrics)
    assert first.scored == [] and [(tp.offset) for tp in first.offsets()] == [0] and len(join) == 1
    second = Batch([_msg(1, otlp_proto(root))])
    prepare_traces(second, join, scorer, settings, metrics)
    assert len(second.scored) == 1 and second.scored[0].message.offset() == 0  # the answer span's message
    assert [tp.offset for tp in second.offsets()] == [2]
    third = Batch([_msg(2, otlp_proto(children[:1]))])  # arrives after its trace was released
    prepare_traces(third, join, scorer, settings, metrics)
    assert [(d.stage, d.reason) for d in third.dead] == [("join", "late_span")]
    assert metrics.registry.get_sample_value("groundwatch_late_spans_total") == 1


def test_a_trace_over_the_span_limit_is_dead_lettered(scorer):
    settings, metrics = _settings(max_spans_per_trace=2), Metrics()
    app = App("shop")
    openinference_app(app, "Refund window?", PASSAGE, [Doc("kb-1", PASSAGE)])
    batch = Batch([_msg(0, otlp_proto(app.finished()))])
    prepare_traces(batch, TraceJoin(settings.traces), scorer, settings, metrics)
    assert batch.scored == [] and [(d.stage, d.reason) for d in batch.dead] == [("join", "too_many_spans")]


def test_a_join_tick_batch_owns_the_partitions_of_the_verdicts_it_released(scorer):
    """No message polled, one trace released by its wait: the batch is still ours to write and commit, so its
    write is retried and a revoke of that partition finishes it (consumer/app.py)."""
    settings, metrics = _settings(release_wait_s=0.01), Metrics()
    join = TraceJoin(settings.traces)
    app = App("shop")
    openinference_app(app, "Refund window?", PASSAGE, [Doc("kb-1", PASSAGE)])
    first = Batch([_msg(0, otlp_proto([s for s in app.finished() if s.parent is not None]))])
    prepare_traces(first, join, scorer, settings, metrics)
    assert first.scored == [] and len(join) == 1
    while not join.due():
        pass
    tick = Batch([])
    prepare_traces(tick, join, scorer, settings, metrics)
    assert len(tick) == 0 and len(tick.scored) == 1
    assert tick.ours() and tick.partitions() == {("otlp_spans", 0)}
    tick.drop({("otlp_spans", 0)})  # the partition went to another member: nothing of it is left here
    assert not tick.ours()
