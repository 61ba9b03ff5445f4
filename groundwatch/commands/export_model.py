"""groundwatch export-model: a Hugging Face NLI checkpoint -> servable ONNX directory."""

from __future__ import annotations

from pathlib import Path

from groundwatch.commands.common import fail


def register(sub) -> None:
    p = sub.add_parser("export-model", help="export a sequence-classification NLI checkpoint to ONNX")
    p.add_argument("--checkpoint", required=True, type=Path, metavar="DIR",
                   help="local Hugging Face checkpoint directory")
    p.add_argument("-o", "--output", required=True, type=Path, metavar="DIR",
                   help="directory to write model.onnx and its tokenizer to")
    p.add_argument("--precision", choices=["fp32", "fp16", "int8-weights", "int8"], default="int8-weights",
                   help="fp16 for GPU serving; int8-weights for CPU (default: int8 weights, a pair scores the same "
                        "in any batch); int8 is dynamic quantisation, whose scores depend on the batch")
    p.add_argument("--opset", type=int, default=17, help="ONNX opset version")
    p.set_defaults(func=run)


def run(args) -> int:
    from groundwatch.config.extras import MissingExtra, require

    try:
        require("export", "groundwatch export-model")
    except MissingExtra as exc:
        return fail(str(exc))
    from groundwatch.scorers.errors import ModelLoadError
    from groundwatch.scorers.nli.onnx_export import export_checkpoint, parity

    if not (args.checkpoint / "config.json").exists():
        return fail(f"{args.checkpoint} has no config.json: not a Hugging Face checkpoint")
    try:
        out = export_checkpoint(args.checkpoint, args.output, args.precision, args.opset)
    except ModelLoadError as exc:
        return fail(str(exc))
    print(f"exported {args.checkpoint} -> {out}/model.onnx ({args.precision}, opset {args.opset})")
    if args.precision == "fp16":
        print("note: fp16 parity is checked on the CPU provider here; serve fp16 with the CUDA provider")
    print(parity(args.checkpoint, out))
    return 0
