"""Two ONNX Runtime builds installed side by side refuse to load a model; none names the extras."""

from __future__ import annotations

import pytest

from groundwatch.scorers.errors import ModelLoadError
from groundwatch.scorers.nli import ort_builds


class _Dist:
    def __init__(self, name: str):
        self.metadata = {"Name": name}


def _installed(monkeypatch, *names: str) -> None:
    monkeypatch.setattr(ort_builds.metadata, "distributions", lambda: [_Dist(n) for n in ("numpy", *names)])


def test_one_build_is_fine(monkeypatch):
    _installed(monkeypatch, "onnxruntime_gpu")
    assert ort_builds.require_single_build() == "onnxruntime-gpu"


def test_cpu_and_gpu_builds_together_are_refused(monkeypatch):
    _installed(monkeypatch, "onnxruntime", "onnxruntime-gpu")
    with pytest.raises(ModelLoadError, match="onnxruntime and onnxruntime-gpu are both installed"):
        ort_builds.require_single_build()


def test_no_build_names_the_extras(monkeypatch):
    _installed(monkeypatch)
    with pytest.raises(ModelLoadError, match=r"groundwatch\[cpu\]"):
        ort_builds.require_single_build()


def test_this_environment_has_one_build():
    assert ort_builds.require_single_build() in ort_builds.BUILDS
