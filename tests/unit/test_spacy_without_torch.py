"""The commands import spaCy without letting thinc import torch (about 140 MB of RSS in a development
install) unless the torch backend is chosen, and torch still imports afterwards for whoever needs it."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "responses.jsonl"

SCRIPT = """
import sys
from groundwatch.scorers.english.lemmas import analyse, import_spacy_without_torch
import_spacy_without_torch()
assert "torch" not in sys.modules, "spaCy pulled torch in"
assert [t.text for t in analyse("Refunds aren't available after 30 days.").tokens][:3] == ["Refunds", "are", "n't"]
assert "torch" not in sys.modules
try:
    import torch  # noqa: F401
except ImportError:
    pass  # not installed: nothing to show
print("ok")
"""


def test_the_tokenizer_works_without_torch_and_torch_still_imports():
    pytest.importorskip("spacy")
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "ok"


COMMAND = """
import sys
from groundwatch.cli import main
assert main(["score", "--input", sys.argv[1], "--output", sys.argv[2], "--no-progress"]) == 0
print("torch" in sys.modules)
"""


def test_the_commands_score_on_onnx_without_torch_in_the_process(tmp_path):
    """`score`, `serve` and `consume` build their scorer alike (commands/common.build_scorer)."""
    pytest.importorskip("spacy")
    if importlib.util.find_spec("torch") is None:
        pytest.skip("torch is not installed: nothing could import it")
    source = tmp_path / "two.jsonl"
    source.write_text("".join(EXAMPLES.read_text(encoding="utf-8").splitlines(keepends=True)[:2]), encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", COMMAND, str(source), str(tmp_path / "verdicts.jsonl")],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "False", "torch was imported on the ONNX path"
