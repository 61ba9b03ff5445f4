"""`groundwatch consume` imports spaCy without letting thinc import torch (about 140 MB of RSS in a
development install), and torch still imports afterwards for whoever needs it."""

from __future__ import annotations

import subprocess
import sys

import pytest

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
