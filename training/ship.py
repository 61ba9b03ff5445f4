"""Export the trained checkpoint as groundwatch's shipped default model.

    python -m groundwatch.training.ship --checkpoint build/nli-minilm
    python -m groundwatch.training.ship --from-compact     # re-export the shipped weights (another precision)

Writes the default model directory (scorers/nli/factory.py DEFAULT_MODEL_DIR: ONNX opset 17
in SHIPPED_PRECISION, tokenizer, config.json with id2label, parity.json against the PyTorch
model on held-out validation pairs, the training manifest) and scorers/models/nli-minilm-torch/
(the compact PyTorch copy: the fp32 reference of `groundwatch bench`). The precision is the
fastest batch-invariant option whose groundedness-dev accuracy stays within 0.01 of fp32
(the options table of the model card, from `groundwatch bench --paths nli_options`).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
from pathlib import Path

from groundwatch.config.extras import exit_unless
from groundwatch.scorers.jsonl import read_jsonl
from groundwatch.scorers.nli.factory import DEFAULT_MODEL_DIR
from groundwatch.training.model_export.onnx_export import PARITY_PAIRS, PRECISIONS, export_checkpoint, parity
from groundwatch.training.compact_checkpoint import materialise, save_compact
from groundwatch.training.nli_data import held_out_pairs

MODELS = DEFAULT_MODEL_DIR.parent
COMPACT = MODELS / "nli-minilm-torch"
SHIPPED_PRECISION = "int8-weights"
NLI_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "nli-train"
MAX_MB = 30


def validation_pairs(checkpoint: Path, n: int, seed: int = 0) -> list[tuple[str, str]]:
    path = checkpoint / "validation.jsonl"
    if not path.exists():
        return []
    rows = [record for _, record in read_jsonl(path)]
    random.Random(seed).shuffle(rows)
    return [(r["premise"], r["hypothesis"]) for r in rows[:n]]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--checkpoint", type=Path, default=Path("build/nli-minilm"))
    ap.add_argument("--from-compact", action="store_true",
                    help="export the compact copy's weights (dequantised) instead of --checkpoint; the copy is kept")
    ap.add_argument("--output", type=Path, default=DEFAULT_MODEL_DIR)
    ap.add_argument("--compact", type=Path, default=COMPACT)
    ap.add_argument("--precision", choices=PRECISIONS, default=SHIPPED_PRECISION)
    ap.add_argument("--manifest", type=Path, help="training manifest to ship (default: the checkpoint's)")
    ap.add_argument("--nli-data", type=Path, default=NLI_DATA,
                    help="training data: held-out parity pairs, and calibration pairs for int8-static")
    ap.add_argument("--parity-pairs", type=int, default=1000)
    args = ap.parse_args(argv)
    exit_unless("train", "python -m groundwatch.training.ship")

    checkpoint = materialise(args.compact) if args.from_compact else args.checkpoint
    manifest = args.manifest or checkpoint / "training_manifest.json"
    manifest_text = manifest.read_text() if manifest.exists() else None  # before the output is replaced
    validation, calibration = held_out_pairs(args.nli_data, args.parity_pairs) if args.nli_data.is_dir() else ([], [])
    if args.output.exists():
        shutil.rmtree(args.output)
    # Trained on English pairs only: a claim in another language is read by its shared words.
    export_checkpoint(checkpoint, args.output, args.precision, opset=17, calibration=calibration, languages=("en",))
    size_mb = (args.output / "model.onnx").stat().st_size / 1e6
    if size_mb > MAX_MB and args.output.resolve() == DEFAULT_MODEL_DIR.resolve():  # the repository's budget
        raise SystemExit(f"{args.precision} model is {size_mb:.1f} MB, over the {MAX_MB} MB budget")
    pairs = PARITY_PAIRS + (validation_pairs(checkpoint, args.parity_pairs) or validation)
    report = parity(checkpoint, args.output, pairs)
    print(report)
    (args.output / "parity.json").write_text(json.dumps(
        {"pairs": report.n, "max_abs_prob_diff": round(report.max_abs_prob_diff, 5),
         "argmax_agreement": round(report.argmax_agreement, 4), "model_mb": round(size_mb, 1)}, indent=2))
    if manifest_text:
        (args.output / "training_manifest.json").write_text(manifest_text)
    if not args.from_compact:
        save_compact(checkpoint, args.compact)
    print(f"shipped {args.output} ({args.precision}, {size_mb:.1f} MB) and {args.compact}")


if __name__ == "__main__":
    main()
