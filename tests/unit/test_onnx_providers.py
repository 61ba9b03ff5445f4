"""The ONNX provider choice with onnxruntime.get_available_providers faked: CUDA first when the build
has it, CPU otherwise with a log line and the `fallback` label of groundwatch_model_info."""

from __future__ import annotations

import onnxruntime
import pytest
from prometheus_client import generate_latest
from structlog.testing import capture_logs

from groundwatch.export.metrics import Metrics
from groundwatch.scorers.errors import ModelLoadError
from groundwatch.scorers.nli.onnx_backend import OnnxBackend, pick_providers, provider_fallback

CUDA, CPU = "CUDAExecutionProvider", "CPUExecutionProvider"


@pytest.fixture
def cuda_build(monkeypatch):
    """This (CPU) onnxruntime pretends to be the GPU build: CUDA listed, but it cannot start."""
    monkeypatch.setattr(onnxruntime, "get_available_providers", lambda: [CUDA, CPU])


@pytest.fixture
def cpu_build(monkeypatch):
    monkeypatch.setattr(onnxruntime, "get_available_providers", lambda: ["AzureExecutionProvider", CPU])


def test_cuda_first_when_the_build_has_it(cuda_build):
    assert pick_providers("auto") == [CUDA, CPU]
    assert pick_providers("cuda") == [CUDA, CPU]
    assert pick_providers("cpu") == [CPU]


def test_cpu_build_auto_falls_back_and_cuda_request_fails(cpu_build):
    assert pick_providers("auto") == [CPU]
    with pytest.raises(ModelLoadError, match="groundwatch\\[gpu\\]"):
        pick_providers("cuda")


def test_fallback_reasons():
    with capture_logs() as logs:
        assert provider_fallback("auto", [CUDA, CPU], [CUDA, CPU]) == "none"
        assert provider_fallback("cpu", [CPU], [CPU]) == "none"
        assert provider_fallback("auto", [CPU], [CPU]) == "cuda_unavailable"
        assert provider_fallback("auto", [CUDA, CPU], [CPU]) == "cuda_failed"
    # A CPU-only build is the normal case (debug, not a fallback); a GPU build whose provider failed warns.
    assert [(e["event"], e["reason"], e["log_level"]) for e in logs] == [
        ("onnx_provider", "cuda_unavailable", "debug"), ("onnx_provider_fallback", "cuda_failed", "warning")]
    with pytest.raises(ModelLoadError, match="session started on CPUExecutionProvider"):
        provider_fallback("cuda", [CUDA, CPU], [CPU])


# ONNX Runtime itself warns when asked for a provider its CPU build lacks: that is the situation under test.
@pytest.mark.filterwarnings("ignore:Specified provider 'CUDAExecutionProvider' is not in available provider names")
def test_session_asked_for_cuda_runs_on_cpu_and_says_so(cuda_build, tiny_onnx):
    with capture_logs() as logs:
        backend = OnnxBackend(tiny_onnx, providers="auto", threads=1)
    assert backend.provider == "cpu" and backend.fallback == "cuda_failed"
    assert any(e["event"] == "onnx_provider_fallback" for e in logs)
    assert len(backend.predict([("A cat sleeps.", "A cat sleeps.")])) == 1
    metrics = Metrics()
    metrics.set_model(backend.provider, backend.precision, "tiny@abc", backend.fallback)
    text = generate_latest(metrics.registry).decode()
    assert 'groundwatch_model_info{fallback="cuda_failed",model="tiny@abc",precision="fp32",provider="cpu"} 1.0' in text
    with pytest.raises(ModelLoadError):
        OnnxBackend(tiny_onnx, providers="cuda", threads=1)  # explicit cuda must not quietly run on the CPU


def test_cpu_build_session_reports_cuda_unavailable(cpu_build, tiny_onnx):
    backend = OnnxBackend(tiny_onnx, providers="auto", threads=1)
    assert (backend.provider, backend.fallback) == ("cpu", "cuda_unavailable")
    assert OnnxBackend(tiny_onnx, providers="cpu", threads=1).fallback == "none"
