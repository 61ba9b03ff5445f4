"""The fault suite's census: what counts as lost, duplicated, misplaced; truncated dead letters are recognised;
dead letters count one per key, a replayed copy under the same key is not a duplicate."""

from __future__ import annotations

import hashlib
import random

from groundwatch.consumer.dead_letters import dead_letter_key
from infra.faults.census import census
from infra.faults.workload import OVERSIZED, POISON, VALID, Message, make_messages


class Letter:
    read = 0  # the dead-letter topic's offsets, in the order letters are made

    def __init__(self, source: Message, value: bytes | None = None, extra: dict | None = None,
                 key: bytes | None = None):
        self._value = source.value if value is None else value
        self._key = dead_letter_key("t", source.partition, source.offset) if key is None else key
        self._offset, Letter.read = Letter.read, Letter.read + 1
        self._headers = [("groundwatch.source_topic", b"t"),
                         ("groundwatch.source_partition", str(source.partition).encode()),
                         ("groundwatch.source_offset", str(source.offset).encode()),
                         ("groundwatch.stage", b"decode"), ("groundwatch.error_class", b"InvalidResponse"),
                         *((extra or {}).items())]

    def value(self):
        return self._value

    def headers(self):
        return self._headers

    def key(self):
        return self._key

    def partition(self):
        return 0

    def offset(self):
        return self._offset


def _messages() -> list[Message]:
    messages = make_messages(40, random.Random(1), "t", bad_fraction=0.25, oversized=2, max_record_bytes=5_000,
                             max_passages=4)
    for offset, m in enumerate(messages):
        m.partition, m.offset = offset % 2, offset // 2
    return messages


def test_the_workload_has_every_kind():
    messages = _messages()
    kinds = {m.kind for m in messages}
    assert kinds == {VALID, OVERSIZED, *POISON}
    assert all(len(m.value) > 5_000 for m in messages if m.kind == OVERSIZED)


def test_a_clean_run_counts_nothing_lost_or_duplicated():
    messages = _messages()
    valid = [m.request_id for m in messages if not m.bad]
    letters = [Letter(m) for m in messages if m.bad]
    result = census(messages, valid, letters)
    assert (result["lost"], result["duplicated"], result["valid_dead_lettered"]) == (0, 0, 0)
    assert result["documents"] == len(valid) and result["dead_letters"] == len(letters)
    assert result["dead_letters_with_wrong_bytes"] == 0
    assert (result["dead_letter_records"], result["redelivered_dead_letters"]) == (len(letters), 0)
    assert result["dead_letters_with_wrong_key"] == 0


def test_a_replayed_copy_under_the_same_key_is_not_a_duplicate_a_second_key_is():
    messages = _messages()
    valid = [m.request_id for m in messages if not m.bad]
    bad = [m for m in messages if m.bad]
    replayed = [Letter(m) for m in bad] + [Letter(bad[0]), Letter(bad[1])]  # a batch replayed after a kill -9
    result = census(messages, valid, replayed)
    assert (result["dead_letters"], result["dead_letter_records"], result["redelivered_dead_letters"]) == (
        len(bad), len(bad) + 2, 2)
    assert result["duplicated"] == 0 and result["lost"] == 0
    rekeyed = [Letter(m) for m in bad] + [Letter(bad[0], key=b"elsewhere")]
    result = census(messages, valid, rekeyed)
    assert result["duplicated_dead_letters"] == 1 and result["dead_letters_with_wrong_key"] == 1


def test_lost_duplicated_and_wrong_bytes_are_counted():
    messages = _messages()
    valid = [m.request_id for m in messages if not m.bad]
    bad = [m for m in messages if m.bad]
    oversized = next(m for m in bad if m.kind == OVERSIZED)
    truncated = Letter(oversized, oversized.value[:1000], {
        "groundwatch.truncated": b"value", "groundwatch.original_size": str(len(oversized.value)).encode(),
        "groundwatch.original_sha256": hashlib.sha256(oversized.value).hexdigest().encode()})
    letters = [truncated] + [Letter(m) for m in bad if m is not oversized]
    letters[-1] = Letter(bad[-1], b"not the original")      # wrong bytes
    letters.append(Letter(bad[-2], key=b"again"))           # a second dead letter under another key
    documents = valid[1:] + [valid[2]]                      # one lost, one duplicated
    result = census(messages, documents, letters)
    assert result["lost_valid"] == 1 and result["lost"] == 1
    assert result["duplicated_documents"] == 1 and result["duplicated_dead_letters"] == 1
    assert result["duplicated"] == 2
    assert result["dead_letters_with_wrong_bytes"] == 1, "the truncated one is accepted, the wrong one is not"
    assert result["dead_letters_with_wrong_key"] == 1
