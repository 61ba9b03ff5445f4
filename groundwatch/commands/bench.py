"""groundwatch bench: groundwatch's scoring path vs. plain transformers / sentence-transformers loops."""

from __future__ import annotations

import json
from pathlib import Path

from groundwatch.commands.common import fail, read_responses
from groundwatch.commands.progress import add_progress_arg, progress_on
from groundwatch.scorers.nli.factory import DEFAULT_MODEL_DIR

MODELS = Path(__file__).resolve().parents[2] / "scorers" / "models"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "responses.jsonl"
NLI_DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "nli-train"


def register(sub) -> None:
    p = sub.add_parser("bench", help="benchmark the scoring path against reference loops on the same model")
    p.add_argument("--pairs", type=int, default=300, help="(passage, claim) pairs per path (default 300)")
    p.add_argument("--reference-pairs", type=int, default=100,
                   help="pairs for the one-pair-at-a-time transformers loop: the first N of the same pairs")
    inputs = p.add_mutually_exclusive_group()
    inputs.add_argument("--responses", type=Path,
                        help="responses JSONL (default examples/responses.jsonl; synthetic ones when that is absent)")
    inputs.add_argument("--synthetic", action="store_true", help="synthetic policy-style responses instead of a file")
    p.add_argument("--n-responses", type=int, default=40, help="responses for the pipeline figures (default 40)")
    p.add_argument("--json", type=Path, dest="json_out", help="write the full result as JSON")
    p.add_argument("--model", type=Path, default=DEFAULT_MODEL_DIR, help="served ONNX model directory")
    p.add_argument("--torch-checkpoint", type=Path, default=MODELS / "nli-minilm-torch",
                   help="PyTorch checkpoint the ONNX model was exported from")
    p.add_argument("--onnx-fp32", type=Path, help="fp32 ONNX directory (default: exported from the checkpoint)")
    p.add_argument("--batch-size", type=int, default=32, help="batch size of the fixed-batch paths")
    p.add_argument("--paths", help="comma-separated subset of paths to run")
    p.add_argument("--nli-data", type=Path, default=NLI_DATA,
                   help="NLI training data: held-out validation pairs and int8-static calibration for the "
                        "precision options (default ../shared/data/nli-train beside the repository)")
    p.add_argument("--val-pairs", type=int, default=1000, help="validation pairs for the precision options")
    p.add_argument("--repeats", type=int, default=3, help="interleaved repeats of the option and tokenizer timings")
    p.add_argument("--threads", type=int,
                   help="intra-op threads for every path (default: each library's own; 1 on a busy machine)")
    add_progress_arg(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from groundwatch.evaluation.bench.report import bench_tables
    from groundwatch.evaluation.bench.runner import BenchSpec, run_bench
    from groundwatch.scorers.files import output_path

    if not (args.model / "model.onnx").exists():
        return fail(f"{args.model}/model.onnx not found (give --model)")
    responses = None if args.synthetic else args.responses or (EXAMPLES if EXAMPLES.exists() else None)
    if responses is not None:  # every record is read and checked before any model loads
        try:
            bad = next(((n, e) for n, e, _ in read_responses(responses) if isinstance(e, Exception)), None)
        except OSError as exc:
            return fail(f"cannot read --responses: {exc}")
        if bad:
            return fail(f"{responses} line {bad[0]}: {bad[1]}")
    spec = BenchSpec(model_dir=args.model, torch_checkpoint=args.torch_checkpoint, onnx_fp32=args.onnx_fp32,
                     pairs=args.pairs, reference_pairs=min(args.reference_pairs, args.pairs),
                     responses_file=responses, responses=args.n_responses, batch_size=args.batch_size,
                     paths=tuple(p.strip() for p in args.paths.split(",")) if args.paths else None,
                     threads=args.threads, progress=progress_on(args), nli_data=args.nli_data,
                     validation_pairs=args.val_pairs, repeats=args.repeats)
    result = run_bench(spec)
    print(bench_tables(result))
    if args.json_out:
        output_path(args.json_out).write_text(json.dumps(result, indent=2) + "\n")
    failed = [name for name, p in result["paths"].items() if "error" in p]
    return 1 if failed else 0
