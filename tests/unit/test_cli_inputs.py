"""Inputs are read and checked before any model loads; a bad line fails fast, naming the line and field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from groundwatch.cli import main
from groundwatch.scorers.jsonl import JsonlError, read_jsonl

ROOT = Path(__file__).resolve().parents[2]
GOOD = {"request_id": "r1", "answer": "Refunds take 30 days.", "passages": [{"id": "p1", "text": "Refunds take 30 days."}]}
NO_TEXT = {"request_id": "r2", "answer": "Refunds take 30 days.", "passages": [{"id": "p1"}]}


@pytest.fixture
def no_model(monkeypatch):
    """Any attempt to load a model (or start the benchmark's model processes) fails the test."""
    def refuse(*args, **kwargs):
        raise AssertionError("a model was loaded before the input was checked")

    import groundwatch.evaluation.bench.runner as bench_runner
    import groundwatch.scorers.pipeline as pipeline

    monkeypatch.setattr(pipeline.Scorer, "from_config", classmethod(refuse))
    monkeypatch.setattr(bench_runner, "run_bench", refuse)


def _jsonl(path: Path, *records) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records))
    return path


def test_audit_corpus_reads_the_example_corpus_whose_documents_have_id(tmp_path, capsys):
    out = tmp_path / "audit.json"
    assert main(["audit-corpus", "--input", str(ROOT / "examples" / "probes" / "corpus.jsonl"), "--no-nli",
                 "--no-progress", "--output", str(out)]) == 0
    report = json.loads(out.read_text())
    assert report["corpus"]["documents"] == 60
    assert "corpus consistency" in capsys.readouterr().out


@pytest.mark.parametrize("command, records, names", [
    (["score", "--output", "{tmp}/v.jsonl"], [NO_TEXT], ["line 1", "passages.0.text"]),
    (["eval"], [GOOD | {"label": "supported"}, NO_TEXT | {"label": "supported"}], ["line 2", "passages.0.text"]),
    (["bench", "--input"], [GOOD, NO_TEXT], ["line 2", "passages.0.text"]),
    (["audit-corpus", "--no-progress"], [{"doc_id": "a", "text": "x"}, {"title": "no id", "text": "y"}],
     ["line 2", "doc_id is missing"]),
    (["score", "--output", "{tmp}/v.jsonl"], ['{"request_id": "r1", "answer": "unterminated'], ["line 1", "not JSON"]),
])
def test_a_bad_input_fails_before_any_model_loads(command, records, names, tmp_path, capsys, no_model):
    path = _jsonl(tmp_path / "input.jsonl", *records)
    argv = [a.replace("{tmp}", str(tmp_path)) for a in command]
    argv += [str(path)] if argv[-1] == "--input" else ["--input", str(path)]
    assert main(argv) != 0
    err = capsys.readouterr().err
    assert all(n in err for n in names), err


def test_json_errors_read_at_column_once(tmp_path):
    path = _jsonl(tmp_path / "bad.jsonl", '{"a": "unterminated')
    with pytest.raises(JsonlError) as info:
        list(read_jsonl(path))
    assert "not JSON: Invalid control character at column 20" in str(info.value)  # the decoder's msg ends in "at"
