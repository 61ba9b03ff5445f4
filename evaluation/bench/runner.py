"""Run every benchmark path in its own process, then compare them."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from groundwatch.evaluation.bench.child import MARKER
from groundwatch.evaluation.bench.inputs import load_responses, pairs_of
from groundwatch.evaluation.bench.machine import machine
from groundwatch.scorers.files import shown_path

CPU_PATHS = ("whole_path", "groundwatch", "reference_loop", "cross_encoder", "torch_fp32", "onnx_fp32", "onnx_shipped",
             "guards", "tokenize_once", "nli_options")
CUDA_PATHS = ("torch_cuda_fp16", "onnx_cuda_fp32")
NEEDS_TORCH = {"reference_loop", "cross_encoder", "torch_fp32", "onnx_fp32", "torch_cuda_fp16", "onnx_cuda_fp32",
               "nli_options", "whole_path"}
# timeout multipliers: every precision option, validation pairs, invariance; the whole path's repeats and cold starts
SLOW_PATHS = {"nli_options": 4.0, "whole_path": 2.0}
SECOND_OPINION_SLOWER = 4.0  # the whole path also times the larger model, a few pairs a second on a CPU core
REFERENCE = "torch_fp32"  # probabilities of every path are compared with this one


@dataclass
class BenchSpec:
    model_dir: Path                 # the served int8 ONNX directory
    torch_checkpoint: Path          # the PyTorch checkpoint it was exported from
    onnx_fp32: Path | None = None   # exported on the fly when absent
    pairs: int = 300
    reference_pairs: int = 100      # the per-pair loop is slow; it runs on the first N of the same pairs
    responses_file: Path | None = None
    responses: int = 40
    batch_size: int = 32
    max_length: int = 256
    paths: tuple[str, ...] | None = None
    threads: int | None = None      # intra-op threads of every path (None: each library's default)
    progress: bool = False          # a bar over the paths on stderr (each path runs for seconds to minutes)
    nli_data: Path | None = None    # NLI training data: held-out validation pairs and static-int8 calibration
    validation_pairs: int = 1000    # held-out pairs for the precision options' agreement with fp32
    repeats: int = 3                # interleaved repeats of the options and tokenize-once timings
    second_opinion: Path | None = None  # whole_path: also time the scorer with this larger model as second opinion


def _child(path: str, payload: dict, timeout: float) -> dict:
    proc = subprocess.run([sys.executable, "-m", "groundwatch.evaluation.bench.child"], input=json.dumps(payload),
                          capture_output=True, text=True, timeout=timeout)
    lines = [line for line in proc.stdout.splitlines() if line.startswith(MARKER)]
    if proc.returncode != 0 or not lines:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
        return {"error": f"exit {proc.returncode}: {tail[0][:300]}"}
    return json.loads(lines[-1][len(MARKER):])


def _agreement(probs: list, reference: list) -> dict:
    a = np.asarray(probs)
    b = np.asarray(reference)[:len(a)]  # a path that ran a prefix of the pairs
    return {"max_abs_prob_diff": float(np.abs(a - b).max()),
            "argmax_agreement": float((a.argmax(1) == b.argmax(1)).mean())}


def run_bench(spec: BenchSpec, timeout: float = 900, in_process: dict[str, Callable[[dict], dict]] | None = None
              ) -> dict:
    """`in_process`: more paths by name, run in this process after the others with the same payload (paths of
    higher layers, which this package may not import: the CLI's trace path); all of them unless spec.paths
    names some."""
    import torch
    from tqdm import tqdm

    info = machine()
    responses, source = load_responses(spec.responses_file, spec.responses)
    pairs = pairs_of(responses, spec.pairs)
    cuda = CUDA_PATHS if torch.cuda.is_available() else ()
    paths = list(spec.paths or CPU_PATHS + cuda + tuple(in_process or ()))
    own = {name: run for name, run in (in_process or {}).items() if name in paths}
    paths = [p for p in paths if p not in own]
    if "onnx_cuda_fp32" in paths and "CUDAExecutionProvider" not in info["onnxruntime_providers"]:
        paths.remove("onnx_cuda_fp32")
    notes = []
    have_torch = (spec.torch_checkpoint / "config.json").exists()
    if not have_torch:
        notes.append(f"no PyTorch checkpoint at {shown_path(spec.torch_checkpoint)}: torch-based paths skipped")
        paths = [p for p in paths if p not in NEEDS_TORCH]
    with tempfile.TemporaryDirectory() as tmp:
        checkpoint = spec.torch_checkpoint
        if have_torch and _is_compact(checkpoint) and any(p in NEEDS_TORCH for p in paths):
            from groundwatch.training.compact_checkpoint import materialise

            checkpoint = materialise(checkpoint, Path(tmp) / "torch")
            notes.append("PyTorch baselines run on fp32 weights dequantised from the compact int8 copy "
                         f"in {shown_path(spec.torch_checkpoint)} (training/compact_checkpoint.py)")
        onnx_fp32 = spec.onnx_fp32
        if have_torch and onnx_fp32 is None and any(p == "nli_options" or p.startswith("onnx_") and p != "onnx_shipped"
                                                    for p in paths):
            from groundwatch.training.model_export.onnx_export import export_checkpoint

            start = time.perf_counter()
            onnx_fp32 = export_checkpoint(checkpoint, Path(tmp) / "fp32", "fp32")
            notes.append(f"ONNX fp32 exported from the checkpoint in {time.perf_counter() - start:.1f} s (not timed)")
        payload = {"pairs": pairs, "responses": responses, "model_dir": str(spec.model_dir),
                   "torch_checkpoint": str(checkpoint), "onnx_fp32": str(onnx_fp32),
                   "batch_size": spec.batch_size, "max_length": spec.max_length, "providers": "cpu",
                   "reference_pairs": spec.reference_pairs, "threads": spec.threads, "repeats": spec.repeats,
                   "second_opinion": str(spec.second_opinion) if spec.second_opinion else None}
        if "nli_options" in paths:
            payload.update(_options_payload(spec, checkpoint, Path(onnx_fp32), Path(tmp), pairs, notes))
        results = {}
        with tqdm(paths, desc="bench paths", unit="path", disable=not spec.progress, file=sys.stderr) as bar:
            for p in bar:
                bar.set_postfix_str(p)
                slower = SECOND_OPINION_SLOWER if p == "whole_path" and spec.second_opinion else 1.0
                results[p] = _child(p, {**payload, "path": p}, timeout * SLOW_PATHS.get(p, 1.0) * slower)
        for name, run in own.items():
            try:
                results[name] = run({**payload, "path": name})
            except Exception as exc:  # noqa: BLE001 - reported in its row, as a child's failure is
                results[name] = {"error": f"{type(exc).__name__}: {str(exc)[:300]}"}
    info["threads"] = spec.threads or "library defaults"
    return summarise(results, info, len(pairs), len(responses), source, notes)


def _options_payload(spec: BenchSpec, checkpoint: Path, fp32: Path, tmp: Path, pairs: list, notes: list) -> dict:
    """Build the precision options (not timed) and pick their validation pairs."""
    from groundwatch.evaluation.bench.options import build_options
    from groundwatch.training.nli_data import held_out_pairs

    validation, calibration = [], None
    if spec.nli_data and spec.nli_data.is_dir():
        validation, calibration = held_out_pairs(spec.nli_data, spec.validation_pairs)
        notes.append(f"precision options: agreement on {len(validation)} held-out validation pairs "
                     f"(premise-hash split of {spec.nli_data.name}, training/nli_data.py)")
    else:
        validation = pairs
        notes.append("precision options: no NLI training data, so agreement is measured on the bench pairs")
    options, more = build_options(checkpoint, fp32, tmp / "options", calibration, shipped=spec.model_dir)
    notes.extend(more)
    return {"options": options, "validation_pairs": validation}


def _is_compact(checkpoint: Path) -> bool:
    from groundwatch.training.compact_checkpoint import WEIGHTS

    ordinary = list(checkpoint.glob("*.safetensors")) + list(checkpoint.glob("pytorch_model*.bin"))
    return (checkpoint / WEIGHTS).exists() and all(p.name == WEIGHTS for p in ordinary)


def summarise(results: dict, info: dict, n_pairs: int, n_responses: int, source: str, notes: list[str]) -> dict:
    reference = results.get(REFERENCE, {}).get("probs")
    paths = {}
    for name, r in results.items():
        if "error" in r or any(k in r for k in ("ms_per_claim", "options", "paths", "cold_start", "trace_path")):
            # own tables
            paths[name] = r
            continue
        done = r.get("n_pairs", n_pairs)
        entry = {"pairs_per_s": done / r["seconds"], "pairs": done, "seconds": r["seconds"], "provider": r["provider"],
                 "precision": r["precision"], "peak_rss_mb": r["peak_rss_mb"]}
        if reference and name != REFERENCE:
            entry["vs_torch_fp32"] = _agreement(r["probs"], reference)
        for key in ("responses_with_conflicts", "responses_without_conflicts", "latency_s", "batches"):
            if key in r:
                entry[key] = r[key]
        paths[name] = entry
    inputs = {"pairs": n_pairs, "responses": n_responses, "responses_source": shown_path(source)}
    return {"machine": info, "inputs": inputs,
            "paths": paths, "ratios": ratios(paths), "notes": notes}


def ratios(paths: dict) -> dict:
    speed = {k: v["pairs_per_s"] for k, v in paths.items() if "pairs_per_s" in v}
    wanted = [("groundwatch", "reference_loop"), ("groundwatch", "cross_encoder"), ("onnx_fp32", "torch_fp32"),
              ("onnx_shipped", "torch_fp32"), ("onnx_shipped", "onnx_fp32"), ("torch_cuda_fp16", "torch_fp32"),
              ("onnx_cuda_fp32", "torch_fp32")]
    out = {f"{a}/{b}": speed[a] / speed[b] for a, b in wanted if a in speed and b in speed}
    t = paths.get("trace_path", {})
    for encoding, ratio in t.get("trace_vs_json", {}).items():
        out[f"trace_path {encoding}/json"] = ratio
    g = paths.get("groundwatch", {})
    if "responses_with_conflicts" in g:
        on, off = g["responses_with_conflicts"], g["responses_without_conflicts"]
        out["context_conflicts time on/off"] = on["seconds"] / off["seconds"]
        out["context_conflicts model pairs on/off"] = on["model_pairs"] / max(1, off["model_pairs"])
    return out
