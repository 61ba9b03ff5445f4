import json

import pytest

from groundwatch.scorers.errors import InvalidResponse
from groundwatch.config.scorer import ScorerConfig
from groundwatch.scorers.schema import LIMIT_REASONS, RecordLimits, parse_response

GOOD = {"request_id": "r1", "answer": "A is B.", "passages": [{"id": "p1", "text": "A is B."}]}


def test_valid_record_parses_from_dict_str_and_bytes():
    for form in (GOOD, json.dumps(GOOD), json.dumps(GOOD).encode(), b"\xef\xbb\xbf" + json.dumps(GOOD).encode()):
        assert parse_response(form).request_id == "r1"


@pytest.mark.parametrize("record, field", [
    ({"answer": "x", "passages": []}, "request_id"),
    ({"request_id": "r", "passages": []}, "answer"),
    ({"request_id": "r", "answer": "x"}, "passages"),
    ({"request_id": "r", "answer": "x", "passages": "p1"}, "passages"),
    ({"request_id": "r", "answer": "x", "passages": [{"id": "p1"}]}, "passages.0.text"),
    ({"request_id": "r", "answer": "x", "passages": [{"id": "p1", "text": "t"}, {"id": "p1", "text": "u"}]}, "passages"),
    ({"request_id": "r", "answer": "  ", "passages": []}, "answer"),
    ({"request_id": "r", "answer": "x", "passages": [], "citations": [{"span": [0, 1]}]}, "citations.0.passage_id"),
    ({"schema": "other.v2", "request_id": "r", "answer": "x", "passages": []}, "schema"),
])
def test_invalid_records_name_the_field(record, field):
    with pytest.raises(InvalidResponse) as info:
        parse_response(record)
    assert info.value.field == field
    assert field in str(info.value)


def test_limits_and_garbage():
    with pytest.raises(InvalidResponse, match="not JSON"):
        parse_response(b"{nope")
    with pytest.raises(InvalidResponse, match="over the limit"):
        parse_response(b"x" * 20, max_bytes=10)
    many = dict(GOOD, passages=[{"id": str(i), "text": "t"} for i in range(5)])
    with pytest.raises(InvalidResponse, match="5 passages"):
        parse_response(many, max_passages=4)


LIMITS = RecordLimits(max_bytes=1_000_000, max_passages=4, max_depth=6, max_answer_chars=50,
                      max_passage_chars=60, max_claims=2, max_claim_chars=30)


@pytest.mark.parametrize("record, reason, field", [
    (b'{"a":' * 190_000, "too_deep", "<record>"),  # past the JSON parser's own depth: refused, never raised
    (dict(GOOD, metadata={"k": [[[[[[1]]]]]]}), "too_deep", "<record>"),
    (dict(GOOD, answer="A is B. " * 10), "answer_too_long", "answer"),
    (dict(GOOD, passages=[{"id": "p1", "text": "t"}, {"id": "p2", "text": "x" * 61}]), "passage_too_long",
     "passages.1.text"),
    (dict(GOOD, claims=["A is B."] * 3), "too_many_claims", "claims"),
    (dict(GOOD, claims=["A is B.", "y" * 31]), "claim_too_long", "claims.1"),
    (dict(GOOD, passages=[{"id": str(i), "text": "t"} for i in range(5)]), "too_many_passages", "passages"),
    (b"{nope", "not_json", "<record>"),
    (dict(GOOD, answer=7), "schema", "answer"),
])
def test_each_limit_has_its_own_reason(record, reason, field):
    with pytest.raises(InvalidResponse) as info:
        parse_response(record, limits=LIMITS)
    assert (info.value.reason, info.value.field) == (reason, field)
    assert (reason in LIMIT_REASONS) == (reason not in {"not_json", "schema"})


def test_records_within_the_limits_parse_and_offline_callers_keep_only_size_and_passages():
    at_limits = dict(GOOD, answer="A" * 50, claims=["c" * 30] * 2, metadata={"k": [[[[1]]]]},
                     passages=[{"id": "p1", "text": "x" * 60}])
    assert parse_response(at_limits, limits=LIMITS).request_id == "r1"
    assert parse_response(dict(GOOD, answer="A is B. " * 5000)).request_id == "r1"
    with pytest.raises(InvalidResponse) as info:
        parse_response(b"[" * 100_000 + b"]" * 100_000)
    assert info.value.reason == "too_deep"


def test_limits_come_from_the_scorer_settings():
    limits = RecordLimits.from_config(ScorerConfig(max_json_depth=9, max_claim_chars=7, max_passages=3))
    assert (limits.max_depth, limits.max_claim_chars, limits.max_passages) == (9, 7, 3)
    assert limits.max_bytes == ScorerConfig().max_record_bytes
