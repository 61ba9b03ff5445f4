import json

import pytest

from groundwatch.scorers.errors import InvalidResponse
from groundwatch.scorers.schema import parse_response

GOOD = {"request_id": "r1", "answer": "A is B.", "passages": [{"id": "p1", "text": "A is B."}]}


def test_valid_record_parses_from_dict_str_and_bytes():
    for form in (GOOD, json.dumps(GOOD), json.dumps(GOOD).encode()):
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
