"""Text that is not text is refused once, at decode, for every field, with one reason everywhere.

A lone surrogate and a NUL (or another C0 control character) in each string field of a
groundwatch.response.v1 record: the stream's decoder, `groundwatch score`'s reader, `serve` and the
Python API all refuse it with reason `schema`, naming the field. Tab and line ends stay legal in
texts; ids allow no control character.
"""

from __future__ import annotations

import json

import pytest

from groundwatch import Checker, InvalidResponse
from groundwatch.commands.common import read_responses
from groundwatch.consumer.decode import DecodeError, Limits, decode
from groundwatch.scorers.schema import Response, parse_response
from groundwatch.scorers.text_check import check_text
from tests.unit.test_serve import _client

BAD = {"surrogate": "\ud800", "nul": "\x00", "escape": "\x1b"}


def _record() -> dict:
    return {"request_id": "r-1", "question": "How long?", "answer": "Refunds take 30 days.",
            "passages": [{"id": "p1", "text": "Refunds take 30 days.", "doc_id": "d1", "title": "Refunds"}],
            "citations": [{"passage_id": "p1"}], "claims": ["Refunds take 30 days."],
            "gold_passage_ids": ["p1"], "metadata": {"app": "shop"}}


# (path into the record, the field name the error gives)
FIELDS = [(("request_id",), "request_id"), (("question",), "question"), (("answer",), "answer"),
          (("passages", 0, "id"), "passages.0.id"), (("passages", 0, "text"), "passages.0.text"),
          (("passages", 0, "doc_id"), "passages.0.doc_id"), (("passages", 0, "title"), "passages.0.title"),
          (("citations", 0, "passage_id"), "citations.0.passage_id"), (("claims", 0), "claims.0"),
          (("gold_passage_ids", 0), "gold_passage_ids.0"), (("metadata", "app"), "metadata.app")]


def _with(path: tuple, char: str) -> dict:
    record = _record()
    node = record
    for key in path[:-1]:
        node = node[key]
    value = node[path[-1]]
    node[path[-1]] = value[:2] + char + value[2:]
    return record


@pytest.fixture(scope="module")
def checker(tiny_onnx):
    with Checker(model_dir=str(tiny_onnx), use_embeddings=False) as c:
        yield c


@pytest.fixture(scope="module")
def serve_client():
    client, service, _ = _client()
    yield client
    service.close()


@pytest.mark.parametrize("char", list(BAD.values()), ids=list(BAD))
@pytest.mark.parametrize("path,field", FIELDS, ids=[f for _, f in FIELDS])
def test_every_field_gets_the_same_reason_on_every_path(path, field, char, tmp_path, checker, serve_client):
    record = _with(path, char)
    body = json.dumps(record).encode()  # ASCII escapes: the surrogate and NUL arrive as \ud800, \u0000

    stream = decode(body, Limits())
    assert isinstance(stream, DecodeError) and (stream.reason, stream.field) == ("schema", field)
    assert f"U+{ord(char):04X}" in stream.message

    path_in = tmp_path / "in.jsonl"
    path_in.write_bytes(body + b"\n")
    [(_, offline, _)] = list(read_responses(path_in))
    assert isinstance(offline, InvalidResponse) and (offline.reason, offline.field) == ("schema", field)

    r = serve_client.post("/v1/check", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 422
    assert (r.json()["reason"], r.json()["field"]) == ("schema", field)

    with pytest.raises(InvalidResponse) as info:
        checker.check_many([record])
    assert (info.value.reason, info.value.field) == ("schema", field)


def test_a_response_built_in_python_is_checked_too(checker):
    response = Response.model_construct(**{**parse_response(_record()).__dict__, "answer": "Refunds\x00 take"})
    with pytest.raises(InvalidResponse) as info:
        checker.check_many([response])
    assert (info.value.reason, info.value.field) == ("schema", "answer")


def test_texts_keep_tab_and_line_ends_ids_do_not():
    record = _record()
    record["answer"] = "Refunds take\t30 days.\r\nThey arrive in 5 days.\n"
    record["passages"][0]["text"] = "Refunds take 30 days.\r\n\tThey arrive in 5 days."
    assert parse_response(record).answer == record["answer"]
    for char in "\t\n\r":
        with pytest.raises(InvalidResponse) as info:
            parse_response({**_record(), "request_id": f"r{char}1"})
        assert info.value.field == "request_id"


def test_the_error_names_the_code_point_and_never_the_text():
    with pytest.raises(InvalidResponse) as info:
        check_text("secret words\x00", "answer")
    assert str(info.value) == "answer: a control character (U+0000) at position 12"
    check_text("emoji 😀 and accents é are text", "answer")
