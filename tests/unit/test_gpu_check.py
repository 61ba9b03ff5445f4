"""infra/gpu_check.py without a GPU: the CPU self-test path (pair set, the shipped model rebuilt in
fp32, one tiny model per kind, parity) passes, and a plain run says there is no CUDA and exits 2."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def gpu_check():
    spec = importlib.util.spec_from_file_location("gpu_check", ROOT / "infra" / "gpu_check.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["gpu_check"] = module
    spec.loader.exec_module(module)
    return module


def test_pair_set_is_fixed(gpu_check):
    per_response = gpu_check.responses(3)
    assert len(per_response) == 4 and per_response[-1] == gpu_check.FIXED_PAIRS
    assert all(len(pairs) >= 2 for pairs in per_response)
    assert gpu_check.responses(3) == per_response


def test_cpu_self_test_passes_parity(gpu_check, tmp_path, capsys):
    out = tmp_path / "gpu-check.json"
    assert gpu_check.main(["--cpu-only", "--responses", "2", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "shipped (nli-minilm)" in printed and "tiny random deberta-v2" in printed and "parity ok" in printed
    rows = json.loads(out.read_text())["rows"]
    # One tiny model per kind, each with a reference and a candidate that passed parity.
    assert {r["kind"] for r in rows if r["model"].startswith("tiny")} == {"nli3", "grounding2", "seq2seq"}
    assert all(r["parity"] == "ok" for r in rows if "parity" in r) and sum("parity" in r for r in rows) == 4


def test_parity_flags_nan_and_label_flips(gpu_check):
    ref = np.array([[0.8, 0.1, 0.1], [0.2, 0.7, 0.1]])
    assert gpu_check.parity(ref, ref) == (0.0, 1.0)
    assert gpu_check.parity(ref, ref[::-1])[1] == 0.0
    diff, agreement = gpu_check.parity(ref, np.full_like(ref, np.nan))
    assert diff != diff and agreement == 0.0


def test_no_cuda_exits_2(gpu_check, capsys):
    import torch

    if torch.cuda.is_available():
        pytest.skip("this machine has CUDA")
    assert gpu_check.main(["--responses", "1"]) == 2
    assert "no CUDA device" in capsys.readouterr().err
