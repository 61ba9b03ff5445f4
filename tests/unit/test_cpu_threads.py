"""Thread counts from the CPUs the process may use: affinity and the cgroup quota, not the host."""

from __future__ import annotations

import itertools
import json
import os
import random
import subprocess
import sys

import pytest

from groundwatch.scorers.nli.threads import cgroup_quota, cpu_budget, even_cuts, greedy_cuts


def _files(root, files: dict[str, str]):
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text + "\n")
    return root


@pytest.mark.parametrize(("files", "expected"), [
    ({"cpu.max": "max 100000"}, (None, None)),
    ({"cpu.max": "150000 100000"}, (1.5, "cgroup_v2")),
    ({"cpu.max": "50000 100000"}, (0.5, "cgroup_v2")),
    ({"cpu/cpu.cfs_quota_us": "-1", "cpu/cpu.cfs_period_us": "100000"}, (None, None)),
    ({"cpu,cpuacct/cpu.cfs_quota_us": "200000", "cpu,cpuacct/cpu.cfs_period_us": "100000"}, (2.0, "cgroup_v1")),
    ({}, (None, None)),
])
def test_cgroup_quota_v2_then_v1(tmp_path, files, expected):
    assert cgroup_quota(_files(tmp_path, files)) == expected


def test_the_quota_caps_the_affinity_and_rounds_down(tmp_path):
    affinity = len(os.sched_getaffinity(0))
    free = cpu_budget(_files(tmp_path / "free", {"cpu.max": "max 100000"}))
    assert (free.threads, free.affinity, free.quota, free.source) == (affinity, affinity, None, "affinity")
    half = cpu_budget(_files(tmp_path / "half", {"cpu.max": "50000 100000"}))
    assert (half.threads, half.quota, half.source) == (1, 0.5, "cgroup_v2")  # never 0
    roomy = cpu_budget(_files(tmp_path / "roomy", {"cpu.max": f"{(affinity + 8) * 100000} 100000"}))
    assert (roomy.threads, roomy.source) == (affinity, "affinity")  # a quota above the CPUs we have is not a count


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two CPUs to pin to one")
def test_an_onnx_session_pinned_to_one_cpu_takes_one_thread(tiny_onnx):
    # A child pinned to one CPU (as taskset or a cpuset would): the session must not start a thread per host core.
    code = f"""
import json, os
os.sched_setaffinity(0, {{sorted(os.sched_getaffinity(0))[0]}})
from groundwatch.scorers.nli.onnx_backend import OnnxBackend
backend = OnnxBackend(__import__("pathlib").Path({str(tiny_onnx)!r}), providers="cpu")
print(json.dumps(backend.session.get_session_options().intra_op_num_threads))
"""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.strip().splitlines()[-1]) == 1
    [logged] = [line for line in (result.stdout + result.stderr).splitlines() if "onnx_threads" in line]
    assert "intra_op=1" in logged and "cpu_affinity=1" in logged  # the chosen count is logged at start


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two CPUs to pin to one")
def test_the_embedder_pinned_to_one_cpu_takes_one_thread():
    code = """
import json, os
os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
from groundwatch.scorers.evidence.embedder import Embedder
print(json.dumps(Embedder()._session.get_session_options().intra_op_num_threads))
"""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.strip().splitlines()[-1]) == 1
    [logged] = [line for line in (result.stdout + result.stderr).splitlines() if "embedder_threads" in line]
    assert "intra_op=1" in logged and "cpu_affinity=1" in logged


def _largest(lengths, bounds):
    return max((b - a) * lengths[b - 1] for a, b in zip(bounds, bounds[1:]))


def test_pieces_are_cut_where_their_padded_sizes_are_most_even():
    assert even_cuts([10] * 8, 2) == [0, 4, 8]
    # Equal counts would pad 4 rows to 40 tokens (160) while the first piece holds 4 x 5.
    assert even_cuts([5, 5, 5, 5, 10, 10, 20, 40], 2) == [0, 6, 8]
    assert even_cuts([7], 2) == [0, 1]


def test_no_cut_into_consecutive_pieces_has_a_smaller_largest_piece():
    rng = random.Random(0)
    for _ in range(500):
        lengths = sorted(rng.randint(1, 60) for _ in range(rng.randint(1, 9)))
        count = rng.randint(1, 4)
        bounds = even_cuts(lengths, count)
        n = len(lengths)
        assert bounds[0] == 0 and bounds[-1] == n and len(bounds) - 1 <= count
        assert all(a < b for a, b in zip(bounds, bounds[1:]))
        best = min(_largest(lengths, [0, *cuts, n]) for k in range(count)
                   for cuts in itertools.combinations(range(1, n), k))
        assert _largest(lengths, bounds) == best


def test_greedy_cuts_fill_pieces_up_to_the_budget_from_the_longest_rows():
    assert greedy_cuts([10] * 8, 40) == [0, 4, 8]
    assert greedy_cuts([5, 5, 5, 5, 10, 10, 20, 40], 40) == [0, 1, 5, 7, 8]
    assert greedy_cuts([300, 300], 100) == [0, 1, 2]  # a row longer than the budget is a piece of its own
    assert greedy_cuts([10] * 8, 40, limit=1) is None
