"""Decoding, dead-letter records, offsets to commit, the in-flight batch and backoff."""

from __future__ import annotations

import json

import pytest
from confluent_kafka import Message

from groundwatch.consumer.backoff import Backoff
from groundwatch.consumer.batch import Batch
from groundwatch.consumer.dead_letters import (
    MAX_KEPT_KEY_BYTES, DeadLetter, dead_letter_key, dead_letter_record, latest_per_key,
)
from groundwatch.consumer.decode import DecodeError, Limits, decode
from groundwatch.consumer.offsets import next_offsets
from groundwatch.consumer.prepare import scoring_reason
from groundwatch.export.metrics import DEAD_LETTER_REASONS
from groundwatch.scorers.errors import ScoringError
from groundwatch.scorers.schema import Response

GOOD = {"request_id": "r-1", "answer": "The sky is blue.", "passages": [{"id": "p1", "text": "The sky is blue."}]}
LIMITS = Limits(max_bytes=2000, max_passages=3)


def _msg(offset: int, partition: int = 0, value: bytes = b"{}", topic: str = "in") -> Message:
    return Message(topic=topic, partition=partition, offset=offset, key=b"k", value=value,
                   headers=[("trace", b"abc"), ("groundwatch.stage", b"old")])


def test_decode_valid_record():
    response = decode(json.dumps(GOOD).encode(), LIMITS)
    assert isinstance(response, Response) and response.request_id == "r-1"


@pytest.mark.parametrize(("value", "reason", "field"), [
    (None, "empty", "<record>"),
    (b"", "empty", "<record>"),
    (b"{not json", "not_json", "<record>"),
    (b"\xff\xfe", "not_json", "<record>"),
    (json.dumps({**GOOD, "question": "q" * 3000}).encode(), "too_large", "<record>"),
    (json.dumps({**GOOD, "passages": [{"id": f"p{i}", "text": "x"} for i in range(4)]}).encode(),
     "too_many_passages", "passages"),
    (json.dumps({"request_id": "r", "passages": []}).encode(), "schema", "answer"),
    (json.dumps([1, 2]).encode(), "schema", "<record>"),
])
def test_decode_errors_name_the_problem(value, reason, field):
    error = decode(value, LIMITS)
    assert isinstance(error, DecodeError)
    assert (error.stage, error.error_class, error.reason, error.field) == ("decode", "InvalidResponse", reason, field)
    assert error.message
    assert reason in DEAD_LETTER_REASONS["decode"], "the metric starts at 0 for every decode reason"


def test_dead_letter_keeps_original_bytes_key_and_headers_and_says_why():
    original = b'{"request_id": 1'
    record = dead_letter_record("dlq", DeadLetter(_msg(41, 2, original), "decode", "InvalidResponse",
                                                  "record is not JSON", "not_json"))
    headers = dict(record.headers)
    # Keyed by its source coordinates (one dead letter per key); the original key is a header.
    assert (record.topic, record.value, record.key) == ("dlq", original, b"in/2/41")
    assert headers["groundwatch.source_key"] == b"k"
    assert headers["trace"] == b"abc"
    assert headers["groundwatch.stage"] == b"decode"  # ours replaces a stale one from an earlier pass
    assert [k for k, _ in record.headers].count("groundwatch.stage") == 1
    assert headers["groundwatch.error_class"] == b"InvalidResponse"
    assert headers["groundwatch.error"] == b"record is not JSON"
    assert (headers["groundwatch.source_topic"], headers["groundwatch.source_partition"],
            headers["groundwatch.source_offset"]) == (b"in", b"2", b"41")


def test_a_headers_only_dead_letter_keeps_its_coordinate_key_and_drops_a_huge_source_key():
    msg = Message(topic="in", partition=1, offset=9, key=b"x" * (MAX_KEPT_KEY_BYTES + 1), value=b"v" * 5000)
    record = dead_letter_record("dlq", DeadLetter(msg, "decode", "InvalidResponse", "too large", "too_large"),
                                max_bytes=0, keep_headers=False)
    headers = dict(record.headers)
    assert record.key == b"in/1/9" and "groundwatch.source_key" not in headers
    assert headers["groundwatch.truncated"] == b"value,headers,key"


class _Read:
    """A dead letter as read back from the topic."""

    def __init__(self, key, offset, reason=b"not_json", source=("in", 0, 3)):
        self._key, self._offset = key, offset
        self._headers = [("groundwatch.reason", reason), ("groundwatch.source_topic", source[0].encode()),
                         ("groundwatch.source_partition", str(source[1]).encode()),
                         ("groundwatch.source_offset", str(source[2]).encode())]

    def key(self):
        return self._key

    def headers(self):
        return self._headers

    def partition(self):
        return 0

    def offset(self):
        return self._offset


def test_latest_per_key_keeps_one_dead_letter_per_source_message_the_last_copy():
    first = _Read(dead_letter_key("in", 0, 3), 0)
    other = _Read(dead_letter_key("in", 0, 4), 1, source=("in", 0, 4))
    replayed = _Read(dead_letter_key("in", 0, 3), 2, reason=b"deadline")  # the same message after a kill -9
    unkeyed = _Read(None, 3, source=("in", 1, 7))  # written before dead letters were keyed
    unkeyed_again = _Read(None, 4, source=("in", 1, 7))
    letters, dropped = latest_per_key([first, other, replayed, unkeyed, unkeyed_again])
    assert letters == [other, replayed, unkeyed_again] and dropped == 2


def test_next_offsets_is_one_past_the_highest_per_partition():
    messages = [_msg(5, 0), _msg(7, 1), _msg(6, 0), _msg(3, 0, topic="other")]
    assert [(tp.topic, tp.partition, tp.offset) for tp in next_offsets(messages)] == [
        ("in", 0, 7), ("in", 1, 8), ("other", 0, 4)]


def test_batch_drop_forgets_revoked_partitions_everywhere():
    a, b = _msg(1, 0), _msg(2, 1)
    batch = Batch([a, b])
    batch.add_dead_letters([DeadLetter(b, "decode", "InvalidResponse", "x", "schema")])
    batch.drop({("in", 1)})
    assert batch.messages == [a] and batch.dead == [] and batch.pending == []
    assert [(tp.partition, tp.offset) for tp in batch.offsets()] == [(0, 2)]


def test_scoring_reason_is_a_fixed_word_never_the_exception_text():
    assert scoring_reason(ScoringError.wrap("pairs", RuntimeError("Already borrowed"))) == "pairs"
    assert scoring_reason(ScoringError("Fail: [ONNXRuntimeError] : 1 : FAIL")) == "score"
    assert scoring_reason(ValueError("anything")) == "score"
    assert {"pairs", "score", "deadline", "too_many_claims"} <= set(DEAD_LETTER_REASONS["score"])


def test_backoff_grows_to_the_cap_and_resets():
    backoff = Backoff(0.5, 4.0, jitter=0.0)
    assert [backoff.next() for _ in range(6)] == [0.5, 1.0, 2.0, 4.0, 4.0, 4.0]
    backoff.reset()
    assert backoff.next() == 0.5
    jittered = Backoff(1.0, 1.0, jitter=0.2)
    assert all(0.8 <= jittered.next() <= 1.0 for _ in range(50))
    with pytest.raises(ValueError, match="initial_s"):
        Backoff(0, 1)
