"""`groundwatch explain`: the deciding evidence is shown whole (elided around it, never over it)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from groundwatch.cli import main
from groundwatch.commands.explain import use_color
from groundwatch.reports.explain import render

# The verdict record `groundwatch score` wrote for examples/responses.jsonl ex-049 (before guards existed):
# claim 1 is NOT_ENOUGH_INFO, and the sentence that settles it starts at character 352 of passage p1.
EX_049 = Path(__file__).resolve().parents[1] / "data" / "verdicts" / "ex-049.json"
SLA = "The SLA does not apply to the Team plan or to free trials."


@pytest.fixture
def ex049() -> dict:
    return json.loads(EX_049.read_text())


def flat(text: str) -> str:
    return " ".join(text.split())


def test_explain_of_ex049_shows_the_sla_sentence(ex049, tmp_path, capsys):
    verdicts = tmp_path / "verdicts.jsonl"
    verdicts.write_text(json.dumps(ex049) + "\n")
    assert main(["explain", "ex-049", "--verdicts", str(verdicts)]) == 0
    out = capsys.readouterr().out
    claim_1 = out.split("claim 2")[0]
    assert "NOT_ENOUGH_INFO" in claim_1 and SLA in flat(claim_1)
    assert "p1[0:410] of 410 characters" in claim_1 and "[…]" not in out
    assert "\x1b[" not in out  # not a terminal: no ANSI codes


def test_evidence_sentences_and_failed_guard_checks_are_shown_with_passage_and_offsets(ex049):
    claim = ex049["claims"][0]
    sentence = {"passage_id": "p1", "start": 352, "end": 410, "text": SLA, "shared": 4, "coverage": 1.0}
    claim["evidence_sentences"] = [sentence]
    claim["checks"] = [{"name": "numbers", "passed": True, "detail": "no numbers"},
                       {"name": "polarity", "passed": False, "detail": "negation on one side only",
                        "verdict": "CONTRADICTED", "flag": "polarity_mismatch", "evidence": sentence, "found": {}}]
    text = render(ex049)
    first = text.split("claim 2")[0]
    assert f"p1[352:410] {SLA!r}" in first
    assert "check polarity FAIL negation on one side only -> CONTRADICTED (on p1[352:410])" in first
    assert first.index("check polarity") < first.index("check numbers")  # failed checks first
    assert f"»{SLA}«" in flat(first)  # marked inside its chunk
    colored = render(ex049, color=True)
    assert f"\x1b[1;33m{SLA}\x1b[0m" in flat(colored) and "»" not in colored


def _long_passage_record(ex049: dict, with_sentence: bool) -> tuple[dict, list[str]]:
    record = copy.deepcopy(ex049)
    sentences = [f"Clause {i} of the service terms covers topic number {i} in some detail." for i in range(40)]
    sentences[25] = SLA
    text = " ".join(sentences)
    start = text.index(SLA)
    record["passages"][0]["text"] = text
    claim = record["claims"][0]
    claim["evidence"] = [e for e in claim["evidence"] if e["passage_ids"] == ["p1"]]
    claim["evidence"][0]["offsets"] = [[0, len(text)]]
    if with_sentence:
        claim["evidence_sentences"] = [{"passage_id": "p1", "start": start, "end": start + len(SLA), "text": SLA}]
    return record, sentences


def test_a_long_chunk_is_elided_around_the_evidence_never_over_it(ex049):
    record, sentences = _long_passage_record(ex049, with_sentence=True)
    first = flat(render(record).split("claim 2")[0])
    assert f"{sentences[24]} »{SLA}« {sentences[26]}" in first  # the sentence whole, one either side
    assert "[…]" in first and sentences[3] not in first and sentences[30] not in first


def test_without_evidence_sentences_a_long_chunk_is_shown_whole(ex049):
    record, sentences = _long_passage_record(ex049, with_sentence=False)
    first = flat(render(record).split("claim 2")[0])
    assert " ".join(sentences) in first and "[…]" not in first


class _Stream:
    def __init__(self, tty: bool):
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize("tty, environ, expected", [
    (True, {}, True), (False, {}, False), (True, {"NO_COLOR": "1"}, False), (True, {"NO_COLOR": ""}, True),
])
def test_color_only_on_a_terminal_without_no_color(tty, environ, expected):
    assert use_color(_Stream(tty), environ) is expected


def test_a_request_not_in_the_file_is_a_one_line_error(ex049, tmp_path, capsys):
    verdicts = tmp_path / "verdicts.jsonl"
    verdicts.write_text(json.dumps(ex049) + "\n")
    assert main(["explain", "ex-999", "--verdicts", str(verdicts)]) == 2
    assert "ex-999" in capsys.readouterr().err
