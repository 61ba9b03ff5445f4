"""The narrow interface every NLI backend implements.

Stages are separate (tokenize -> infer -> postprocess), as in TEI and infinity:
`tokenize` (pre-processing, scorers/nli/encoding.py) turns text pairs into
PairEncodings once; the batcher measures their lengths, forms batches and hands
the same encodings to `infer` (the core: pad, run the model, return logits);
`postprocess` turns logits into NLIScores by the model's kind (scorers/nli/kinds.py:
nli3, grounding2, seq2seq). Results come back by input position. A three-way
model's label order always comes from its config.json id2label.
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from pathlib import Path

import numpy as np

from groundwatch.scorers.errors import ModelLoadError
from groundwatch.scorers.nli.encoding import Pair, PairEncoder, PairEncoding
from groundwatch.scorers.nli.kinds import read_kind, read_label_order, softmax  # noqa: F401 - re-exported
from groundwatch.scorers.nli.tokenizer import load_tokenizer
from groundwatch.scorers.records import NLIScores


class NLIBackend(ABC):
    provider: str = "unknown"
    precision: str = "fp32"
    int8_compute: str | None = None  # how an int8-weights model computes: rows, blocks or fp32
    # Cuts any batch into fixed-shape chunks of its own, so its memory does not grow with the batch: the batcher
    # hands it everything collected at once, which fills the chunks and keeps every core busy.
    chunks_batches: bool = False

    def __init__(self, model_dir: Path, max_length: int = 256):
        self.model_dir = Path(model_dir)
        if not self.model_dir.is_dir():
            raise ModelLoadError(f"model directory {self.model_dir} does not exist")
        self.kind = read_kind(self.model_dir)  # nli3 | grounding2 | seq2seq (scorers/nli/kinds.py)
        self.labels = self.kind.labels
        self.max_length = self.kind.window(max_length)
        self.encoder = PairEncoder(load_tokenizer(self.model_dir, self.kind.template), self.max_length)

    @property
    def tokenizer(self):
        return self.encoder.tokenizer  # this thread's copy of the tokenizers.Tokenizer

    @property
    def name(self) -> str:
        return self.model_dir.name

    @property
    def compute(self) -> str:
        """The model file's precision, with how an int8-weights model computes: "int8-weights (rows)"."""
        return f"{self.precision} ({self.int8_compute})" if self.int8_compute else self.precision

    def tokenize(self, pairs: list[Pair], windows: bool = False) -> list[list[PairEncoding]]:
        """Pre-processing: each pair's encodings (one, or one per premise window when `windows`)."""
        return self.encoder.encode(pairs, windows=windows)

    def features(self, batch: list[PairEncoding]) -> dict[str, np.ndarray]:
        """The padded arrays of a batch (attention_mask 0 on padding): what the model runs on."""
        return self.encoder.collate(batch)

    @abstractmethod
    def infer(self, batch: list[PairEncoding]) -> np.ndarray:
        """Core: logits, one row per encoding, in the model's own label order."""

    def postprocess(self, logits: np.ndarray) -> list[NLIScores]:
        """Scores by the model's kind: a two-way model's contradiction is 0 (scorers/nli/kinds.py)."""
        return self.kind.scores(logits)

    def predict(self, items: list[Pair] | list[PairEncoding]) -> list[NLIScores]:
        """Scores by position for text pairs (tokenized here, truncated to the window) or for
        encodings made earlier (the batcher's path: tokenized once, never again)."""
        if not items:
            return []
        if isinstance(items[0], PairEncoding):
            batch = list(items)
        else:
            batch = [encs[0] for encs in self.tokenize(list(items))]
        return self.postprocess(self.infer(batch))

    def warmup(self) -> None:
        self.predict([("The sky is blue.", "The sky has a colour.")])

    def health(self) -> bool:
        try:
            scores = self.predict([("A cat sleeps.", "A cat sleeps.")])
            return len(scores) == 1 and abs(scores[0].entailment + scores[0].neutral + scores[0].contradiction - 1) < 1e-3
        except Exception:  # noqa: BLE001 - health reports, never raises
            return False


def model_version(backend: NLIBackend) -> str:
    """`name@digest` of the backend's model file: in verdict records, cache keys and the scorer version."""
    path = backend.model_dir / "model.onnx"
    if not path.exists():
        path = next(backend.model_dir.glob("*.safetensors"), backend.model_dir / "config.json")
    digest = hashlib.sha256(path.read_bytes()).hexdigest()[:12] if path.exists() else "unknown"
    return f"{backend.name}@{digest}"
