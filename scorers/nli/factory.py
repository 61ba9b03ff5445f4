"""Pick the NLI backend; heavy libraries are imported only in the chosen branch."""

from __future__ import annotations

from pathlib import Path

from groundwatch.scorers.errors import ModelLoadError
from groundwatch.scorers.nli.base import NLIBackend

DEFAULT_MODEL_DIR = Path(__file__).resolve().parent.parent / "models" / "nli-minilm-int8-weights"


def check_model_dir(model_dir: str | Path | None, backend: str) -> None:
    """A directory the chosen backend cannot load fails with the backend it needs (before any import);
    the option names are the CLI's and the settings' (scorer.backend)."""
    path = Path(model_dir) if model_dir else DEFAULT_MODEL_DIR
    if backend not in ("onnx", "torch"):
        return  # the fake backend reads no directory
    if backend == "torch":
        from groundwatch.config.extras import MissingExtra, require

        try:
            require("export", "the torch backend")
        except MissingExtra as exc:
            raise ModelLoadError(str(exc)) from None
    if not path.is_dir():
        raise ModelLoadError(f"NLI model directory {path} not found (--model, scorer.model_dir or "
                             "GROUNDWATCH_SCORER__MODEL_DIR)")
    needed = backend_of(path, backend)
    if needed == "onnx" != backend and not bert_export(path):
        raise ModelLoadError(f"{path} holds an ONNX model (model.onnx), which needs backend onnx (--backend onnx); "
                             "backend torch needs a Hugging Face checkpoint (model.safetensors) or a BERT "
                             "classifier's export")
    if needed == "torch" != backend:
        raise ModelLoadError(f"{path} holds a PyTorch checkpoint, which needs backend torch (--backend torch), "
                             "or export it with `groundwatch export-model`; backend onnx needs model.onnx")


def backend_for(config, backend: str | None = None) -> NLIBackend:
    """The backend a ScorerConfig describes (`backend` overrides its scorer.backend)."""
    return load_backend(config.model_dir, backend or config.backend, config.providers, config.max_length,
                        config.threads, config.int8_compute, config.torch_compute)


def backend_of(model_dir: str | Path, default: str) -> str:
    """The backend a model directory needs: onnx for an export (model.onnx), torch for a checkpoint alone;
    `default` where it holds both or neither (the second opinion's directory picks its own)."""
    path = Path(model_dir)
    onnx = (path / "model.onnx").is_file()
    torch = any(path.glob("*.safetensors")) or any(path.glob("pytorch_model*.bin"))
    if onnx != torch:
        return "onnx" if onnx else "torch"
    return default


def bert_export(path: Path) -> bool:
    """Whether backend torch can run an ONNX export by reading its weights: a BERT classifier's, such as the
    shipped model (scorers/nli/pytorch/onnx_weights.py)."""
    import json

    try:
        config = json.loads((path / "config.json").read_text())
    except (OSError, ValueError):
        return False
    from groundwatch.scorers.nli.pytorch.bert import supports

    return supports(config)


def load_backend(model_dir: str | Path | None = None, backend: str = "onnx", providers: str = "auto",
                 max_length: int = 256, threads: int | None = None, int8_compute: str = "auto",
                 torch_compute: str = "auto") -> NLIBackend:
    check_model_dir(model_dir, backend)
    path = Path(model_dir) if model_dir else DEFAULT_MODEL_DIR
    if not path.exists():
        raise ModelLoadError(f"NLI model directory {path} not found; set GROUNDWATCH_SCORER__MODEL_DIR")
    if backend == "onnx":
        from groundwatch.scorers.nli.onnx_backend import OnnxBackend
        from groundwatch.scorers.nli.ort_builds import require_single_build

        require_single_build()  # [cpu] xor [gpu]: two builds share one module
        return OnnxBackend(path, max_length=max_length, providers=providers, threads=threads,
                           int8_compute=int8_compute)
    if backend == "torch":
        from groundwatch.scorers.nli.pytorch.backend import TorchBackend

        return TorchBackend(path, max_length=max_length, compute=torch_compute, threads=threads)
    if backend == "fake":  # deterministic word overlap, no inference: delivery tests and benchmarks
        from groundwatch.scorers.nli.fake_backend import FakeBackend

        return FakeBackend(path, max_length=max_length)
    raise ModelLoadError(f"unknown backend {backend!r}: expected 'onnx', 'torch' or 'fake'")
