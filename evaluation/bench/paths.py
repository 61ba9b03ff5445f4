"""The ways of running the model that the benchmark compares; each runs inside a child process.

Every path gets the same pairs and returns class probabilities in
(entailment, neutral, contradiction) order, so the parent can check that all
paths ran the same model.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import numpy as np

from groundwatch.scorers.nli.base import read_label_order, softmax

Pair = tuple[str, str]
WARMUP = 8


def _ordered(probs: np.ndarray, model_dir: str) -> list[list[float]]:
    labels = read_label_order(Path(model_dir))
    cols = [labels["entailment"], labels["neutral"], labels["contradiction"]]
    return np.round(probs[:, cols], 5).tolist()


def _timed(fn, pairs: list[Pair]) -> tuple[float, object]:
    fn(pairs[:WARMUP])
    start = time.perf_counter()
    out = fn(pairs)
    return time.perf_counter() - start, out


def _batched(predict, pairs: list[Pair], batch: int) -> list:
    out = []
    for start in range(0, len(pairs), batch):
        out.extend(predict(pairs[start:start + batch]))
    return out


def backend_path(spec: dict, model_dir: str, backend: str, **kwargs) -> dict:
    """A bare NLIBackend in fixed batches: isolates the runtime (PyTorch vs ONNX, fp32 vs int8)."""
    if backend == "onnx":
        from groundwatch.scorers.nli.onnx_backend import OnnxBackend as cls

        kwargs["threads"] = spec.get("threads")
    else:
        from groundwatch.scorers.nli.pytorch.backend import TorchBackend as cls
    model = cls(Path(model_dir), max_length=spec["max_length"], **kwargs)
    seconds, scores = _timed(lambda ps: _batched(model.predict, ps, spec["batch_size"]), spec["pairs"])
    probs = [[s.entailment, s.neutral, s.contradiction] for s in scores]
    return {"seconds": seconds, "probs": np.round(np.array(probs), 5).tolist(), "provider": model.provider,
            "precision": model.compute}


def reference_loop(spec: dict) -> dict:
    """transformers text-classification pipeline, called once per (passage, claim) pair."""
    from transformers import pipeline

    ckpt = spec["torch_checkpoint"]
    pipe = pipeline("text-classification", model=ckpt, tokenizer=ckpt, device=-1, top_k=None)
    index = {name.lower(): i for name, i in _label_index(ckpt).items()}

    def run(pairs):
        rows = []
        for premise, claim in pairs:
            result = pipe({"text": premise, "text_pair": claim}, truncation=True, max_length=spec["max_length"])
            row = [0.0, 0.0, 0.0]
            for item in result:
                row[index[item["label"].lower()]] = item["score"]
            rows.append(row)
        return rows

    # One pair at a time has no batch effects, so a prefix of the same pairs gives its rate.
    pairs = spec["pairs"][:spec["reference_pairs"]]
    seconds, rows = _timed(run, pairs)
    return {"seconds": seconds, "n_pairs": len(pairs), "probs": _ordered(np.array(rows), ckpt), "provider": "cpu",
            "precision": "fp32"}


def _label_index(ckpt: str) -> dict[str, int]:
    import json

    config = json.loads((Path(ckpt) / "config.json").read_text())
    return {v: int(k) for k, v in config["id2label"].items()}


def cross_encoder(spec: dict) -> dict:
    """sentence-transformers CrossEncoder.predict with its own batching."""
    from sentence_transformers import CrossEncoder

    ckpt = spec["torch_checkpoint"]
    model = CrossEncoder(ckpt, max_length=spec["max_length"], device="cpu")
    seconds, logits = _timed(lambda ps: model.predict(ps, batch_size=spec["batch_size"], show_progress_bar=False,
                                                      convert_to_numpy=True), spec["pairs"])
    return {"seconds": seconds, "probs": _ordered(softmax(np.asarray(logits, np.float64)), ckpt),
            "provider": "cpu", "precision": "fp32"}


def groundwatch(spec: dict) -> dict:
    """The Scorer: dynamic batching and the pair cache for pairs; the whole pipeline for responses."""
    from groundwatch.config.scorer import ScorerConfig
    from groundwatch.scorers.nli.factory import backend_for
    from groundwatch.scorers.pipeline import Scorer
    from groundwatch.scorers.evidence.retrieval import Embedder
    from groundwatch.scorers.schema import parse_response

    config = ScorerConfig(model_dir=spec["model_dir"], providers=spec["providers"], max_length=spec["max_length"],
                          threads=spec.get("threads"))
    backend = backend_for(config, "onnx")
    backend.warmup()

    def fresh(**updates) -> Scorer:  # a new scorer: empty pair cache, empty embedding cache
        embedder = Embedder()
        embedder.encode(["warm up the embedding model"])
        return Scorer(config.model_copy(update=updates), backend, embedder)

    scorer = fresh()
    seconds, scores = _timed(scorer.pairs.score, spec["pairs"])
    probs = [[s.entailment, s.neutral, s.contradiction] for s in scores]
    responses = [parse_response(r) for r in spec["responses"]]
    out = {"seconds": seconds, "probs": np.round(np.array(probs), 5).tolist(), "provider": backend.provider,
           "precision": backend.compute, "batches": scorer.batcher.stats.batches}
    scorer.close()
    for conflicts in (True, False):
        scorer = fresh(context_conflicts=conflicts)
        start = time.perf_counter()
        scorer.score(responses)
        elapsed = time.perf_counter() - start
        key = "with_conflicts" if conflicts else "without_conflicts"
        out[f"responses_{key}"] = {"seconds": elapsed, "responses_per_s": len(responses) / elapsed,
                                   "model_pairs": scorer.batcher.stats.pairs}
        scorer.close()
    scorer = fresh()
    latencies = []
    for response in responses:
        start = time.perf_counter()
        scorer.score([response])
        latencies.append(time.perf_counter() - start)
    scorer.close()
    out["latency_s"] = {"p50": statistics.median(latencies), "p99": float(np.percentile(latencies, 99)),
                        "n": len(latencies)}
    return out


def guards(spec: dict) -> dict:
    """The guard stage alone (scorers/guards), per claim, in this one process (pure Python: one core).

    Per claim: evidence sentences of its first chunk, polarity and dropped condition over its top chunks
    (BM25 order, no embedder), arithmetic over its passages. Timed twice over the same claims: with the
    lemma and clause caches emptied first (cold), and again (warm: passages repeat across traffic).
    CPU time (time.process_time), so other processes on a busy machine do not inflate it.
    """
    from groundwatch.config.scorer import ScorerConfig
    from groundwatch.scorers.evidence.chunking import chunk_passages
    from groundwatch.scorers.answer.claims import decompose
    from groundwatch.scorers.answer.decorative import decorative_reason
    from groundwatch.scorers.english import clauses, lemmas, quantities
    from groundwatch.scorers.guards.stage import arithmetic_guard, guard_claim
    from groundwatch.scorers.english.quantities import passage_quantities
    from groundwatch.scorers.evidence.retrieval import EvidenceIndex
    from groundwatch.scorers.schema import parse_response

    config = ScorerConfig()
    work = []
    for response in (parse_response(r) for r in spec["responses"]):
        chunks = chunk_passages(list(response.passages), config.chunk_sentences, config.chunk_overlap)
        index = EvidenceIndex(chunks, None)
        contexts = {p.id: p.text for p in response.passages}
        available = passage_quantities([p.text for p in response.passages])  # once per response, as the Scorer
        for claim in decompose(response.answer):
            if decorative_reason(claim.text) is None:
                top = [c.chunks[0] for c in index.candidates(claim.text, config.top_k, 0)]
                work.append((claim.text, response.passages, top, contexts, available))
    lemmas.warmup()

    def once() -> list[float]:
        times = []
        for text, passages, top, contexts, available in work:
            start = time.process_time()  # CPU time of this process: the guard stage's own cost on one core
            arithmetic_guard(text, passages, available=available)
            guard_claim(text, top[:1], top, contexts)
            times.append(time.process_time() - start)
        return times

    for cached in (lemmas.analyse, clauses.clauses_of, quantities.read):
        cached.cache_clear()
    cold = once()
    warm = once()
    ms = lambda xs: {"mean": 1000 * statistics.fmean(xs), "p50": 1000 * statistics.median(xs),  # noqa: E731
                     "p99": 1000 * float(np.percentile(xs, 99))}
    return {"claims": len(work), "seconds": sum(cold), "ms_per_claim": {"cold": ms(cold), "warm": ms(warm)},
            "provider": "cpu", "precision": "-"}


def tokenize_once(spec: dict) -> dict:
    """Today's pre-processing against the three tokenizations it replaced (evaluation/bench/tokenize_once.py)."""
    from groundwatch.evaluation.bench.tokenize_once import run_tokenize_once

    return run_tokenize_once(spec)


