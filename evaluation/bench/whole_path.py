"""The whole path: groundwatch end to end against CrossEncoder.predict on the same responses' evidence.

groundwatch runs everything a response goes through (claims, retrieval, checks, guards, NLI with the
evidence cascade, verdicts, context conflicts); the baseline is `CrossEncoder.predict` over every
candidate (premise, claim) pair the pipeline builds for those responses without the cascade
(`Scorer.candidate_pairs`: each claim's chunks, joined pairs and sentence premise), which is what a
five-line loop over the same evidence would score, and still no verdict. Measured in this one process,
interleaved so both see the same machine:
- throughput with the batcher full: all responses in one scorer call, against one predict call over all
  their candidates; and groundwatch's NLI path alone (PairScorer) over the same candidates;
- latency one response at a time: scorer.score([response]) against predict(its candidates);
with `second_opinion` (a larger model's directory), the same scorer with it as scorer.second_opinion is timed
in the same interleaved loop, cache cold and warm, with the share of claims it re-read; so is the larger model
alone as the scorer's model, and its own NLI path over the first SECOND_OPINION_PAIRS candidates; and the cold
start and peak RSS with the second opinion on;
- the caches: after each cold run, the same responses again on the same scorer (pair, claim and embedding
  caches warm); and the responses replayed with shuffled duplicates, pair cache on and off
  (evaluation/bench/replay.py);
then in fresh processes (evaluation/bench/cold_start.py): cold start, process start to the first verdict
written by `groundwatch score`, median of 3 (warm page cache), and its peak RSS over the whole file.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from groundwatch.scorers.files import output_path
from groundwatch.evaluation.bench.cold_start import RSS_MARKER
from groundwatch.evaluation.bench.replay import measure_replay

COLD_RUNS = 3
SECOND_OPINION_PAIRS = 256  # the larger model scores a few pairs a second: a sample of the candidates


def _pct(values: list[float]) -> dict:
    return {"p50": statistics.median(values), "p99": float(np.percentile(values, 99)), "n": len(values)}


def run_whole_path(spec: dict) -> dict:
    from sentence_transformers import CrossEncoder

    from groundwatch.config.scorer import ScorerConfig
    from groundwatch.scorers.nli.factory import backend_for, backend_of
    from groundwatch.scorers.pipeline import Scorer
    from groundwatch.scorers.schema import parse_response

    config = ScorerConfig(model_dir=spec["model_dir"], providers=spec["providers"], max_length=spec["max_length"],
                          threads=spec.get("threads"), context_conflicts=True)
    backend = backend_for(config, backend_of(spec["model_dir"], "onnx"))  # torch: bf16 with fixed shapes on AMX
    backend.warmup()

    def fresh(opinion=None, **updates) -> Scorer:
        return fresh_scorer(config.model_copy(update=updates), backend, opinion)

    responses = [parse_response(r) for r in spec["responses"]]
    probe = fresh(evidence_cascade=False)
    candidates = probe.candidate_pairs(responses)
    probe.close()
    pairs = [p for per_response in candidates for p in per_response]
    model = CrossEncoder(spec["torch_checkpoint"], max_length=spec["max_length"], device="cpu")

    def predict(batch):
        if batch:
            model.predict(batch, batch_size=spec["batch_size"], show_progress_bar=False, convert_to_numpy=True)

    predict(pairs[:8])
    seconds: dict[str, list[float]] = {"groundwatch": [], "groundwatch_warm": [], "cross_encoder": [],
                                       "groundwatch_nli": []}
    opinion = _second_opinion(spec, config) if spec.get("second_opinion") else None
    if opinion is not None:
        seconds.update(groundwatch_second_opinion=[], groundwatch_second_opinion_warm=[], larger_alone=[],
                       second_opinion_nli=[])
    inputs, escalated = {}, {}
    sample = pairs[:SECOND_OPINION_PAIRS]  # the larger model's own NLI path
    for _ in range(spec.get("repeats", 3)):  # interleaved: a drift in machine load hits both sides
        scorer = fresh()
        start = time.perf_counter()
        scorer.score(responses)
        seconds["groundwatch"].append(time.perf_counter() - start)
        start = time.perf_counter()
        scorer.score(responses)  # again: every pair is in the cache, none goes to the model
        seconds["groundwatch_warm"].append(time.perf_counter() - start)
        scorer.close()  # joins the batcher, which counts a batch after handing out its results
        inputs = {"model_inputs": scorer.batcher.stats.pairs, "tokens": scorer.batcher.stats.real_tokens}
        if opinion is not None:
            escalated = _time_second_opinion(fresh, opinion, responses, seconds)
            larger = fresh_scorer(config, opinion.backend)
            start = time.perf_counter()
            larger.score(responses)
            seconds["larger_alone"].append(time.perf_counter() - start)
            larger.close()
        start = time.perf_counter()
        predict(pairs)
        seconds["cross_encoder"].append(time.perf_counter() - start)
        scorer = fresh()
        start = time.perf_counter()
        scorer.pairs.score(pairs)
        seconds["groundwatch_nli"].append(time.perf_counter() - start)
        scorer.close()
        if opinion is not None:
            opinion.pairs.clear()
            start = time.perf_counter()
            opinion.pairs.score(sample)
            seconds["second_opinion_nli"].append(time.perf_counter() - start)
    latency: dict[str, list[float]] = {"groundwatch": [], "cross_encoder": []}
    scorer = fresh()
    with_opinion = None
    if opinion is not None:  # the same responses one at a time with the second opinion on, interleaved
        latency["groundwatch_second_opinion"], latency["larger_alone"] = [], []
        opinion.pairs.clear()
        with_opinion = fresh(opinion, second_opinion=str(opinion.backend.model_dir))
        larger = fresh_scorer(config, opinion.backend)
    for response, own in zip(responses, candidates):
        start = time.perf_counter()
        scorer.score([response])
        latency["groundwatch"].append(time.perf_counter() - start)
        if with_opinion is not None:
            start = time.perf_counter()
            with_opinion.score([response])
            latency["groundwatch_second_opinion"].append(time.perf_counter() - start)
            start = time.perf_counter()
            larger.score([response])
            latency["larger_alone"].append(time.perf_counter() - start)
        start = time.perf_counter()
        predict(own)
        latency["cross_encoder"].append(time.perf_counter() - start)
    scorer.close()
    if with_opinion is not None:
        with_opinion.batcher.close()  # the scorer's own; the second opinion's closes below
        larger.close()
    replay = measure_replay(fresh, spec["responses"], spec.get("repeats", 3))
    median = {k: statistics.median(v) for k, v in seconds.items()}
    n = len(responses)
    if opinion is not None:
        opinion.close()
        escalated["responses_per_s"] = n / median["groundwatch_second_opinion"]
        escalated["responses_per_s_warm"] = n / median["groundwatch_second_opinion_warm"]
        escalated["larger_alone_responses_per_s"] = n / median["larger_alone"]
        escalated["vs_small_alone"] = median["groundwatch"] / median["groundwatch_second_opinion"]
        escalated["nli_pairs"] = len(sample)
        escalated["nli_pairs_per_s"] = len(sample) / median["second_opinion_nli"]
        escalated["cold_start"] = cold_start(spec, spec["second_opinion"])
    return {**({"second_opinion": escalated} if opinion is not None else {}), "responses": n,
            "candidate_pairs": len(pairs), **inputs, "repeats": len(seconds["groundwatch"]), "seconds": seconds,
            "responses_per_s": {"groundwatch": n / median["groundwatch"], "cross_encoder": n / median["cross_encoder"],
                                "groundwatch_warm": n / median["groundwatch_warm"]},
            "replay": replay,
            "pairs_per_s": {"groundwatch_nli": len(pairs) / median["groundwatch_nli"],
                            "cross_encoder": len(pairs) / median["cross_encoder"]},
            "end_to_end_vs_cross_encoder": median["cross_encoder"] / median["groundwatch"],
            "nli_vs_cross_encoder": median["cross_encoder"] / median["groundwatch_nli"],
            "latency_s": {k: _pct(v) for k, v in latency.items()},
            "cold_start": cold_start(spec), "provider": backend.provider, "precision": backend.compute}


def fresh_scorer(config, backend, second_opinion=None):
    """A scorer on the warm `backend` with empty pair and embedding caches, its embedding model warmed up."""
    from groundwatch.scorers.evidence.embedder import Embedder
    from groundwatch.scorers.pipeline import Scorer

    embedder = Embedder()
    embedder.encode(["warm up the embedding model"])
    return Scorer(config, backend, embedder, second_opinion=second_opinion)


def _second_opinion(spec: dict, config):
    """The larger model as second opinion, loaded once (its pair cache is emptied before each timed run)."""
    from groundwatch.scorers.verdicts.second_opinion import load_second_opinion
    from groundwatch.scorers.verdicts.thresholds import Thresholds

    config = config.model_copy(update={"second_opinion": spec["second_opinion"]})
    opinion = load_second_opinion(config, Thresholds.from_config(config))
    opinion.backend.warmup()
    return opinion


def _time_second_opinion(fresh, opinion, responses, seconds: dict[str, list[float]]) -> dict:
    """One timed run of the scorer with the second opinion, cache cold then warm; the claims the cold run
    re-read, by reason and outcome."""
    opinion.pairs.clear()
    opinion.counts.clear()
    scorer = fresh(opinion, second_opinion=str(opinion.backend.model_dir))
    start = time.perf_counter()
    scorer.score(responses)
    seconds["groundwatch_second_opinion"].append(time.perf_counter() - start)
    cold = {"model": opinion.model, "margin": opinion.margin, "claims": opinion.counts["claims"],
            "escalated": {k: n for k, n in opinion.counts.items() if k != "claims"},
            "share_escalated": opinion.share_escalated()}
    start = time.perf_counter()
    scorer.score(responses)  # again: both models' pairs are in their caches
    seconds["groundwatch_second_opinion_warm"].append(time.perf_counter() - start)
    scorer.batcher.close()  # the second opinion's batcher serves the next repeat
    return cold


def _cli(args: list[str], threads: int | None, second_opinion: str | None,
         stderr=subprocess.PIPE) -> subprocess.Popen:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}  # each verdict line reaches the pipe when written
    if threads:
        env["GROUNDWATCH_SCORER__THREADS"] = str(threads)
    if second_opinion:
        env["GROUNDWATCH_SCORER__SECOND_OPINION"] = str(second_opinion)
    return subprocess.Popen([sys.executable, "-m", "groundwatch.evaluation.bench.cold_start", *args],
                            stdout=subprocess.PIPE, stderr=stderr, text=True, env=env)


def cold_start(spec: dict, second_opinion: str | None = None) -> dict:
    """`groundwatch score` in fresh processes (with `second_opinion` as scorer.second_opinion): seconds from
    process start to the first verdict line (one response per scorer call, median of COLD_RUNS), and one run
    over every response with full batches for the total time and the peak RSS."""
    from groundwatch.scorers.nli.factory import backend_of

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "responses.jsonl"
        output_path(path).write_text("".join(json.dumps(r) + "\n" for r in spec["responses"]))
        common = ["score", "-i", str(path), "-o", "-", "-q", "--model", spec["model_dir"],
                  "--backend", backend_of(spec["model_dir"], "onnx")]
        firsts = []
        for _ in range(COLD_RUNS):
            start = time.perf_counter()
            proc = _cli([*common, "--batch-size", "1"], spec.get("threads"), second_opinion, subprocess.DEVNULL)
            line = proc.stdout.readline()
            firsts.append(time.perf_counter() - start)
            proc.kill()  # the rest of the file is not part of a cold start
            proc.communicate()
            if not line:
                raise RuntimeError("groundwatch score wrote no verdict")
        start = time.perf_counter()
        proc = _cli(common, spec.get("threads"), second_opinion)
        out, err = proc.communicate()
        total = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(f"groundwatch score exited {proc.returncode}: {err.strip().splitlines()[-1:]}")
    rss = [float(line[len(RSS_MARKER):]) for line in err.splitlines() if line.startswith(RSS_MARKER)]
    return {"first_verdict_s": statistics.median(firsts), "runs_s": firsts, "whole_file_s": total,
            "verdicts": len(out.splitlines()), "peak_rss_mb": rss[-1] if rss else None}
