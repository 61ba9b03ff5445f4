"""OpenSearch stops mid-stream: the consumer pauses and retries, commits nothing it did not write,
and once OpenSearch is back every response is indexed exactly once by id.

osmem-server keeps its data in memory, so the restarted server starts empty:
documents written before the stop are checked before it, the rest after it.
"""

from __future__ import annotations

import time

import pytest

from tests.integration.consumer_support import (
    Names, RunningConsumer, committed, count_under, create_topics, documents, expected_id, produce_responses,
    scorer_version_of, settings_for, wait_until,
)

pytestmark = pytest.mark.integration


def test_sink_outage_pauses_retries_and_never_commits_past_what_was_written(
        kafka_bootstrap, opensearch_url, osmem_server, tiny_onnx):
    names = Names.fresh("outage")
    create_topics(kafka_bootstrap, names)
    settings = settings_for(kafka_bootstrap, opensearch_url, names, tiny_onnx, batch_size=5)
    before = produce_responses(kafka_bootstrap, names, 0, 10)

    running = RunningConsumer.start(settings)
    try:
        wait_until(lambda: committed(kafka_bootstrap, names) == {0: 10}, 60, "first 10 committed")
        assert {d["request_id"] for d in documents(opensearch_url, names.alias)} == \
            {r["request_id"] for r in before}

        osmem_server.stop()
        try:
            after = produce_responses(kafka_bootstrap, names, 10, 20)
            failures = running.metrics.sink_failures.labels("opensearch", "unavailable")
            wait_until(lambda: failures._value.get() >= 3, 30, "retries against the stopped server")
            for _ in range(5):  # while it is down, nothing new is committed
                assert committed(kafka_bootstrap, names) == {0: 10}
                time.sleep(0.3)
            assert running.metrics.inflight._value.get() == 5, "one batch in flight, no more"
        finally:
            osmem_server.start()

        wait_until(lambda: committed(kafka_bootstrap, names) == {0: 20}, 60, "all 20 committed after restart")
    finally:
        assert running.stop() == 0

    docs = documents(opensearch_url, names.alias)
    ids = [d["_id"] for d in docs]
    assert len(ids) == len(set(ids)) == 10
    version = scorer_version_of(settings)  # builds a scorer: once, not per response
    assert sorted(ids) == sorted(expected_id(r, version) for r in after)
    assert count_under(opensearch_url, names.alias) == 10
    # Every offset went through exactly one committed batch, in order: nothing skipped, nothing twice.
    assert running.committed_offsets() == list(range(20))
