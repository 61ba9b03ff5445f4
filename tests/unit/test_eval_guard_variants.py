"""Guards off vs on re-decided from one set of stored verdicts (evaluation/redecide/guard_variants.py, compare.py)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from groundwatch.evaluation.dataset import Labelled
from groundwatch.evaluation.redecide.guard_variants import drop_check, guard_rows, guards_table, parse_guards, record_verdicts
from groundwatch.evaluation.scored import Scored, StoredClaim, Variant
from groundwatch.scorers.records import Check, Evidence, Verdict
from groundwatch.scorers.schema import parse_response
from groundwatch.scorers.verdicts.thresholds import Thresholds

ROOT = Path(__file__).resolve().parents[2]
BASE = Variant(Thresholds(0.65, 0.90, "static"))


def _claim(entailment: float, polarity_fires: bool) -> StoredClaim:
    evidence = [Evidence(["p1"], [(0, 10)], entailment, 1 - entailment, 0.0, 1.0, rank=0)]
    checks = [Check("polarity", not polarity_fires, "", "CONTRADICTED" if polarity_fires else None,
                    "polarity_mismatch" if polarity_fires else None)]
    return StoredClaim(Verdict.SUPPORTED, evidence, checks, [], "claim")


def _scored(rid: str, unsupported: bool, claim: StoredClaim, set_name: str) -> Scored:
    response = parse_response({"request_id": rid, "answer": "x", "passages": [{"id": "p1", "text": "y"}]})
    return Scored(Labelled(response, unsupported, set_name=set_name), [claim])


def test_parse_guards():
    assert parse_guards("both") == ["guards-off", "guards-on"]
    assert parse_guards("guards-on,guards-off") == ["guards-off", "guards-on"]
    assert parse_guards("off") == ["guards-off"]
    with pytest.raises(ValueError):
        parse_guards("sometimes")


def test_rows_differ_by_the_guards_alone_and_the_drop_check():
    # a: unsupported, high entailment, polarity fires -> caught only with guards on
    # b: supported, high entailment, polarity fires (a false alarm) -> wrong only with guards on
    scored = [_scored("a1", True, _claim(0.9, True), "s1"), _scored("a2", True, _claim(0.9, True), "s1"),
              _scored("b1", False, _claim(0.9, False), "s1"), _scored("c1", False, _claim(0.9, True), "s2"),
              _scored("c2", True, _claim(0.2, False), "s2")]
    rows = guard_rows(scored, BASE, ["guards-off", "guards-on"], resamples=50)
    by = {(r["group"], r["guards"]): r for r in rows}
    assert set(by) == {(g, s) for g in ("set:s1", "set:s2", "pooled") for s in ("guards-off", "guards-on")}
    assert by[("set:s1", "guards-off")]["balanced_accuracy"] == 0.5
    assert by[("set:s1", "guards-on")]["balanced_accuracy"] == 1.0
    assert by[("set:s2", "guards-off")]["balanced_accuracy"] == 1.0
    assert by[("set:s2", "guards-on")]["balanced_accuracy"] == 0.5
    checks = {c["group"]: c for c in drop_check(rows)}
    assert checks["set:s1"]["delta"] == 0.5 and checks["set:s1"]["ok"]
    assert checks["set:s2"]["delta"] == -0.5
    assert checks["set:s2"]["half_width"] is None and checks["set:s2"]["ok"] is None  # two responses: no interval
    assert "guards on vs off" in guards_table(rows)


def _record(rid: str, entailment: float, polarity_fires: bool) -> dict:
    check = {"name": "polarity", "passed": not polarity_fires, "detail": "",
             "verdict": "CONTRADICTED" if polarity_fires else None,
             "flag": "polarity_mismatch" if polarity_fires else None}
    claim = {"text": f"claim {rid}", "verdict": "NOT_ENOUGH_INFO" if polarity_fires else "SUPPORTED",
             "entailment": entailment, "contradiction": 0.0, "flags": [], "checks": [check],
             "evidence": [{"passage_ids": ["p1"], "offsets": [[0, 10]], "entailment": entailment,
                           "neutral": 1 - entailment, "contradiction": 0.0, "retrieval_score": 1.0, "rank": 0}]}
    return {"request_id": rid, "model": "m@1", "scored_at": "now", "claims": [claim],
            "response": {"all_supported": not polarity_fires}}


def test_record_verdicts_off_and_on():
    record = _record("r", 0.9, True)
    assert record_verdicts(record, BASE) == ["NOT_ENOUGH_INFO"]  # a guard caps, it does not convict
    assert record_verdicts(record, Variant(BASE.thresholds, guards=False)) == ["SUPPORTED"]


def test_compare_guard_columns(tmp_path):
    verdicts, expected, out = tmp_path / "v.jsonl", tmp_path / "e.jsonl", tmp_path / "out.json"
    verdicts.write_text("\n".join(json.dumps(r) for r in (_record("r1", 0.9, True), _record("r2", 0.9, False))) + "\n")
    expected.write_text("\n".join(json.dumps(e) for e in (
        {"request_id": "r1", "case": "negation", "all_supported": False,
         "claims": [{"contains": "claim r1", "expected": "NOT_SUPPORTED"}]},
        {"request_id": "r2", "case": "control", "all_supported": True,
         "claims": [{"contains": "claim r2", "expected": "SUPPORTED"}]})) + "\n")
    subprocess.run([sys.executable, str(ROOT / "examples" / "compare.py"), str(verdicts), "--expected", str(expected),
                    "--guards", "both", "--json", str(out)], check=True, cwd=ROOT, capture_output=True)
    d = json.loads(out.read_text())
    assert d["agree"] == {"guards-off": 1, "guards-on": 2}
    assert d["by_family"]["negation"]["guards-off"]["verdicts"] == {"SUPPORTED": 1}
    assert d["by_family"]["negation"]["guards-on"]["agree"] == 1
    assert d["saved_differs_from_guards_on"] == 0
