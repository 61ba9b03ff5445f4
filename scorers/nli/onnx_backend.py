"""ONNX Runtime backend: CUDA provider first when present, else CPU."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from groundwatch.config.logs import get_logger
from groundwatch.scorers.errors import ModelLoadError
from groundwatch.scorers.nli.base import NLIBackend
from groundwatch.scorers.nli.encoding import PairEncoding
from groundwatch.scorers.nli.quantize import FOLD_WEIGHTS, INT8_COMPUTE
from groundwatch.scorers.nli.row_int8 import rows_is_faster, rows_model_source
from groundwatch.scorers.nli.threads import Parts, deterministic_session_options

log = get_logger(__name__)
CUDA = "CUDAExecutionProvider"


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
                 threads: int | None = None, session_config: dict[str, str] | None = None,
                 int8_compute: str = "auto"):
        super().__init__(model_dir, max_length)
        import onnxruntime as ort

        path = self.model_dir / "model.onnx"
        if not path.exists():
            raise ModelLoadError(f"{path} does not exist")
        self.precision = _precision(self.model_dir)
        chosen = pick_providers(providers)
        # One session serves every batch, sized to the CPUs this process may run on; on the CPU each batch runs
        # as single-threaded pieces of about PIECE_TOKENS, all at once (scorers/nli/threads.py Parts).
        options, budget = deterministic_session_options(threads)
        self._parts = Parts(options, "nli-part", cpu=chosen[0] != CUDA)
        self.parts = self._parts.count
        if self.precision == "int8-weights":
            self.int8_compute = int8_mode(int8_compute, cpu=chosen[0] != CUDA)
        source: str | bytes = str(path)
        config = {}
        if self.int8_compute == "rows":
            source = rows_model_source(path)
            config = dict(FOLD_WEIGHTS)  # the embedding table's DequantizeLinear, folded once at load
        elif self.int8_compute is not None:
            config = dict(INT8_COMPUTE if self.int8_compute == "blocks" else FOLD_WEIGHTS)
        elif self.precision == "int8-blocks":
            config = dict(FOLD_WEIGHTS)  # the embedding tables; the MatMulNBits nodes compute in int8
        config.update(session_config or {})
        for key, value in config.items():
            options.add_session_config_entry(key, value)
        self.session = ort.InferenceSession(source, options, providers=chosen)
        self.provider = self.session.get_providers()[0].replace("ExecutionProvider", "").lower()
        self.fallback = provider_fallback(providers, chosen, self.session.get_providers())
        self._inputs = {i.name for i in self.session.get_inputs()}
        log.info("onnx_threads", intra_op=options.intra_op_num_threads, inter_op=options.inter_op_num_threads,
                 parts=self.parts, configured=threads, int8_compute=self.int8_compute, **budget.log_fields())

    def infer(self, batch: list[PairEncoding]) -> np.ndarray:
        return self._parts.run(self._run, batch)  # consecutive items: the batcher sorted them by length

    def _run(self, batch: list[PairEncoding]) -> np.ndarray:
        feeds = {k: v for k, v in self.features(batch).items() if k in self._inputs}
        return self.session.run(None, feeds)[0]


def int8_mode(requested: str | bool, cpu: bool = True) -> str:
    """How an int8-weights model computes (config/scorer.py int8_compute): auto is rows where that is faster than
    fp32 compute (int8 dot products or AVX2), else fp32. On CUDA, rows (a CPU graph) and auto mean ONNX
    Runtime's own int8 kernels."""
    if isinstance(requested, bool):  # the setting was a switch: true (int8) or false (fp32)
        requested = "auto" if requested else "fp32"
    if requested not in ("auto", "rows", "blocks", "fp32"):
        raise ModelLoadError(f"int8_compute {requested!r}: expected auto, rows, blocks or fp32")
    if not cpu:
        return "fp32" if requested == "fp32" else "blocks"
    if requested == "auto":
        return "rows" if rows_is_faster() else "fp32"
    return requested


def provider_fallback(requested: str, chosen: list[str], active: list[str]) -> str:
    """Why the session runs on the CPU although CUDA could have been used: none, cuda_unavailable
    (this onnxruntime build has no CUDA provider) or cuda_failed (the provider did not start, e.g.
    no driver or CUDA libraries). A label of groundwatch_model_info; logged as a fallback (warning) only
    when the GPU build was installed and its provider did not start; an explicit providers=cuda that
    ends on the CPU is an error, not a fallback."""
    if requested == "cpu":
        return "none"
    if CUDA not in chosen:
        # The CPU build on a machine without a GPU: the normal case, not a fallback worth a log line at info.
        log.debug("onnx_provider", provider="cpu", reason="cuda_unavailable", requested=requested)
        return "cuda_unavailable"
    if active[0] == CUDA:
        return "none"
    if requested == "cuda":
        raise ModelLoadError(f"CUDA provider requested but the session started on {active[0]} "
                             "(driver, CUDA or cuDNN libraries missing?)")
    log.warning("onnx_provider_fallback", provider="cpu", reason="cuda_failed", requested=requested)
    return "cuda_failed"


def _precision(model_dir: Path) -> str:
    marker = model_dir / "precision.txt"
    return marker.read_text().strip() if marker.exists() else "fp32"
