"""Every command that writes a file creates its folder first (`make demo` on a fresh clone writes build/...)."""

from __future__ import annotations

import ast
import json
from pathlib import Path

from groundwatch.cli import main
from groundwatch.scorers.files import output_path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "responses.jsonl"
# Packages whose writers take a path from the user. training/ writes into model folders it made itself,
# audit/neighbours.py into a temporary folder it was handed; the scoring core writes nothing a user names.
WRITERS = ["groundwatch", "evaluation", "reports", "recall_probe", "audit", "consumer", "export"]
EXEMPT = {"audit/neighbours.py"}


def test_output_path_creates_missing_parents(tmp_path):
    target = output_path(tmp_path / "a" / "b" / "out.json")
    assert target.parent.is_dir() and not target.exists()
    assert output_path(target) == target  # existing folder: nothing to do


def _is_output_path(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and getattr(node.func, "id", None) == "output_path"


def _unguarded_writes(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id == "open" and node.args:
            mode = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "mode"), None)
            writes = isinstance(mode, ast.Constant) and any(c in str(mode.value) for c in "wax")
            if writes and not _is_output_path(node.args[0]):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
        elif isinstance(func, ast.Attribute) and func.attr in ("write_text", "write_bytes"):
            if not _is_output_path(func.value):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_every_writer_goes_through_output_path():
    files = [p for package in WRITERS for p in sorted((ROOT / package).rglob("*.py"))
             if str(p.relative_to(ROOT)) not in EXEMPT]
    assert [w for p in files for w in _unguarded_writes(p)] == []


def test_score_writes_into_a_folder_that_does_not_exist(tmp_path, tiny_onnx, capsys):
    responses = tmp_path / "responses.jsonl"
    responses.write_text("".join(EXAMPLES.read_text(encoding="utf-8").splitlines(keepends=True)[:2]))
    out = tmp_path / "build" / "nested" / "verdicts.jsonl"
    assert main(["score", "--input", str(responses), "--output", str(out), "--model", str(tiny_onnx),
                 "--no-progress"]) == 0
    assert [json.loads(line)["request_id"] for line in out.read_text().splitlines()] == ["ex-001", "ex-002"]
    assert "responses" in capsys.readouterr().out


def test_a_reader_that_stops_early_gets_no_traceback():
    import subprocess
    import sys

    command = (f"{sys.executable} -m groundwatch.cli audit-corpus --input tests/data/corpora/conflicts.jsonl "
               "--no-nli --no-progress | head -c 20")
    done = subprocess.run(command, shell=True, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.stdout.startswith("corpus consistency") and "Traceback" not in done.stderr, done.stderr
