"""The sample traffic in examples/ stays valid, consistent with its expectations, and up to date."""

from __future__ import annotations

import importlib.util
import json
from datetime import datetime
from pathlib import Path

import pytest

from groundwatch.scorers.answer.claims import Claim, decompose, given_claims
from groundwatch.scorers.errors import InvalidResponse
from groundwatch.scorers.schema import parse_response
from groundwatch.scorers.answer.yes_no import answered_statement

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
VERDICTS = {"SUPPORTED", "CONTRADICTED", "NOT_ENOUGH_INFO", "NOT_SUPPORTED", "SKIPPED"}


def _lines(name: str) -> list[str]:
    return (EXAMPLES / name).read_text(encoding="utf-8").splitlines()


def _responses():
    return [parse_response(line) for line in _lines("responses.jsonl")]


def _expected() -> dict[str, dict]:
    return {e["request_id"]: e for e in map(json.loads, _lines("expected.jsonl"))}


def _claims(response):
    """The claims as the scorer checks them: a bare yes/no answer becomes the statement it makes."""
    claims = given_claims(response.answer, response.claims) if response.claims else decompose(response.answer)
    return [Claim(answered_statement(response.question, c.text) or c.text, c.span) for c in claims]


def test_every_response_parses_and_looks_like_traffic():
    lines = _lines("responses.jsonl")
    responses = _responses()
    assert len(responses) >= 48
    ids = [r.request_id for r in responses]
    assert len(set(ids)) == len(ids)
    for line, r in zip(lines, responses):
        raw = json.loads(line)
        assert raw["schema"] == "groundwatch.response.v1"
        assert r.question and r.timestamp and r.metadata and r.metadata.app and r.metadata.tenant
        assert (r.timestamp.year, r.timestamp.month) == (2026, 11)
        assert 2 <= len(r.passages) <= 6, r.request_id
        scores = [p.score for p in r.passages]
        assert all(s is not None and 0 <= s <= 1 for s in scores)
        assert scores == sorted(scores, reverse=True), r.request_id
        for p in r.passages:
            assert p.doc_id and p.title and p.text.strip()
            datetime.fromisoformat(p.updated_at)
        for gold in r.gold_passage_ids or []:
            assert gold in {p.id for p in r.passages}, (r.request_id, gold)
    timestamps = [r.timestamp for r in responses]
    assert timestamps == sorted(timestamps)
    assert (timestamps[-1] - timestamps[0]).days >= 2
    assert len({r.metadata.tenant for r in responses}) >= 3


def test_citation_spans_point_inside_the_answer():
    cited = 0
    for r in _responses():
        for c in r.citations:
            assert c.span is not None, r.request_id
            start, end = c.span
            assert 0 <= start < end <= len(r.answer), (r.request_id, c.span)
            text = r.answer[start:end]
            assert text == text.strip() and text[-1] in ".!?", (r.request_id, text)
            cited += 1
    assert cited >= 5


def test_expected_file_matches_the_responses():
    responses = {r.request_id: r for r in _responses()}
    expected = _expected()
    assert set(expected) == set(responses)
    for rid, e in expected.items():
        assert e["case"] and e["claims"], rid
        assert all(c["expected"] in VERDICTS for c in e["claims"]), rid
        scored = [c["expected"] for c in e["claims"] if c["expected"] != "SKIPPED"]
        assert e["all_supported"] == all(v == "SUPPORTED" for v in scored), rid
    assert expected["ex-003"]["case"] == "refund_condition_dropped"
    assert not expected["ex-003"]["all_supported"]


@pytest.mark.parametrize("request_id", sorted(_expected()))
def test_each_expectation_names_exactly_one_claim(request_id):
    response = next(r for r in _responses() if r.request_id == request_id)
    claims = [c.text for c in _claims(response)]
    for entry in _expected()[request_id]["claims"]:
        hits = [c for c in claims if entry["contains"].lower() in c.lower()]
        assert len(hits) == 1, f"{entry['contains']!r} in {len(hits)} of {claims}"


def test_bad_responses_fail_with_the_right_fields():
    errors, valid = [], []
    for line in _lines("bad_responses.jsonl"):
        try:
            valid.append(parse_response(line).request_id)
        except InvalidResponse as exc:
            errors.append(exc.field)
    assert valid == ["bad-001", "bad-004"]
    assert errors == ["answer", "passages", "passages.1.text", "<record>", "passages"]


def test_files_are_what_the_build_script_writes():
    spec = importlib.util.spec_from_file_location("build_examples", EXAMPLES / "build_examples.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    files, _, _ = module.build_files()
    for name, content in files.items():
        assert (EXAMPLES / name).read_text(encoding="utf-8") == content, \
            f"examples/{name} is stale: run python examples/build_examples.py"
