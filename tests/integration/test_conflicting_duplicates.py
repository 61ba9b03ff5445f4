"""A request id reused with different content keeps both verdicts, each flagged; a replay still overwrites.

Through the real stack (Tansu, osmem-server, the consumer): the same record twice is one document;
two different responses under one request id are two documents, both carrying the store flag
conflicting_duplicate, counted, and `groundwatch trace` shows both; and the pair is found when the
consumer is killed (SIGKILL) between the two records, so nothing but the store remembers the first.
"""

from __future__ import annotations

import json
import signal

import pytest

from groundwatch.cli import main
from groundwatch.export.duplicates import CONFLICTING_DUPLICATE
from tests.integration.consumer_support import (
    Names, RunningConsumer, committed, create_topics, documents, expected_id, produce, response, scorer_version_of,
    settings_for, wait_until,
)
from tests.integration.test_consumer_process import _start, _wait

pytestmark = pytest.mark.integration


def _regenerated(record: dict) -> dict:
    """The same request answered again, differently (a retried request whose answer was regenerated)."""
    return {**record, "answer": "Refunds are accepted within 90 days of delivery. Shipping is always free."}


def _send(bootstrap: str, names: Names, records: list[dict]) -> None:
    produce(bootstrap, names.topic, [json.dumps(r).encode() for r in records],
            [r["request_id"].encode() for r in records])


def _flagged(doc: dict) -> bool:
    return CONFLICTING_DUPLICATE in (doc.get("store_flags") or [])


def test_a_replay_is_one_document_and_a_different_response_is_kept_and_flagged(
        kafka_bootstrap, opensearch_url, tiny_onnx, capsys):
    names = Names.fresh("dupes")
    create_topics(kafka_bootstrap, names)
    settings = settings_for(kafka_bootstrap, opensearch_url, names, tiny_onnx, batch_size=4)
    first, other = response(1, names.topic), response(2, names.topic)
    second = _regenerated(first)
    # The same record twice, a plain neighbour, then a different response under the first one's id.
    _send(kafka_bootstrap, names, [first, first, other])
    running = RunningConsumer.start(settings)
    try:
        wait_until(lambda: committed(kafka_bootstrap, names) == {0: 3}, 60, "the first three committed")
        assert sorted(d["_id"] for d in documents(opensearch_url, names.alias)) == sorted(
            [expected_id(first, running.scorer.version), expected_id(other, running.scorer.version)])
        _send(kafka_bootstrap, names, [second])
        wait_until(lambda: committed(kafka_bootstrap, names) == {0: 4}, 60, "the fourth committed")
        counted = running.metrics.conflicting_duplicates._value.get()
    finally:
        assert running.stop() == 0

    docs = {d["_id"]: d for d in documents(opensearch_url, names.alias)}
    version = scorer_version_of(settings)
    assert set(docs) == {expected_id(r, version) for r in (first, second, other)}, "both responses kept"
    assert _flagged(docs[expected_id(first, version)]) and _flagged(docs[expected_id(second, version)])
    assert not _flagged(docs[expected_id(other, version)])
    assert counted == 1

    assert main(["trace", first["request_id"], "--opensearch-url", opensearch_url, "--alias", names.alias]) == 0
    out = capsys.readouterr().out
    assert "was sent with 2 different responses" in out
    assert out.count("-- response ") == 2


def test_the_pair_is_found_across_a_kill_between_the_two_records(kafka_bootstrap, opensearch_url, tiny_onnx,
                                                                  tmp_path):
    names = Names.fresh("dupes-kill")
    create_topics(kafka_bootstrap, names)
    settings = settings_for(kafka_bootstrap, opensearch_url, names, tiny_onnx, batch_size=4)
    first = response(7, names.topic)
    _send(kafka_bootstrap, names, [first])
    log_path = tmp_path / "consume.log"
    process = _start(settings, log_path)
    try:
        _wait(process, log_path, lambda: committed(kafka_bootstrap, names) == {0: 1}, 90, "the first committed")
        process.send_signal(signal.SIGKILL)
        assert process.wait(10) == -signal.SIGKILL
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()

    second = _regenerated(first)
    _send(kafka_bootstrap, names, [second, first])  # the regenerated answer, then a replay of the first
    running = RunningConsumer.start(settings)
    try:
        wait_until(lambda: committed(kafka_bootstrap, names) == {0: 3}, 90, "both committed after the restart")
    finally:
        assert running.stop() == 0
    docs = {d["_id"]: d for d in documents(opensearch_url, names.alias)}
    version = running.scorer.version
    assert set(docs) == {expected_id(first, version), expected_id(second, version)}
    assert all(_flagged(d) for d in docs.values())
