"""One version: pyproject.toml's, read from the package metadata by `--version`, `groundwatch.__version__`,
the serve /docs page and the container and chart labels; verdicts' scorer code version is never above it."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

import groundwatch
from groundwatch.cli import main
from groundwatch.scorers import SCORER_VERSION
from groundwatch.scorers.version import scorer_version
from groundwatch.config.scorer import ScorerConfig
from tests.unit.test_serve import _client

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def _numbers(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.match(r"\d+(\.\d+)*", text).group().split("."))


def test_package_metadata_is_pyprojects_version():
    assert groundwatch.__version__ == PYPROJECT


def test_version_option_names_the_package_and_the_verdicts_scorer_version(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    out = capsys.readouterr().out
    assert done.value.code == 0
    assert out == f"groundwatch {PYPROJECT} (verdicts: scorer {SCORER_VERSION})\n"
    assert scorer_version(ScorerConfig(), "onnx@abc").startswith(SCORER_VERSION + "+")


def test_scorer_code_version_is_never_above_the_package_version():
    assert _numbers(SCORER_VERSION) <= _numbers(PYPROJECT)


def test_serve_docs_page_shows_the_package_version():
    client, service, _ = _client()
    try:
        page = client.get("/docs").text
        assert f"groundwatch {PYPROJECT}" in page
        assert client.get("/openapi.json").json()["info"]["version"] == PYPROJECT
    finally:
        service.close()


def test_images_and_chart_carry_the_package_version():
    assert f'image.version="{PYPROJECT}"' in (ROOT / "Dockerfile").read_text()
    assert f'image.version="{PYPROJECT}-cuda"' in (ROOT / "Dockerfile.cuda").read_text()
    assert f'appVersion: "{PYPROJECT}"' in (ROOT / "helm/groundwatch/Chart.yaml").read_text()
