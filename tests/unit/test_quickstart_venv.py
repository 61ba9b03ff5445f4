"""The README's quick start in a fresh virtual environment: `pip install 'groundwatch[cpu]'` (this checkout),
then the shell block (score, explain) and the Python API example print what the README shows, with no PyTorch.

Needs the package index the rest of the set-up uses; the install takes a minute or two with a warm pip cache.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.unit.test_docs import check_python_quickstart, check_shell_quickstart

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def fresh_venv(tmp_path_factory) -> Path:
    venv = tmp_path_factory.mktemp("quickstart") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    empty = _megabytes(venv)  # the venv's own pip and setuptools
    install = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet",
                              "--disable-pip-version-check", f"{ROOT}[cpu]"],
                             capture_output=True, text=True, timeout=1200)
    assert install.returncode == 0, install.stderr[-3000:]
    installed = _megabytes(venv) - empty
    assert installed < 600, f"groundwatch[cpu] installs {installed:.0f} MB (the goal: under 600 MB)"
    return venv


def _megabytes(path: Path) -> float:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file() and not f.is_symlink()) / 1e6


@pytest.mark.timeout(1500)
def test_the_quick_start_runs_in_a_fresh_cpu_install(fresh_venv, tmp_path):
    python = fresh_venv / "bin" / "python"
    no_torch = subprocess.run([str(python), "-c", "import importlib.util as u; print(u.find_spec('torch'))"],
                              capture_output=True, text=True, check=True)
    assert no_torch.stdout.strip() == "None", "the [cpu] runtime must not install PyTorch"
    (tmp_path / "shell").mkdir()
    check_shell_quickstart(fresh_venv / "bin", tmp_path / "shell")
    (tmp_path / "python").mkdir()
    check_python_quickstart(python, tmp_path / "python")
