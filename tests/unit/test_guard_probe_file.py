"""The hand-written guard probe set in examples/guards/ is well formed (independent of any scorer).

Checks: every response validates against groundwatch.response.v1, request ids are unique and
expectations line up with responses, every `contains` names exactly one claim as the scorer's splitter
decomposes the answer (and every claim has an expectation), each family has at least 15 cases, each
family's target verdict is the one the README promises, derived numbers are in no passage, and the
JSONL files are what the build script writes.
"""

from __future__ import annotations

import importlib.util
import json
import re
from collections import Counter
from pathlib import Path

import pytest

from groundwatch.scorers.answer.claims import decompose
from groundwatch.scorers.schema import SCHEMA, parse_response

GUARDS = Path(__file__).resolve().parents[2] / "examples" / "guards"
VERDICTS = {"SUPPORTED", "CONTRADICTED", "NOT_ENOUGH_INFO", "NOT_SUPPORTED"}
# the verdict of each family's target claim; any other claim in the answer is SUPPORTED
TARGET = {
    "explicit_negation": {"CONTRADICTED"},
    "lexical_antonym": {"CONTRADICTED"},
    "no_longer": {"CONTRADICTED"},
    "dropped_condition": {"NOT_SUPPORTED", "NOT_ENOUGH_INFO"},
    "dropped_scope": {"NOT_SUPPORTED", "NOT_ENOUGH_INFO"},
    "wrong_arithmetic": {"CONTRADICTED"},
    "right_arithmetic": {"SUPPORTED"},
    "control_paraphrase": {"SUPPORTED"},
    "control_double_negation": {"SUPPORTED"},
}


def _records(name: str) -> list[dict]:
    return [json.loads(line) for line in (GUARDS / name).read_text(encoding="utf-8").splitlines()]


RESPONSES = _records("responses.jsonl")
EXPECTED = {e["request_id"]: e for e in _records("expected.jsonl")}


def test_every_response_validates_and_ids_are_unique():
    ids = []
    for raw in RESPONSES:
        assert raw["schema"] == SCHEMA
        response = parse_response(json.dumps(raw, ensure_ascii=False))
        assert response.question and response.metadata and response.metadata.tenant
        assert 2 <= len(response.passages) <= 4, response.request_id
        for p in response.passages:
            assert p.doc_id and p.title and 2 <= len(re.findall(r"[.!?](?:\s|$)", p.text)) <= 6, p.doc_id
        scores = [p.score for p in response.passages]
        assert scores == sorted(scores, reverse=True), response.request_id
        assert set(response.gold_passage_ids or []) <= {p.id for p in response.passages}
        ids.append(response.request_id)
    assert len(ids) == len(set(ids)) >= 160
    assert all(re.fullmatch(r"gp-\d{3}", i) for i in ids)
    assert set(EXPECTED) == set(ids)


def test_each_family_has_at_least_15_cases():
    counts = Counter(e["case"] for e in EXPECTED.values())
    assert set(counts) == set(TARGET)
    assert min(counts.values()) >= 15, counts


@pytest.mark.parametrize("raw", RESPONSES, ids=[r["request_id"] for r in RESPONSES])
def test_each_contains_names_exactly_one_claim(raw):
    expected = EXPECTED[raw["request_id"]]
    claims = [c.text.lower() for c in decompose(raw["answer"])]
    entries = expected["claims"]
    for entry in entries:
        assert entry["expected"] in VERDICTS
        hits = [c for c in claims if entry["contains"].lower() in c]
        assert len(hits) == 1, f"{entry['contains']!r} in {len(hits)} of {claims}"
    for claim in claims:  # and no claim goes without an expectation
        assert sum(e["contains"].lower() in claim for e in entries) == 1, claim
    verdicts = [e["expected"] for e in entries]
    assert sum(v in TARGET[expected["case"]] for v in verdicts) >= 1
    assert all(v in TARGET[expected["case"]] or v == "SUPPORTED" for v in verdicts)
    assert expected["all_supported"] == all(v == "SUPPORTED" for v in verdicts)


@pytest.mark.parametrize("raw", [r for r in RESPONSES if EXPECTED[r["request_id"]]["case"].endswith("arithmetic")],
                         ids=lambda r: r["request_id"])
def test_derived_numbers_are_in_no_passage(raw):
    """An arithmetic case's `contains` is the derived number: it must be computed, not copied."""
    target = EXPECTED[raw["request_id"]]["claims"][0]["contains"].lower()
    assert target in raw["answer"].lower()
    assert not any(target in p["text"].lower() for p in raw["passages"]), target


def test_files_are_what_the_build_script_writes():
    spec = importlib.util.spec_from_file_location("build_guards", GUARDS / "build_guards.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    files, _, _ = module.build_files()
    for name, content in files.items():
        assert (GUARDS / name).read_text(encoding="utf-8") == content, \
            f"examples/guards/{name} is stale: run python examples/guards/build_guards.py"