def nli_options(spec: dict) -> dict:
    """The precision options side by side (evaluation/bench/options.py)."""
    from groundwatch.evaluation.bench.options import run_options

    return run_options(spec)


def whole_path(spec: dict) -> dict:
    """groundwatch end to end against CrossEncoder.predict on the same evidence (evaluation/bench/whole_path.py)."""
    from groundwatch.evaluation.bench.whole_path import run_whole_path

    return run_whole_path(spec)


PATHS = {
    "whole_path": whole_path,
    "guards": guards,
    "groundwatch": groundwatch,
    "reference_loop": reference_loop,
    "cross_encoder": cross_encoder,
    "torch_fp32": lambda spec: backend_path(spec, spec["torch_checkpoint"], "torch", device="cpu"),
    "onnx_fp32": lambda spec: backend_path(spec, spec["onnx_fp32"], "onnx", providers="cpu"),
    "onnx_shipped": lambda spec: backend_path(spec, spec["model_dir"], "onnx", providers="cpu"),
    "tokenize_once": tokenize_once,
    "nli_options": nli_options,
    "torch_cuda_fp16": lambda spec: backend_path(spec, spec["torch_checkpoint"], "torch", device="cuda", fp16=True),
    "onnx_cuda_fp32": lambda spec: backend_path(spec, spec["onnx_fp32"], "onnx", providers="cuda"),
}
