"""ONNX Runtime backend: CUDA provider first when present, else CPU."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from scorers.errors import ModelLoadError
from scorers.nli.base import NLIBackend
from scorers.nli.encoding import PairEncoding


def pick_providers(requested: str = "auto") -> list[str]:
    import onnxruntime as ort

    available = ort.get_available_providers()
    if requested == "cpu":
        return ["CPUExecutionProvider"]
    if requested == "cuda" and "CUDAExecutionProvider" not in available:
        raise ModelLoadError("CUDA provider requested but onnxruntime has no CUDAExecutionProvider "
                             "(install groundwatch[gpu])")
    if "CUDAExecutionProvider" in available:
        return ["CUDAExecutionProvider", "CPUExecutionProvider"]
    return ["CPUExecutionProvider"]


class OnnxBackend(NLIBackend):
    def __init__(self, model_dir: Path, max_length: int = 256, providers: str = "auto",
                 threads: int | None = None):
        super().__init__(model_dir, max_length)
        import onnxruntime as ort

        path = self.model_dir / "model.onnx"
        if not path.exists():
            raise ModelLoadError(f"{path} does not exist")
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        # One session serves every batch: use the cores we have, no oversubscription.
        options.intra_op_num_threads = threads or max(1, os.cpu_count() or 1)
        options.inter_op_num_threads = 1
        self.session = ort.InferenceSession(str(path), options, providers=pick_providers(providers))
        self.provider = self.session.get_providers()[0].replace("ExecutionProvider", "").lower()
        self.precision = _precision(self.model_dir)
        self._inputs = {i.name for i in self.session.get_inputs()}

    def infer(self, batch: list[PairEncoding]) -> np.ndarray:
        feeds = {k: v for k, v in self.features(batch).items() if k in self._inputs}
        return self.session.run(None, feeds)[0]


def _precision(model_dir: Path) -> str:
    marker = model_dir / "precision.txt"
    return marker.read_text().strip() if marker.exists() else "fp32"
