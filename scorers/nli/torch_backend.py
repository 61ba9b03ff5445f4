"""PyTorch backend: the reference, and the path for classifier checkpoints (nli3, grounding2) not yet
exported; a seq2seq checker is served from its export (scorers/nli/kinds.py says so at load)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from groundwatch.scorers.nli.base import NLIBackend
from groundwatch.scorers.nli.encoding import PairEncoding


class TorchBackend(NLIBackend):
    def __init__(self, model_dir: Path, max_length: int = 256, device: str = "auto", fp16: bool = False,
                 bf16: bool = False):
        super().__init__(model_dir, max_length)
        import torch
        from transformers import AutoModelForSequenceClassification

        self._torch = torch
        if device == "auto":
            device = "cuda" if torch.cuda.is_available() else "cpu"
        self.device = torch.device(device)
        self.model = AutoModelForSequenceClassification.from_pretrained(str(self.model_dir)).to(self.device).eval()
        if fp16 and self.device.type == "cuda":
            self.model = self.model.half()
        self.provider = self.device.type
        self.precision = "fp16" if fp16 and self.device.type == "cuda" else "fp32"
        if bf16:  # measured in `groundwatch bench`: fast on CPUs with avx512_bf16, but not batch-invariant
            self.model = self.model.to(torch.bfloat16)
            self.precision = "bf16"

    def infer(self, batch: list[PairEncoding]) -> np.ndarray:
        torch = self._torch
        with torch.inference_mode():
            tensors = {k: torch.from_numpy(v).to(self.device) for k, v in self.features(batch).items()}
            return self.model(**tensors).logits.float().cpu().numpy()
