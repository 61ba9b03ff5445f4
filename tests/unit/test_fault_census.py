"""The fault suite's census: what counts as lost, duplicated, misplaced; truncated dead letters are recognised."""

from __future__ import annotations

import hashlib
import random

from infra.faults.census import census
from infra.faults.workload import OVERSIZED, POISON, VALID, Message, make_messages


class Letter:
    def __init__(self, source: Message, value: bytes | None = None, extra: dict | None = None):
        self._value = source.value if value is None else value
        self._headers = [("groundwatch.source_partition", str(source.partition).encode()),
                         ("groundwatch.source_offset", str(source.offset).encode()),
                         ("groundwatch.stage", b"decode"), ("groundwatch.error_class", b"InvalidResponse"),
                         *((extra or {}).items())]

    def value(self):
        return self._value

    def headers(self):
        return self._headers


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


def test_lost_duplicated_and_wrong_bytes_are_counted():
    messages = _messages()
    valid = [m.request_id for m in messages if not m.bad]
    bad = [m for m in messages if m.bad]
    oversized = next(m for m in bad if m.kind == OVERSIZED)
    truncated = Letter(oversized, oversized.value[:1000], {
        "groundwatch.truncated": b"value", "groundwatch.original_size": str(len(oversized.value)).encode(),
        "groundwatch.original_sha256": hashlib.sha256(oversized.value).hexdigest().encode()})
    letters = [truncated] + [Letter(m) for m in bad if m is not oversized]
    letters.append(Letter(bad[-1]))                         # a dead letter sent twice
    letters[-2] = Letter(bad[-2], b"not the original")      # wrong bytes
    documents = valid[1:] + [valid[2]]                      # one lost, one duplicated
    result = census(messages, documents, letters)
    assert result["lost_valid"] == 1 and result["lost"] == 1
    assert result["duplicated_documents"] == 1 and result["duplicated_dead_letters"] == 1
    assert result["duplicated"] == 2
    assert result["dead_letters_with_wrong_bytes"] == 1, "the truncated one is accepted, the wrong one is not"
