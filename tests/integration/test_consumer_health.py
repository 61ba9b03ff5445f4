"""Health against the real stack: a hung scorer fails /healthz (so Kubernetes restarts it) while its
late responses are tried again in smaller groups and, late alone, dead-lettered instead of stalling
the partition; /readyz follows the store."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request

import pytest

from groundwatch.export.metrics_server import MetricsServer
from tests.integration.consumer_support import (
    Names, RunningConsumer, committed, count_under, create_topics, produce_responses, read_topic, settings_for,
    wait_until,
)

pytestmark = pytest.mark.integration


def _get(url: str) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as exc:
        return exc.code, json.load(exc)


def test_a_hung_scorer_fails_healthz_and_its_late_responses_are_dead_lettered(
        kafka_bootstrap, opensearch_url, osmem_server, tiny_onnx):
    names = Names.fresh("hung")
    create_topics(kafka_bootstrap, names)
    settings = settings_for(kafka_bootstrap, opensearch_url, names, tiny_onnx, batch_size=3,
                            scorer={"batch_deadline_s": 6, "future_timeout_s": 2},
                            health_interval_s=0.2, health_timeout_s=1.0, late_tries_alone=1, late_retry_wait_s=0.1)
    running = RunningConsumer.start(settings)
    server = MetricsServer(running.metrics.registry, running.health, "127.0.0.1", 0)
    base = f"http://127.0.0.1:{server.port}"
    release = threading.Event()
    predict = running.scorer.backend.predict
    try:
        wait_until(lambda: _get(base + "/readyz")[0] == 200, 30, "ready: assigned, store reachable")
        assert _get(base + "/healthz")[0] == 200

        def stuck(pairs):  # the model stops answering (a wedged GPU, a deadlock in the runtime)
            release.wait(60)
            return predict(pairs)

        running.scorer.backend.predict = stuck
        produce_responses(kafka_bootstrap, names, 0, 3)
        wait_until(lambda: _get(base + "/healthz")[0] == 503, 20, "/healthz to fail")
        assert _get(base + "/healthz")[1]["problems"][0].startswith("scorer check has not answered")
        # Late in the batch (6 s), then in groups of 2 and 1 (2 s each), then alone: about 16 s.
        wait_until(lambda: committed(kafka_bootstrap, names) == {0: 3}, 60, "the late batch dead-lettered")
        letters = read_topic(kafka_bootstrap, names.dead_letters, 3)
        assert [dict(m.headers())["groundwatch.reason"] for m in letters] == [b"deadline"] * 3

        release.set()
        running.scorer.backend.predict = predict
        wait_until(lambda: _get(base + "/healthz")[0] == 200, 20, "/healthz to recover")
        produce_responses(kafka_bootstrap, names, 3, 5)
        wait_until(lambda: committed(kafka_bootstrap, names) == {0: 5}, 30, "scoring again")
        assert count_under(opensearch_url, names.alias) == 2
        assert running.scorer.batcher.stats.expired > 0, "pairs queued behind the hung batch were dropped unscored"

        osmem_server.stop()
        try:
            wait_until(lambda: _get(base + "/readyz")[0] == 503, 20, "/readyz to follow the store")
            assert "opensearch check failed" in _get(base + "/readyz")[1]["problems"]
            assert _get(base + "/healthz")[0] == 200, "a store outage is not a reason to restart"
        finally:
            osmem_server.start()
        wait_until(lambda: _get(base + "/readyz")[0] == 200, 20, "ready again")
    finally:
        release.set()
        server.close()
        assert running.stop() == 0
