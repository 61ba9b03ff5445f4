"""The NLI precision options side by side (issue 11 §1): speed, agreement with fp32, batch invariance.

Every option is the same model (the compact PyTorch copy, training/compact_checkpoint.py) run
another way. In one process, so the options share the machine's noise:
- pairs/s: the same pre-encoded batches of the bench pairs, options in rotation (A B C … C B A …),
  the median of the repeats;
- argmax agreement and max |Δp| against ONNX fp32 on held-out validation pairs (the training
  split by premise hash, training/nli_data.py), never the pairs anything was calibrated on;
- batch invariance: pairs scored alone and inside batches of other pairs (other lengths, so other
  padding) at random positions: the largest |Δp|. At most 1e-5 counts as deterministic.
"""

from __future__ import annotations

import random
import statistics
import time
from pathlib import Path

import numpy as np

from groundwatch.scorers.nli.base import softmax

REFERENCE = "onnx fp32"
INVARIANCE_TOLERANCE = 1e-5


def build_options(checkpoint: Path, fp32_dir: Path, work: Path, calibration: list[tuple[str, str]] | None,
                  shipped: Path | None = None) -> tuple[dict[str, dict], list[str]]:
    """Option name -> how to load it; and notes. ONNX variants are exported into `work` (not timed)."""
    from groundwatch.training.model_export.onnx_export import export_checkpoint
    notes = []
    weights = export_checkpoint(checkpoint, work / "int8-weights", "int8-weights")
    options = {
        REFERENCE: {"kind": "onnx", "dir": str(fp32_dir)},
        "onnx int8 dynamic": {"kind": "onnx", "dir": str(export_checkpoint(checkpoint, work / "int8", "int8"))},
        "onnx int8 weights, fp32 compute": {"kind": "onnx", "dir": str(weights), "int8_compute": "fp32"},
        "onnx int8 weights, blocks compute": {"kind": "onnx", "dir": str(weights), "int8_compute": "blocks"},
        "onnx int8 weights, rows compute": {"kind": "onnx", "dir": str(weights), "int8_compute": "rows"},
        "torch fp32": {"kind": "torch", "dir": str(checkpoint)},
        "torch bf16": {"kind": "torch", "dir": str(checkpoint), "bf16": True},
        "torch bf16, fixed shapes": {"kind": "torch", "dir": str(checkpoint), "bf16": True, "fixed_shapes": True},
    }
    if calibration:
        static = export_checkpoint(checkpoint, work / "int8-static", "int8-static", calibration=calibration)
        options["onnx int8 static (QDQ)"] = {"kind": "onnx", "dir": str(static)}
        notes.append(f"int8 static: activation ranges calibrated on {len(calibration)} training pairs")
    else:
        notes.append("int8 static skipped: no NLI training data for calibration (--nli-data)")
    if shipped is not None:
        options[f"shipped ({shipped.name})"] = {"kind": "onnx", "dir": str(shipped)}
    for option in options.values():
        model = Path(option["dir"]) / "model.onnx"
        option["size_mb"] = round(model.stat().st_size / 1e6, 1) if model.exists() else None
    return options, notes


def _load(option: dict, max_length: int, threads: int | None):
    if option["kind"] == "torch":
        from groundwatch.scorers.nli.pytorch.backend import TorchBackend

        return TorchBackend(Path(option["dir"]), max_length=max_length, device="cpu", bf16=option.get("bf16", False),
                            fixed_shapes=option.get("fixed_shapes", False))
    from groundwatch.scorers.nli.onnx_backend import OnnxBackend

    return OnnxBackend(Path(option["dir"]), max_length=max_length, providers="cpu", threads=threads,
                       int8_compute=option.get("int8_compute", "auto"))


def _probs(backend, batch) -> np.ndarray:
    labels = backend.labels
    cols = [labels["entailment"], labels["neutral"], labels["contradiction"]]
    return softmax(backend.infer(batch).astype(np.float64))[:, cols]


def _batches(encodings: list, size: int) -> list[list]:
    ordered = sorted(encodings, key=len)  # as the batcher does: similar lengths share a batch
    return [ordered[i:i + size] for i in range(0, len(ordered), size)]


def invariance(backend, encodings: list, n: int = 50, others: int = 7, trials: int = 2, seed: int = 0) -> float:
    """Largest |Δp| of a pair scored alone vs inside batches of `others` other pairs."""
    rng = random.Random(seed)
    worst = 0.0
    for i, enc in enumerate(encodings[:n]):
        alone = _probs(backend, [enc])[0]
        pool = encodings[:i] + encodings[i + 1:]
        for _ in range(trials):
            batch = rng.sample(pool, others)
            at = rng.randrange(others + 1)
            batch.insert(at, enc)
            worst = max(worst, float(np.abs(_probs(backend, batch)[at] - alone).max()))
    return worst


def run_options(spec: dict) -> dict:
    """Child-process entry: every option of spec['options'] measured on the same inputs."""
    names = list(spec["options"])
    backends = {n: _load(spec["options"][n], spec["max_length"], spec.get("threads")) for n in names}
    encoder = backends[REFERENCE]
    bench = [encs[0] for encs in encoder.tokenize(spec["pairs"])]
    validation = [encs[0] for encs in encoder.tokenize(spec["validation_pairs"])]
    batches = _batches(bench, spec["batch_size"])
    for backend in backends.values():
        backend.infer(batches[0][:8])  # warm-up
    seconds: dict[str, list[float]] = {n: [] for n in names}
    for r in range(spec.get("repeats", 3)):
        for name in names if r % 2 == 0 else names[::-1]:
            start = time.perf_counter()
            for batch in batches:
                backends[name].infer(batch)
            seconds[name].append(time.perf_counter() - start)
    val_batches = [validation[i:i + spec["batch_size"]] for i in range(0, len(validation), spec["batch_size"])]
    probs = {n: np.concatenate([_probs(backends[n], b) for b in val_batches]) for n in names}
    ref = probs[REFERENCE]
    out = {}
    for name in names:
        p = probs[name]
        inv = invariance(backends[name], validation)
        out[name] = {"pairs_per_s": len(bench) / statistics.median(seconds[name]),
                     "seconds": [round(s, 3) for s in seconds[name]],
                     "precision": backends[name].compute, "size_mb": spec["options"][name].get("size_mb"),
                     "argmax_agreement": float((p.argmax(1) == ref.argmax(1)).mean()),
                     "max_abs_prob_diff": float(np.abs(p - ref).max()),
                     "batch_invariance_max_dp": inv, "deterministic": inv <= INVARIANCE_TOLERANCE}
    return {"options": out, "pairs": len(bench), "validation_pairs": len(validation),
            "repeats": spec.get("repeats", 3), "seconds": 0.0, "provider": "cpu", "precision": "-"}
