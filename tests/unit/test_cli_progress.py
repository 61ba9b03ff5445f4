"""One --no-progress flag in every command that runs for more than a few seconds; bars go to stderr only."""

from __future__ import annotations

from pathlib import Path

import pytest

from groundwatch.cli import build_parser, main
from groundwatch.commands.progress import progress_on

ROOT = Path(__file__).resolve().parents[2]
LONG_RUNNING = {
    "score": ["--input", "x.jsonl", "--output", "y.jsonl"],
    "eval": ["--input", "x.jsonl"],
    "audit-corpus": ["--input", "x.jsonl"],
    "bench": [],
    "bench-stream": [],
    "convert": ["--dataset", "begin", "--output", "y.jsonl"],
    "probes": ["--output", "y.jsonl"],
    "recall-probe": ["--input", "x.jsonl", "--retriever", "http"],
}


@pytest.mark.parametrize("command", sorted(LONG_RUNNING))
def test_every_long_command_takes_no_progress(command):
    parser = build_parser()
    assert progress_on(parser.parse_args([command, *LONG_RUNNING[command]]))
    assert not progress_on(parser.parse_args([command, *LONG_RUNNING[command], "--no-progress"]))


def test_progress_goes_to_stderr_and_the_result_to_stdout(capsys):
    corpus = ROOT / "examples" / "probes" / "corpus.jsonl"
    assert main(["audit-corpus", "--input", str(corpus), "--no-nli"]) == 0
    out, err = capsys.readouterr()
    assert "documents" in err and "60/60" in err  # the bar
    assert out.startswith("corpus consistency") and "60/60" not in out
    assert main(["audit-corpus", "--input", str(corpus), "--no-nli", "--no-progress"]) == 0
    assert capsys.readouterr().err == ""
