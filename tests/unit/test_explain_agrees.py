"""The explanation agrees with the decision: only checks that applied, claims numbered from 1, a response
score that says what it is, each evidence region once, and no derived line saying a value equals itself."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

from groundwatch.reports.explain import NOT_APPLIED, render

ROOT = Path(__file__).resolve().parents[2]
QUICKSTART = json.loads((ROOT / "docs" / "figures" / "quickstart-verdict.json").read_text(encoding="utf-8"))


def test_the_not_applied_words_are_the_guards_own():
    guards = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "scorers").rglob("*.py"))
    for words in NOT_APPLIED:
        assert words.rstrip() in guards, f"no guard says {words!r} any more: update reports/explain.py"


def test_a_check_that_found_nothing_to_check_is_not_shown_and_a_failed_one_always_is():
    record = copy.deepcopy(QUICKSTART)
    checks = record["claims"][1]["checks"]
    checks += [{"name": "dropped_condition", "passed": True, "detail": "no condition on the claim's key content"},
               {"name": "quote", "passed": False, "detail": "no evidence sentence shares content with the claim"}]
    text = render(record)
    assert "no condition on the claim's key content" not in text
    assert "check quote" in text and "FAIL no evidence sentence" in text


def test_claims_are_numbered_from_one_in_every_line_a_person_reads():
    text = render(QUICKSTART)
    assert "claim 0" not in text
    assert re.search(r"^action: strip .*claim 1: NOT_ENOUGH_INFO", text, re.M)
    assert "all claims supported: NO (claim 1 not supported)" in text


def test_the_response_score_says_what_it_is_and_which_claim_gives_it():
    text = render(QUICKSTART)
    score = QUICKSTART["response"]["score"]
    assert f"response score {score:.2f}: the lowest model entailment of its claims (claim 1), before the checks" in text
    assert "(min entailment)" not in text


def test_a_sentence_inside_a_chunk_already_shown_is_not_shown_again():
    text = render(QUICKSTART)
    claim_1 = text.split("\nclaim 2")[0]
    assert claim_1.count("kb-7[0:111] of 111 characters") == 1 and "kb-7[0:49] of 111 characters" not in claim_1


def test_a_supported_claim_shows_only_evidence_sentences_of_the_premise_that_entails_it():
    record = copy.deepcopy(QUICKSTART)
    claim = record["claims"][1]
    assert claim["verdict"] == "SUPPORTED"
    deciding = max(claim["evidence"], key=lambda e: e["entailment"])
    elsewhere = {"passage_id": "kb-9", "start": 0, "end": 20, "text": "A sentence elsewhere."}
    claim["evidence_sentences"] = [elsewhere, *claim["evidence_sentences"]]
    part = render(record).split("\nclaim 2")[1]
    assert "kb-9" not in part and "A sentence elsewhere." not in part
    start, end = deciding["offsets"][0]
    shown = claim["evidence_sentences"][1]
    assert start <= shown["start"] and shown["end"] <= end and repr(shown["text"]) in " ".join(part.split())


def test_every_headline_score_is_on_a_listed_premise():
    records = [QUICKSTART, json.loads((ROOT / "tests" / "data" / "verdicts" / "ex-049.json").read_text())]
    for record in records:
        for block in render(record).split("\nclaim ")[1:]:
            head = re.search(r"best entailment (\d\.\d\d), best contradiction (\d\.\d\d)", block)
            if head is None:  # a decorative claim
                continue
            premises = re.findall(r"^  - \[.*?\] entail (\d\.\d\d) / neutral \d\.\d\d / contradict (\d\.\d\d)", block, re.M)
            assert head.group(1) in {e for e, _ in premises} and head.group(2) in {c for _, c in premises}, block
