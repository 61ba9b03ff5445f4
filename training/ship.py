"""Export the trained checkpoint as groundwatch's shipped default model.

    python -m training.ship --checkpoint build/nli-minilm

Writes scorers/models/nli-minilm-int8/ (int8 ONNX, opset 17, dynamic per-channel
quantisation, tokenizer, config.json with id2label, parity.json, the training
manifest) and scorers/models/nli-minilm-torch/ (the compact PyTorch copy used
only by the PyTorch baselines of `groundwatch bench`).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
from pathlib import Path

from scorers.jsonl import read_jsonl
from scorers.nli.onnx_export import PARITY_PAIRS, export_checkpoint, parity
from training.compact_checkpoint import save_compact

MODELS = Path(__file__).resolve().parent.parent / "scorers" / "models"
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
    ap.add_argument("--output", type=Path, default=MODELS / "nli-minilm-int8")
    ap.add_argument("--compact", type=Path, default=MODELS / "nli-minilm-torch")
    ap.add_argument("--parity-pairs", type=int, default=500)
    args = ap.parse_args(argv)

    if args.output.exists():
        shutil.rmtree(args.output)
    export_checkpoint(args.checkpoint, args.output, "int8", opset=17)
    size_mb = (args.output / "model.onnx").stat().st_size / 1e6
    if size_mb > MAX_MB:
        raise SystemExit(f"int8 model is {size_mb:.1f} MB, over the {MAX_MB} MB budget")
    pairs = PARITY_PAIRS + validation_pairs(args.checkpoint, args.parity_pairs)
    report = parity(args.checkpoint, args.output, pairs)
    print(report)
    (args.output / "parity.json").write_text(json.dumps(
        {"pairs": report.n, "max_abs_prob_diff": round(report.max_abs_prob_diff, 5),
         "argmax_agreement": round(report.argmax_agreement, 4), "model_mb": round(size_mb, 1)}, indent=2))
    manifest = args.checkpoint / "training_manifest.json"
    if manifest.exists():
        shutil.copy(manifest, args.output / "training_manifest.json")
    save_compact(args.checkpoint, args.compact)
    print(f"shipped {args.output} ({size_mb:.1f} MB) and {args.compact}")


if __name__ == "__main__":
    main()
