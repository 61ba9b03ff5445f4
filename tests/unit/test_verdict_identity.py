"""The identity check's comparison: equal records but for the code version and time pass, anything else is named."""

from __future__ import annotations

import json
from pathlib import Path

from tests.verdict_identity import SETS, compare

RECORD = {"request_id": "r-1", "scorer_version": "0.1.3+aaaa", "scored_at": "2026-12-05T18:00:00+00:00",
          "response": {"all_supported": True}, "claims": [{"index": 0, "verdict": "SUPPORTED", "entailment": 0.91}]}


def _write(folder: Path, records: list[dict]) -> Path:
    folder.mkdir()
    for name in SETS:
        (folder / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    return folder


def test_the_three_sets_are_committed():
    assert all(path.exists() for path in SETS.values())


def test_records_equal_but_for_the_code_version_and_time_are_identical(tmp_path):
    later = RECORD | {"scorer_version": "0.1.4+bbbb", "scored_at": "2026-12-06T09:00:00+00:00"}
    assert compare(_write(tmp_path / "a", [RECORD]), _write(tmp_path / "b", [later])) == []


def test_a_changed_verdict_is_named_by_set_request_and_field(tmp_path):
    changed = json.loads(json.dumps(RECORD))
    changed["claims"][0]["verdict"] = "NOT_ENOUGH_INFO"
    found = compare(_write(tmp_path / "a", [RECORD]), _write(tmp_path / "b", [changed]))
    assert found == [f"{name}: r-1 differs at claims[0].verdict" for name in SETS]


def test_a_missing_record_and_a_missing_file_are_reported(tmp_path):
    before = _write(tmp_path / "a", [RECORD, RECORD | {"request_id": "r-2"}])
    after = _write(tmp_path / "b", [RECORD])
    (after / "controls.jsonl").unlink()
    found = compare(before, after)
    assert "examples: r-2 only in before" in found
    assert any(line.startswith("controls: no ") for line in found)
