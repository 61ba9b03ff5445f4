"""The narrow interface every NLI backend implements.

Stages are separate (tokenize -> infer -> postprocess) so the batcher can
measure token lengths before it forms a batch. Results come back by input
position. The label order always comes from the model's config.json id2label.
"""

from __future__ import annotations

import copy
import json
import threading
from abc import ABC, abstractmethod
from pathlib import Path

import numpy as np

from scorers.errors import ModelLoadError
from scorers.records import NLIScores

Pair = tuple[str, str]  # (premise, hypothesis)


def read_label_order(model_dir: Path) -> dict[str, int]:
    """Index of entailment / neutral / contradiction in the model's logits."""
    try:
        config = json.loads((model_dir / "config.json").read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise ModelLoadError(f"{model_dir}/config.json unreadable: {exc}") from exc
    id2label = {int(k): v.lower() for k, v in (config.get("id2label") or {}).items()}
    order = {}
    for index, label in id2label.items():
        for name in ("entailment", "neutral", "contradiction"):
            if label.startswith(name[:5]):
                order[name] = index
    if set(order) != {"entailment", "neutral", "contradiction"}:
        raise ModelLoadError(f"{model_dir}/config.json id2label {id2label} lacks entailment/neutral/contradiction")
    return order


def softmax(logits: np.ndarray) -> np.ndarray:
    shifted = logits - logits.max(axis=-1, keepdims=True)
    exp = np.exp(shifted)
    return exp / exp.sum(axis=-1, keepdims=True)


class NLIBackend(ABC):
    provider: str = "unknown"
    precision: str = "fp32"

    def __init__(self, model_dir: Path, max_length: int = 256):
        from transformers import AutoTokenizer

        self.model_dir = Path(model_dir)
        if not self.model_dir.is_dir():
            raise ModelLoadError(f"model directory {self.model_dir} does not exist")
        self.max_length = max_length
        self.labels = read_label_order(self.model_dir)
        self._tokenizer = AutoTokenizer.from_pretrained(str(self.model_dir))
        self._local = threading.local()
        if len(self._tokenizer) < 1000:
            raise ModelLoadError(f"{self.model_dir}: tokenizer has {len(self._tokenizer)} tokens; files missing")

    @property
    def tokenizer(self):
        # One copy per thread: a fast tokenizer used from two threads at once (the
        # batcher's and the submitter's) fails with "RuntimeError: Already borrowed".
        tok = getattr(self._local, "tokenizer", None)
        if tok is None:
            tok = self._local.tokenizer = copy.deepcopy(self._tokenizer)
        return tok

    @property
    def name(self) -> str:
        return self.model_dir.name

    def token_lengths(self, pairs: list[Pair]) -> list[int]:
        enc = self.tokenizer([p for p, _ in pairs], [h for _, h in pairs], truncation="longest_first",
                             max_length=self.max_length)
        return [len(ids) for ids in enc["input_ids"]]

    def tokenize(self, pairs: list[Pair]) -> dict[str, np.ndarray]:
        enc = self.tokenizer([p for p, _ in pairs], [h for _, h in pairs], truncation="longest_first",
                             max_length=self.max_length, padding=True, return_tensors="np")
        return {k: v.astype(np.int64) for k, v in enc.items()}

    @abstractmethod
    def infer(self, features: dict[str, np.ndarray]) -> np.ndarray:
        """Logits, one row per pair, in the model's own label order."""

    def postprocess(self, logits: np.ndarray) -> list[NLIScores]:
        probs = softmax(logits.astype(np.float64))
        e, n, c = self.labels["entailment"], self.labels["neutral"], self.labels["contradiction"]
        return [NLIScores(float(row[e]), float(row[n]), float(row[c])) for row in probs]

    def predict(self, pairs: list[Pair]) -> list[NLIScores]:
        if not pairs:
            return []
        return self.postprocess(self.infer(self.tokenize(pairs)))

    def warmup(self) -> None:
        self.predict([("The sky is blue.", "The sky has a colour.")])

    def health(self) -> bool:
        try:
            scores = self.predict([("A cat sleeps.", "A cat sleeps.")])
            return len(scores) == 1 and abs(scores[0].entailment + scores[0].neutral + scores[0].contradiction - 1) < 1e-3
        except Exception:  # noqa: BLE001 - health reports, never raises
            return False
