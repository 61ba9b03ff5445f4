"""groundwatch bench: groundwatch's scoring path vs. plain transformers / sentence-transformers loops."""

from __future__ import annotations

import json
from pathlib import Path

from groundwatch.commands.common import fail, positive_int, read_responses
from groundwatch.commands.conventions import add_json_arg, deprecated, empty_input, to_stdout
from groundwatch.commands.progress import add_progress_arg, progress_on
from groundwatch.scorers.nli.factory import DEFAULT_MODEL_DIR

MODELS = Path(__file__).resolve().parents[2] / "scorers" / "models"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "responses.jsonl"
NLI_DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "nli-train"


def register(sub) -> None:
    p = sub.add_parser("bench", help="benchmark the scoring path against reference loops on the same model")
    p.add_argument("--pairs", type=positive_int, default=300, metavar="N", help="(passage, claim) pairs per path")
    p.add_argument("--reference-pairs", type=positive_int, default=100, metavar="N",
                   help="pairs for the one-pair-at-a-time transformers loop: the first N of the same pairs")
    inputs = p.add_mutually_exclusive_group()
    inputs.add_argument("-i", "--input", type=Path, dest="responses", metavar="FILE",
                        help="responses JSONL (default: the example responses of the checkout; synthetic ones "
                             "when they are absent)")
    deprecated(inputs, "--responses", "--input", "responses", type=Path)
    inputs.add_argument("--synthetic", action="store_true", help="synthetic policy-style responses instead of a file")
    p.add_argument("--n-responses", type=positive_int, default=40, metavar="N",
                   help="responses for the pipeline figures")
    p.add_argument("-o", "--output", metavar="FILE", help="write the full result as JSON here; `-` for stdout "
                                                          "(default: none)")
    add_json_arg(p, "the full result")
    p.add_argument("--model", type=Path, metavar="DIR",
                   help="served ONNX model directory (default: the shipped model); with --paths whole_path also a "
                        "PyTorch checkpoint or compact copy, run on the torch backend (scorer.torch_compute auto)")
    p.add_argument("--torch-checkpoint", type=Path, metavar="DIR",
                   help="PyTorch checkpoint the ONNX model was exported from (default: the shipped one)")
    p.add_argument("--onnx-fp32", type=Path, metavar="DIR",
                   help="fp32 ONNX directory (default: exported from the checkpoint)")
    p.add_argument("--batch-size", type=positive_int, default=32, metavar="N",
                   help="batch size of the fixed-batch paths")
    p.add_argument("--paths", help="comma-separated subset of paths to run (default: all)")
    p.add_argument("--nli-data", type=Path, metavar="DIR",
                   help="NLI training data: held-out validation pairs and int8-static calibration for the "
                        "precision options (default: the NLI training data beside the checkout)")
    p.add_argument("--val-pairs", type=positive_int, default=1000, metavar="N",
                   help="validation pairs for the precision options")
    p.add_argument("--repeats", type=positive_int, default=3, metavar="N",
                   help="interleaved repeats of the option and tokenizer timings")
    p.add_argument("--threads", type=int,
                   help="intra-op threads for every path (default: each library's own; 1 on a busy machine)")
    p.add_argument("--second-opinion", type=Path, metavar="DIR",
                   help="whole_path: also time groundwatch with this larger model (ONNX export, PyTorch checkpoint "
                        "or compact copy) as the second opinion "
                        "(scorer.second_opinion), interleaved, and count the claims it re-reads (default: none)")
    add_progress_arg(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from groundwatch.config.extras import MissingExtra, missing, require

    try:  # the PyTorch and CrossEncoder baselines
        require("bench", "groundwatch bench")
    except MissingExtra as exc:
        return fail(str(exc))
    from groundwatch.evaluation.bench.report import bench_tables
    from groundwatch.evaluation.bench.runner import BenchSpec, run_bench
    from groundwatch.scorers.files import output_path

    from groundwatch.scorers.nli.factory import backend_of

    args.model = args.model or DEFAULT_MODEL_DIR
    if args.second_opinion and backend_of(args.second_opinion, "none") == "none":
        return fail(f"--second-opinion {args.second_opinion}: neither model.onnx nor a PyTorch checkpoint found")
    whole_path_only = args.paths is not None and [p.strip() for p in args.paths.split(",")] == ["whole_path"]
    on_torch = backend_of(args.model, "onnx") == "torch"
    if on_torch and not whole_path_only:
        return fail(f"--model {args.model} is a PyTorch model: only --paths whole_path runs one")
    if not on_torch and not (args.model / "model.onnx").exists():
        return fail(f"{args.model}/model.onnx not found (give --model)")
    responses = None if args.synthetic else args.responses or (EXAMPLES if EXAMPLES.exists() else None)
    if responses is not None:  # every record is read and checked before any model loads
        try:
            records = list(read_responses(responses))
        except OSError as exc:
            return fail(f"cannot read --input {responses}: {exc.strerror or exc}")
        bad = next(((n, e) for n, e, _ in records if isinstance(e, Exception)), None)
        if bad:
            return fail(f"{responses} line {bad[0]}: {bad[1]}")
        if not records:
            return empty_input(responses, "responses")
    spec = BenchSpec(model_dir=args.model, torch_checkpoint=args.torch_checkpoint or MODELS / "nli-minilm-torch",
                     onnx_fp32=args.onnx_fp32,
                     pairs=args.pairs, reference_pairs=min(args.reference_pairs, args.pairs),
                     responses_file=responses, responses=args.n_responses, batch_size=args.batch_size,
                     paths=tuple(p.strip() for p in args.paths.split(",")) if args.paths else None,
                     threads=args.threads, progress=progress_on(args), nli_data=args.nli_data or NLI_DATA,
                     validation_pairs=args.val_pairs, repeats=args.repeats,
                     second_opinion=args.second_opinion)
    own, skipped = {}, []
    if missing("otlp"):  # the trace path writes its traces with the OpenTelemetry SDK
        skipped.append("trace_path skipped: writing the traces needs pip install 'groundwatch[otlp]'")
    else:
        from groundwatch.tools.trace_bench import run_trace_path

        own["trace_path"] = run_trace_path
    result = run_bench(spec, in_process=own)
    result["notes"] += skipped
    if args.json and not to_stdout(args.output):
        print(json.dumps(result, indent=2))
    elif not to_stdout(args.output):
        print(bench_tables(result))
    if to_stdout(args.output):
        print(json.dumps(result, indent=2))
    elif args.output:
        output_path(args.output).write_text(json.dumps(result, indent=2) + "\n")
    # An error, or a trace path whose verdicts are not those of the same responses as JSON.
    failed = [name for name, p in result["paths"].items() if "error" in p or p.get("verdicts_identical") is False]
    return 1 if failed else 0
