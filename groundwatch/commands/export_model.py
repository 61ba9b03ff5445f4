"""groundwatch export-model: a Hugging Face checkpoint (nli3, grounding2, seq2seq) -> servable ONNX directory."""

from __future__ import annotations

from pathlib import Path

from groundwatch.commands.common import fail, positive_int


def register(sub) -> None:
    p = sub.add_parser("export-model", help="export an NLI, grounding or seq2seq checker checkpoint to ONNX")
    p.add_argument("--checkpoint", required=True, type=Path, metavar="DIR",
                   help="local Hugging Face checkpoint directory")
    p.add_argument("-o", "--output", required=True, type=Path, metavar="DIR",
                   help="directory to write model.onnx and its tokenizer to")
    p.add_argument("--precision", choices=["fp32", "fp16", "int8-weights", "int8-blocks", "int8"],
                   default="int8-weights",
                   help="fp16 for GPU serving; int8-weights for CPU (default: int8 weights, a pair scores the same "
                        "in any batch; how it computes is scorer.int8_compute); int8-blocks: one weight scale per "
                        "block of 32 values, for models one scale per channel cannot hold (all-mpnet-base-v2); "
                        "int8 is dynamic quantisation, whose scores depend on the batch")
    p.add_argument("--kind", choices=["nli3", "grounding2", "seq2seq"],
                   help="what the model outputs (default: from config.json: an encoder-decoder is seq2seq, three "
                        "labels nli3, one or two grounding2)")
    p.add_argument("--supported-label", metavar="LABEL",
                   help="grounding2: the id2label name or index meaning supported, where the names do not say "
                        "(MiniCheck: 1); seq2seq: the answer meaning supported (default: 1)")
    p.add_argument("--unsupported-label", metavar="LABEL", help="seq2seq: the answer meaning unsupported (default: 0)")
    p.add_argument("--input-template", metavar="TEXT",
                   help="the joined text the model was trained on, e.g. '{premise}</s>{claim}' ({eos}: the "
                        "tokenizer's end token; default: the tokenizer's pair template, for seq2seq "
                        "'predict: {premise}{eos}{claim}')")
    p.add_argument("--max-length", type=positive_int, metavar="N",
                   help="the model's input window in tokens (default: from the tokenizer and position embeddings)")
    p.add_argument("--languages", metavar="CODES", type=lambda v: tuple(c.strip() for c in v.split(",") if c.strip()),
                   help="the languages the model reads, e.g. 'en' (recorded in export.json; with exactly 'en', "
                        "a claim in another language is never SUPPORTED; default: not recorded)")
    p.add_argument("--opset", type=int, default=17, help="ONNX opset version")
    p.set_defaults(func=run)


def run(args) -> int:
    from groundwatch.config.extras import MissingExtra, require

    try:
        require("export", "groundwatch export-model")
    except MissingExtra as exc:
        return fail(str(exc))
    from groundwatch.scorers.errors import ModelLoadError
    from groundwatch.training.model_export.export_card import write_card
    from groundwatch.scorers.nli.kinds import read_kind
    from groundwatch.training.model_export.onnx_export import export_checkpoint, parity

    if not (args.checkpoint / "config.json").exists():
        return fail(f"{args.checkpoint} has no config.json: not a Hugging Face checkpoint")
    try:
        out = export_checkpoint(args.checkpoint, args.output, args.precision, args.opset, kind=args.kind,
                                supported_label=args.supported_label, unsupported_label=args.unsupported_label,
                                input_template=args.input_template, max_length=args.max_length,
                                languages=args.languages)
        kind = read_kind(out)
    except ModelLoadError as exc:
        return fail(str(exc))
    print(f"exported {args.checkpoint} -> {out}/model.onnx ({args.precision}, opset {args.opset})")
    print(f"kind {kind.name}, labels {kind.labels}, window {kind.max_length} tokens"
          + (f", input {kind.template!r}" if kind.template else ""))
    if args.precision == "fp16":
        print("note: fp16 parity is checked on the CPU provider here; serve fp16 with the CUDA provider")
    try:
        report = parity(args.checkpoint, out)
    except ModelLoadError as exc:
        return fail(str(exc))
    write_card(out, str(report))
    print(report)
    return 0
