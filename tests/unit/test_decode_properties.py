"""Property-based: whatever bytes or JSON arrive, the job never crashes; each message is scored or dead-lettered.

Hypothesis generates arbitrary bytes, arbitrary JSON documents and records that look
like groundwatch.response.v1 with every field's type and content varied (including
text with lone surrogates, huge numbers and deep nesting). The decoder must return a
Response or a DecodeError with a known reason; prepare(), with a real scorer on the
deterministic fake backend, must leave every message either scored or dead-lettered
with a stage and a reason, and each dead letter must become a producible record.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from groundwatch.config.scorer import ScorerConfig
from groundwatch.consumer.batch import Batch
from groundwatch.consumer.dead_letters import dead_letter_record
from groundwatch.consumer.decode import DecodeError, Limits, decode
from groundwatch.consumer.prepare import prepare
from groundwatch.export.metrics import DEAD_LETTER_REASONS, Metrics
from groundwatch.export.opensearch_mapping import to_document
from groundwatch.scorers.errors import InvalidResponse
from groundwatch.scorers.pipeline import Scorer
from groundwatch.scorers.schema import Response, parse_response

LIMITS = Limits(max_bytes=20_000, max_passages=8)
DECODE_REASONS = set(DEAD_LETTER_REASONS["decode"])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5),
    max_leaves=25)
any_text = st.text(alphabet=st.characters(exclude_categories=()), max_size=200)  # lone surrogates too
sentences = st.lists(st.sampled_from(["Refunds are accepted within 30 days.", "Shipping is free over $50.",
                                      "Stores open at nine.", "Hope this helps!", "It costs 12 euros.", ""]),
                     max_size=6).map(" ".join)
field_text = sentences | any_text | json_values
passage = st.fixed_dictionaries({"id": st.text(max_size=8) | st.integers() | json_values, "text": field_text},
                                optional={"score": json_values | st.floats(), "title": field_text})
looks_like_a_response = st.fixed_dictionaries(
    {"request_id": st.text(min_size=1, max_size=20) | st.integers() | json_values,
     "answer": field_text,
     "passages": st.lists(passage, max_size=10) | json_values},
    optional={"question": field_text, "timestamp": st.text(max_size=30) | st.integers() | json_values,
              "citations": st.lists(st.fixed_dictionaries({"passage_id": st.text(max_size=5) | json_values},
                                                          optional={"span": json_values}), max_size=3),
              "claims": st.lists(field_text, max_size=4) | json_values,
              "metadata": st.dictionaries(st.text(max_size=8), json_values, max_size=4) | json_values,
              "schema": st.just("groundwatch.response.v1") | st.text(max_size=10)})


def _encode(record) -> bytes:
    return json.dumps(record).encode()  # ASCII escapes: lone surrogates survive as \udxxx


class FakeMessage:
    def __init__(self, value: bytes | None, offset: int):
        self._value, self._offset = value, offset

    def value(self):
        return self._value

    def key(self):
        return b"key"

    def headers(self):
        return [("origin", b"test")]

    def topic(self):
        return "in"

    def partition(self):
        return 0

    def offset(self):
        return self._offset

    def error(self):
        return None


def _decoded_or_rejected(value: bytes | None) -> None:
    result = decode(value, LIMITS)
    if isinstance(result, DecodeError):
        assert result.reason in DECODE_REASONS and result.message and result.stage == "decode"
    else:
        assert isinstance(result, Response) and result.answer.strip() and len(result.passages) <= LIMITS.max_passages


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=2000) | st.none())
def test_arbitrary_bytes_never_crash_the_decoder(value):
    _decoded_or_rejected(value)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_arbitrary_json_never_crashes_the_decoder(document):
    _decoded_or_rejected(_encode(document))


@settings(max_examples=300, deadline=None)
@given(looks_like_a_response)
def test_records_that_look_like_responses_are_parsed_or_refused_with_a_field(record):
    try:
        parse_response(record, max_bytes=LIMITS.max_bytes, max_passages=LIMITS.max_passages)
    except InvalidResponse as exc:
        assert exc.field and str(exc)
    _decoded_or_rejected(_encode(record))


@pytest.fixture(scope="module")
def scorer():
    scorer = Scorer.from_config(ScorerConfig(backend="fake", use_embeddings=False, max_passages=LIMITS.max_passages,
                                             max_record_bytes=LIMITS.max_bytes))
    yield scorer
    scorer.close()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(st.lists(looks_like_a_response.map(_encode) | st.binary(max_size=300) | json_values.map(_encode),
                min_size=1, max_size=6))
def test_every_message_of_a_batch_is_scored_or_dead_lettered_with_a_reason(scorer, values):
    messages = [FakeMessage(value, offset) for offset, value in enumerate(values)]
    batch = Batch(messages, number=1)
    prepare(batch, scorer, LIMITS, Metrics())
    assert batch.prepared
    scored = {s.message.offset() for s in batch.scored}
    dead = [d.message.offset() for d in batch.dead]
    assert sorted(scored | set(dead)) == list(range(len(values))) and not scored & set(dead)
    assert len(dead) == len(set(dead)), "one dead letter per message"
    for letter in batch.dead:
        assert letter.stage in {"decode", "score"} and letter.reason and letter.error_class
        record = dead_letter_record("dlq", letter)
        assert record.value == letter.message.value(), "the original bytes are kept"
        assert all(isinstance(v, bytes) for _, v in record.headers)
    for s in batch.scored:
        json.dumps(to_document(s.verdict))  # what the OpenSearch sink sends
