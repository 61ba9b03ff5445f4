"""Tokenize once (issue 14.3) against the pre-processing it replaced, in one process, interleaved.

Before, each (premise, claim) pair was tokenized three times: `PairScorer.windows` tokenized the
claim and the premise to decide on windows, `NLIBackend.token_lengths` tokenized the pair for the
batcher's lengths, and `NLIBackend.tokenize` tokenized it again, padded, for the model. `Retokenizing`
below does exactly that around today's backend, so both paths run the same model on the same
batcher; only the pre-processing differs.
"""

from __future__ import annotations

import statistics
import time

import numpy as np

from groundwatch.scorers.nli.encoding import PairEncoding


class Retokenizing:
    """A backend wrapper with the old three tokenizations (kept only to measure against)."""

    def __init__(self, backend):
        from transformers import AutoTokenizer  # the old path's tokenizer (groundwatch[bench])

        self.backend = backend
        self.tokenizer = AutoTokenizer.from_pretrained(str(backend.model_dir))
        self.max_length = backend.max_length
        self.overlap = backend.encoder.overlap

    def _windows(self, premise: str, claim: str) -> list[str]:  # was PairScorer.windows
        tok = self.tokenizer
        claim_len = len(tok(claim, add_special_tokens=False)["input_ids"])
        budget = self.max_length - claim_len - 4
        offsets = tok(premise, add_special_tokens=False, return_offsets_mapping=True)["offset_mapping"]
        if len(offsets) <= budget or budget < 16:
            return [premise]
        stride = max(8, int(budget * (1 - self.overlap)))
        out = []
        for start in range(0, len(offsets), stride):
            piece = offsets[start:start + budget]
            out.append(premise[piece[0][0]:piece[-1][1]])
            if start + budget >= len(offsets):
                break
        return out

    def tokenize(self, pairs, windows: bool = True) -> list[list[PairEncoding]]:
        owners, texts = [], []
        for i, (premise, claim) in enumerate(pairs):
            for w in self._windows(premise, claim):
                owners.append(i)
                texts.append((w, claim))
        # was NLIBackend.token_lengths: every window pair of a submit tokenized, for its length only
        enc = self.tokenizer([p for p, _ in texts], [h for _, h in texts], truncation="longest_first",
                                     max_length=self.max_length)
        out = [[] for _ in pairs]
        for i, ids, pair in zip(owners, enc["input_ids"], texts):
            out[i].append(PairEncoding(tuple(ids), (), pair))
        return out

    def predict(self, items):  # was NLIBackend.tokenize + infer: tokenized a third time, padded
        pairs = [e.pair for e in items]
        enc = self.tokenizer([p for p, _ in pairs], [h for _, h in pairs], truncation="longest_first",
                                     max_length=self.max_length, padding=True, return_tensors="np")
        feeds = {k: v.astype(np.int64) for k, v in enc.items() if k in self.backend._inputs}
        return self.backend.postprocess(self.backend.session.run(None, feeds)[0])


def run_tokenize_once(spec: dict) -> dict:
    """Child-process entry: pairs/s of PairScorer + batcher with each pre-processing, interleaved."""
    from pathlib import Path

    from groundwatch.scorers.nli.batcher import DynamicBatcher
    from groundwatch.scorers.nli.onnx_backend import OnnxBackend
    from groundwatch.scorers.nli.pair_scorer import PairScorer

    backend = OnnxBackend(Path(spec["model_dir"]), max_length=spec["max_length"], providers="cpu",
                          threads=spec.get("threads"))
    pairs = spec["pairs"]
    paths = {"tokenize once": backend, "tokenize three times (before)": Retokenizing(backend)}

    def score(impl) -> tuple[float, list]:
        batcher = DynamicBatcher(impl, max_wait_ms=5.0)
        try:
            scorer = PairScorer(backend, batcher, "bench")  # empty cache: every pair goes to the model
            start = time.perf_counter()
            scores = scorer.score(pairs)
            return time.perf_counter() - start, scores
        finally:
            batcher.close()

    def preprocess(impl) -> float:
        start = time.perf_counter()
        impl.tokenize(pairs, windows=True)
        if isinstance(impl, Retokenizing):  # its third tokenization happens at predict time
            impl.tokenizer([p for p, _ in pairs], [c for _, c in pairs], truncation="longest_first",
                                   max_length=impl.max_length, padding=True, return_tensors="np")
        return time.perf_counter() - start

    score(backend)  # warm-up
    names = list(paths)
    seconds = {n: [] for n in names}
    prep = {n: [] for n in names}
    results = {}
    for r in range(spec.get("repeats", 3)):
        for name in names if r % 2 == 0 else names[::-1]:
            elapsed, results[name] = score(paths[name])
            seconds[name].append(elapsed)
            prep[name].append(preprocess(paths[name]))
    a, b = (np.array([[s.entailment, s.neutral, s.contradiction] for s in results[n]]) for n in names)
    out = {n: {"pairs_per_s": len(pairs) / statistics.median(seconds[n]),
               "preprocess_ms_per_pair": 1000 * statistics.median(prep[n]) / len(pairs),
               "seconds": [round(s, 3) for s in seconds[n]]} for n in names}
    return {"paths": out, "pairs": len(pairs), "max_abs_prob_diff": float(np.abs(a - b).max()),
            "repeats": spec.get("repeats", 3), "seconds": 0.0, "provider": backend.provider,
            "precision": backend.precision}
