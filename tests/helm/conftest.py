"""Tools the chart tests shell out to. A missing tool skips locally and fails under CI."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
CHART = REPO / "helm" / "groundwatch"


def require_tool(path: str | None, name: str, how: str) -> str:
    if path and Path(path).is_file() and os.access(path, os.X_OK):
        return path
    message = f"{name} not found; install it with {how}"
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"CI is set and {message}")
    pytest.skip(message)


@pytest.fixture(scope="session")
def helm() -> str:
    return require_tool(str(REPO / ".tools" / "bin" / "helm"), "helm", "infra/install_helm.sh")


@pytest.fixture(scope="session")
def promtool() -> str:
    return require_tool(shutil.which("promtool"), "promtool", "infra/install_system.sh")


PROFILES = {
    "default": [],
    "cpu": ["values-cpu.yaml"],
    "gpu-t4": ["values-gpu-t4.yaml"],
    "keda": ["values-keda.yaml"],
    "gpu-t4+keda": ["values-gpu-t4.yaml", "values-keda.yaml"],
    "serve": ["values-serve.yaml"],
    "gpu-t4+serve": ["values-gpu-t4.yaml", "values-serve.yaml"],
}


def helm_args(profile: str) -> list[str]:
    return [arg for name in PROFILES[profile] for arg in ("-f", str(CHART / name))]


@pytest.fixture(scope="session")
def render(helm: str):
    """render(profile, *extra helm args) -> the manifests of `helm template`, parsed."""
    def _render(profile: str, *extra: str) -> list[dict]:
        result = subprocess.run([helm, "template", "gw", str(CHART), *helm_args(profile), *extra],
                                capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
        return [doc for doc in yaml.safe_load_all(result.stdout) if doc]

    return _render
