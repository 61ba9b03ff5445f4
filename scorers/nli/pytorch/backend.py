"""PyTorch backend: the reference, bf16 with fixed shapes on CPUs with AMX (batch-invariant; the larger model's
fast path there), and the path for classifier checkpoints (nli3, grounding2) not yet exported; a seq2seq
checker is served from its export (scorers/nli/kinds.py says so at load). It reads a Hugging Face checkpoint
or a compact copy (compact.py); BERT runs its own forward (bert.py), other architectures transformers'."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from groundwatch.config.logs import get_logger
from groundwatch.scorers.errors import ModelLoadError
from groundwatch.scorers.nli.base import NLIBackend
from groundwatch.scorers.nli.encoding import PairEncoding
from groundwatch.scorers.nli.pytorch.bert import BertClassifier, load_bert
from groundwatch.scorers.nli.pytorch.compact import is_compact, load_compact
from groundwatch.scorers.nli.row_int8 import cpu_flags

log = get_logger(__name__)

# Fixed shapes for bf16: each pair padded to its length bucket, each bucket's rows padded to a multiple of
# FIXED_ROWS, so a pair always meets the same kernels (the same matrix sizes), whatever shares its batch. Four rows,
# not eight: one answer's pairs spread over many buckets, and a chunk of eight for one or two of them was mostly
# padding (AMX, 56 answers one at a time: p50 135 ms against 184; the NLI path 260 pairs/s against 280).
BUCKET_TOKENS = 32
FIXED_ROWS = 4


def _one_thread() -> None:
    """A chunk worker's own intra-op thread count; torch keeps it per thread, so the caller's stays as it was."""
    import torch

    torch.set_num_threads(1)


def torch_mode(compute: str, cpu: bool, flags: set[str] | None = None) -> str:
    """bf16 or fp32 for scorer.torch_compute: auto is bf16 on a CPU with AMX, where it was measured about three
    times as fast as fp32 (docs/figures/nli-options-amx.json); without AMX it was slower than the ONNX rows."""
    if compute not in ("auto", "bf16", "fp32"):
        raise ModelLoadError(f"scorer.torch_compute {compute!r}: expected auto, bf16 or fp32")
    if not cpu:
        return "fp32"
    if compute == "auto":
        return "bf16" if "amx_bf16" in (cpu_flags() if flags is None else flags) else "fp32"
    return compute


class _Transformers:
    """A transformers classifier called as BertClassifier is: tensors in, logits out."""

    def __init__(self, model):
        self.model, self.num_labels = model, model.config.num_labels

    def __call__(self, **tensors):
        return self.model(**tensors).logits


class TorchBackend(NLIBackend):
    def __init__(self, model_dir: Path, max_length: int = 256, device: str = "auto", fp16: bool = False,
                 bf16: bool = False, fixed_shapes: bool = False, compute: str | None = None,
                 threads: int | None = None):
        """`compute` (scorer.torch_compute) sets bf16 with fixed shapes or fp32 on a CPU; without it, `bf16`
        and `fixed_shapes` as given (the bench compares them)."""
        super().__init__(model_dir, max_length)
        import torch

        self._torch = torch
        if device == "auto":
            device = "cuda" if torch.cuda.is_available() else "cpu"
        self.device = torch.device(device)
        if compute is not None:
            bf16 = fixed_shapes = torch_mode(compute, cpu=self.device.type == "cpu") == "bf16"
        half = fp16 and self.device.type == "cuda"
        self.provider = self.device.type
        self.precision = "fp16" if half else "fp32"
        if bf16:  # batch-invariant only with fixed shapes (`groundwatch bench` measures both)
            self.precision = "bf16 (fixed shapes)" if fixed_shapes else "bf16"
        dtype = torch.bfloat16 if bf16 else torch.float16 if half else torch.float32
        # BERT (the shipped small model) runs its own forward, without transformers' memory and start-up.
        self.model = load_bert(self.model_dir, dtype, self.device) or self._transformers(dtype)
        self.fixed_shapes = fixed_shapes
        self._chunks, workers = None, 0
        if fixed_shapes and self.device.type == "cpu":
            # Fixed-shape chunks run single-threaded, one per core at once: two cores' intra-op threads share a
            # chunk's small matrices poorly, and one thread per chunk everywhere keeps a pair's kernels (and value)
            # the same on any core count.
            from concurrent.futures import ThreadPoolExecutor

            from groundwatch.scorers.nli.threads import cpu_budget

            workers = threads or cpu_budget().threads
            self._chunks = ThreadPoolExecutor(workers, thread_name_prefix="nli-chunk", initializer=_one_thread)
            self.chunks_batches = True
        elif threads:
            torch.set_num_threads(threads)
        log.info("torch_backend", device=self.device.type, precision=self.precision,
                 forward="own" if isinstance(self.model, BertClassifier) else "transformers",
                 chunk_workers=workers, configured=threads)

    def _transformers(self, dtype) -> _Transformers:
        """Any other architecture through transformers: a compact copy or a Hugging Face checkpoint."""
        if is_compact(self.model_dir):  # a compact copy (a training run's)
            model = load_compact(self.model_dir)
        else:
            from transformers import AutoModelForSequenceClassification

            model = AutoModelForSequenceClassification.from_pretrained(str(self.model_dir)).eval()
        return _Transformers(model.to(self.device, dtype))

    def infer(self, batch: list[PairEncoding]) -> np.ndarray:
        if not self.fixed_shapes:
            return self._run(self.features(batch))
        out = np.zeros((len(batch), self.model.num_labels), dtype=np.float32)
        buckets: dict[int, list[int]] = {}
        for i, encoding in enumerate(batch):
            buckets.setdefault(-(-len(encoding) // BUCKET_TOKENS) * BUCKET_TOKENS, []).append(i)
        chunks = [(width, rows[start:start + FIXED_ROWS]) for width, rows in sorted(buckets.items(), reverse=True)
                  for start in range(0, len(rows), FIXED_ROWS)]  # longest first: no core waits on the last one
        inputs = [self._fixed(batch, width, chunk) for width, chunk in chunks]
        run = self._chunks.map if self._chunks else map
        for (_, chunk), logits in zip(chunks, run(self._run, inputs)):
            out[chunk] = logits[:len(chunk)]
        return out

    def _fixed(self, batch: list[PairEncoding], width: int, chunk: list[int]) -> dict[str, np.ndarray]:
        """The chunk's features padded to FIXED_ROWS rows of `width` tokens."""
        padded = {}
        for name, array in self.features([batch[i] for i in chunk]).items():
            full = np.full((FIXED_ROWS, width), self.encoder.pad_id if name == "input_ids" else 0, dtype=array.dtype)
            full[:len(chunk), :array.shape[1]] = array
            padded[name] = full
        padded["attention_mask"][len(chunk):, 0] = 1  # an empty row would divide by zero in softmax
        return padded

    def _run(self, features: dict[str, np.ndarray]) -> np.ndarray:
        torch = self._torch
        with torch.inference_mode():
            tensors = {k: torch.from_numpy(v).to(self.device) for k, v in features.items()}
            return self.model(**tensors).float().cpu().numpy()
