"""Liveness and readiness (a hung scorer fails /healthz), revoke finishes the batch in flight,
and the shutdown deadline covers scoring as well as writing."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request

import pytest
from confluent_kafka import Message, TopicPartition

from groundwatch.config.scorer import ScorerConfig
from groundwatch.config.settings import Settings
from groundwatch.consumer.app import StreamApp
from groundwatch.consumer.checkpoint import Sinks
from groundwatch.consumer.dead_letters import DeadLetterWriter
from groundwatch.consumer.shutdown import exit_after
from groundwatch.export.base import SinkUnavailable
from groundwatch.export.metrics import Metrics
from groundwatch.export.metrics_server import Health, MetricsServer
from groundwatch.scorers.errors import DeadlineExceeded
from groundwatch.scorers.health import ScheduledCheck
from groundwatch.scorers.pipeline import Scorer
from groundwatch.scorers.records import Verdict
from tests.unit.test_consumer_checkpoint import FakeProducer, FakeSink
from tests.unit.verdicts import claim, verdict


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


# -- checks and the HTTP answers -----------------------------------------------------------------

def test_a_check_that_fails_or_hangs_is_a_problem_and_one_that_answers_is_not():
    clock, answer = Clock(), {"ok": True}
    check = ScheduledCheck("scorer", lambda: answer["ok"], 30, 10, clock=clock)
    assert check.problem() is None  # no answer yet
    check.run_once()
    assert check.problem() is None
    answer["ok"] = False
    check.run_once()
    assert check.problem() == "scorer check failed"
    check._running_since = clock.now  # a check in progress...
    clock.now += 11
    assert check.problem() == "scorer check has not answered for 11 s"  # ...for longer than its timeout


def test_a_loop_that_stops_polling_is_not_alive():
    clock = Clock()
    health = Health(loop_stall_s=60, clock=clock)
    assert health.live_problems() == []  # before the first poll (model loading): alive
    health.beat()
    clock.now += 59
    assert health.live_problems() == []
    clock.now += 2
    assert health.live_problems() == ["consumer loop has not polled for 61 s"]
    health.stopping = True
    assert health.live_problems() == [], "a draining consumer is not restarted"


def _get(url: str) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as exc:
        return exc.code, json.load(exc)


def test_a_hung_scorer_makes_healthz_fail_until_it_answers_again(tiny_onnx):
    scorer = Scorer.from_config(ScorerConfig(model_dir=str(tiny_onnx), use_embeddings=False))
    release = threading.Event()
    predict = scorer.backend.predict

    def stuck(pairs):
        release.wait(30)
        return predict(pairs)

    health = Health(loop_stall_s=300)
    probe = ScheduledCheck("scorer", scorer.health, interval_s=0.1, timeout_s=0.5)
    health.liveness.append(probe)
    server = MetricsServer(Metrics().registry, health, "127.0.0.1", 0)
    base = f"http://127.0.0.1:{server.port}"
    try:
        probe.start()
        deadline = time.monotonic() + 10
        while probe._ok is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _get(base + "/healthz") == (200, {"alive": True, "problems": []})
        scorer.backend.predict = stuck
        deadline = time.monotonic() + 10
        while _get(base + "/healthz")[0] == 200 and time.monotonic() < deadline:
            time.sleep(0.1)
        status, body = _get(base + "/healthz")
        assert status == 503 and body["problems"][0].startswith("scorer check has not answered")
        release.set()
        scorer.backend.predict = predict
        deadline = time.monotonic() + 10
        while _get(base + "/healthz")[0] != 200 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _get(base + "/healthz")[0] == 200
    finally:
        release.set()
        probe.stop()
        server.close()
        scorer.close()


def test_readiness_needs_assignment_and_a_reachable_store():
    health = Health()
    health.model_loaded = True
    store = ScheduledCheck("opensearch", lambda: False, 30, 10)
    health.readiness.append(store)
    assert health.problems() == ["consumer has no group assignment"]
    health.assigned = True
    store.run_once()
    assert health.problems() == ["opensearch check failed"]


def test_exit_after_ends_the_process_when_the_deadline_passes():
    exits = []
    timer = exit_after(0.0, 3, grace_s=0.0, _exit=exits.append)
    timer.join(5)
    assert exits == [3]


# -- the app with a scripted Kafka consumer ----------------------------------------------------

TP = TopicPartition("in", 0)


def _msg(offset: int) -> Message:
    value = json.dumps({"request_id": f"r-{offset}", "answer": "The sky is blue.",
                        "passages": [{"id": "p1", "text": "The sky is blue."}]}).encode()
    return Message(topic="in", partition=0, offset=offset, value=value)


class ScriptedKafka:
    """consume() call n runs script[n](app) and returns its messages; past the script, stop the app."""

    def __init__(self, log: list, script: list):
        self.log, self.script, self.calls = log, script, 0
        self.callbacks: dict = {}
        self.committed: list = []
        self.app: StreamApp | None = None

    def subscribe(self, topics, on_assign, on_revoke, on_lost):
        self.callbacks = {"assign": on_assign, "revoke": on_revoke, "lost": on_lost}

    def consume(self, n, timeout):
        step = self.script[self.calls] if self.calls < len(self.script) else None
        self.calls += 1
        if step is None:
            self.app.stop()
            return []
        return step(self) or []

    def assign(self):
        self.callbacks["assign"](self, [TP])

    def revoke(self):
        self.log.append("revoke")
        self.callbacks["revoke"](self, [TP])
        self.log.append("revoked")

    def assignment(self):
        return [TP]

    def pause(self, partitions): pass

    def resume(self, partitions): pass

    def seek(self, tp): pass

    def position(self, partitions):
        return []

    def store_offsets(self, offsets):
        self.committed.append([(tp.partition, tp.offset) for tp in offsets])

    def commit(self, asynchronous=True):
        self.log.append("commit")

    def close(self):
        self.log.append("close")


class FakeScorer:
    def __init__(self, on_score=None):
        self.on_score = on_score

    def score(self, responses, deadline=None):
        if self.on_score:
            return self.on_score(responses, deadline)
        return [verdict([claim(0, Verdict.SUPPORTED)], request_id=r.request_id) for r in responses]


def _app(kafka, store, scorer=None, **consumer) -> StreamApp:
    settings = Settings(kafka={"poll_timeout_s": 0.05},
                        consumer={"sink_retry_initial_s": 0.05, "sink_retry_max_s": 0.1, **consumer})
    app = StreamApp(settings, kafka, scorer or FakeScorer(), DeadLetterWriter(FakeProducer(), "dlq", 1.0),
                    Sinks(store), Metrics(), Health())
    kafka.app = app
    return app


def test_revoke_finishes_and_commits_the_batch_in_flight():
    log: list = []
    # poll 1: assigned, two messages; the store is down once; poll 2 (paused, waiting to retry): revoke.
    kafka = ScriptedKafka(log, [lambda k: (k.assign(), [_msg(0), _msg(1)])[1], lambda k: k.revoke()])
    store = FakeSink("opensearch", log, [SinkUnavailable("opensearch", "down")])
    app = _app(kafka, store)
    assert app.run() == 0
    assert log == ["opensearch", "revoke", "opensearch", "commit", "revoked", "close"]
    assert kafka.committed == [[(0, 2)]]


def test_revoke_leaves_a_batch_it_cannot_write_in_time_uncommitted_to_the_new_owner():
    log: list = []
    kafka = ScriptedKafka(log, [lambda k: (k.assign(), [_msg(0), _msg(1)])[1], lambda k: k.revoke()])
    store = FakeSink("opensearch", log, [SinkUnavailable("opensearch", "down")] * 1000)
    app = _app(kafka, store, revoke_timeout_s=0.3)
    start = time.monotonic()
    assert app.run() == 0, "nothing of ours was lost: the new owner reads it again"
    assert time.monotonic() - start < 5
    assert kafka.committed == [] and "commit" not in log
    assert log.index("revoked") > log.index("revoke") + 1, "it tried before letting go"


def test_sigterm_during_scoring_cuts_it_short_and_commits_nothing():
    log: list = []
    kafka = ScriptedKafka(log, [lambda k: (k.assign(), [_msg(0), _msg(1)])[1]])
    seen = {}

    def slow(responses, deadline):
        kafka.app.stop()  # SIGTERM arrives while the model is busy
        seen["cause"] = deadline.cause
        return [DeadlineExceeded(deadline.cause, "cut short") for _ in responses]

    app = _app(kafka, FakeSink("opensearch", log), FakeScorer(slow), shutdown_timeout_s=5)
    assert app.run() == 1, "a batch was left unwritten"
    assert seen["cause"] == "shutdown"
    assert kafka.committed == [] and log == ["close"]


def test_shutdown_deadline_bounds_the_retry_and_the_close():
    log: list = []
    kafka = ScriptedKafka(log, [lambda k: (k.assign(), [_msg(0)])[1]])
    store = FakeSink("opensearch", log, [SinkUnavailable("opensearch", "down")] * 1000)
    app = _app(kafka, store, shutdown_timeout_s=0.5)
    threading.Timer(0.2, app.stop).start()
    start = time.monotonic()
    assert app.run() == 1
    assert time.monotonic() - start < 3 and kafka.committed == []
