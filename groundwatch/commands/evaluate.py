"""groundwatch eval: measure the checker on labelled JSONL (and on failure probes).

The model runs once per response; thresholds, free checks and pairwise
premises are then varied by re-deciding the stored evidence.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from groundwatch.commands.common import add_settings_args, build_scorer, fail, positive_int, settings_from
from groundwatch.commands.conventions import deprecated, empty_input, to_stdout
from groundwatch.commands.progress import add_progress_arg, progress_on
from groundwatch.scorers.files import output_path


def register(sub) -> None:
    p = sub.add_parser("eval", help="measure the checker on labelled responses or probes")
    p.add_argument("-i", "--input", type=Path, metavar="FILE", help="labelled JSONL written by `groundwatch convert`")
    p.add_argument("--probes", type=Path, help="probe JSONL written by `groundwatch probes`")
    p.add_argument("-o", "--output", metavar="FILE", help="JSON report to write; `-` for stdout (default: none)")
    p.add_argument("--limit", type=positive_int, metavar="N", help="first N records only (default: all)")
    p.add_argument("--half", choices=["calibration", "report"],
                   help="keep one stable half of the records (by request_id hash; default: all records)")
    p.add_argument("--sweep", action="store_true", help="print the threshold table")
    p.add_argument("--calibrate", metavar="TARGET", help="balanced-accuracy, recall>=X or precision>=X")
    p.add_argument("--calibration-out", type=Path, help="settings file the calibrated thresholds go to")
    p.add_argument("--into-model", action="store_true",
                   help="write the calibrated thresholds to calibration.json in the model directory, where the "
                        "scorer reads them (not for the shipped model, whose thresholds are scorers/calibration.json)")
    p.add_argument("--no-free-checks", action="store_true", help="score with free_checks off")
    p.add_argument("--pair-top", type=int, help="override pair_top (0 disables pairwise concatenation); with "
                   "--from-verdicts, re-decide keeping only pairs of the first N chunks")
    p.add_argument("--top-k", type=int, help="override top_k; with --from-verdicts, re-decide keeping the first "
                   "N chunks as retrieved")
    p.add_argument("--window-grid", metavar="TOPKS:PAIRTOPS",
                   help="re-decide a top_k x pair_top grid from these scores, e.g. 2,4,6,8:0,2,3,4 (score at the "
                        "largest values once)")
    p.add_argument("--no-question-mode", action="store_true",
                   help="skip the second run that reuses the question's passages in rank order")
    p.add_argument("--save-verdicts", type=Path, help="also write the verdict records (JSONL)")
    p.add_argument("--from-verdicts", type=Path, help="re-decide verdict records written earlier; no model")
    p.add_argument("--fit-combiner", type=Path, metavar="OUT.json",
                   help="fit the verdict combiner on the calibration half and write it (ship it beside the model "
                        "as combiner.json)")
    p.add_argument("--combiner-features", metavar="NAMES",
                   help="features --fit-combiner uses: default (the seven chosen on the dev sets), all, or a comma list")
    p.add_argument("--combiner", type=Path, metavar="FILE",
                   help="combiner to compare with the threshold rule (default: combiner.json beside the model, "
                        "if it was fitted for this model)")
    p.add_argument("--guards", metavar="off|on|both",
                   help="also re-decide the same scores with the guards off and/or on (both: side by side, with "
                        "intervals and the drop check; or a list: guards-off,guards-on)")
    p.add_argument("--resamples", type=int, default=1000, help="bootstrap resamples (default 1000)")
    p.add_argument("--seed", type=int, default=0, help="seed of the bootstrap resamples")
    p.add_argument("--batch-size", type=positive_int, default=32, metavar="N",
                   help="responses handed to the scorer at once")
    deprecated(p, "--batch", "--batch-size", "batch_size", type=positive_int)
    add_progress_arg(p)
    add_settings_args(p)
    p.set_defaults(func=run)


def _config(args):
    settings = settings_from(args)
    updates = {"context_conflicts": False}  # conflicts never change a verdict; skip their cost
    if args.no_free_checks:
        updates["free_checks"] = False
    if args.pair_top is not None:  # with --from-verdicts: re-decided, and recorded as the setting
        updates["pair_top"] = args.pair_top
    if args.top_k is not None:
        updates["top_k"] = args.top_k
    from groundwatch.scorers.verdicts.calibration import for_model

    # The model's own calibration.json (or the shipped thresholds) for what the settings leave unset.
    scorer = for_model(settings.scorer.model_copy(update=updates))
    return settings.model_copy(update={"scorer": scorer})


def model_calibration_path(model_dir: str | None) -> Path:
    """Where --into-model writes: calibration.json in the model directory, never in the shipped one."""
    from groundwatch.scorers.verdicts.calibration import FILE, model_path
    from groundwatch.scorers.nli.factory import DEFAULT_MODEL_DIR

    path = model_path(model_dir)
    if path.resolve() == DEFAULT_MODEL_DIR.resolve():
        raise ValueError("--into-model: the shipped model's thresholds are scorers/calibration.json; "
                         "give --model DIR or --calibration-out FILE")
    if not path.is_dir():
        raise ValueError(f"--into-model: model directory {path} not found")
    return path / FILE


def run(args) -> int:
    from groundwatch.evaluation.redecide.calibrate import parse_target
    from groundwatch.evaluation.dataset import read_labelled
    from groundwatch.evaluation.redecide.combiner_fit import feature_names
    from groundwatch.evaluation.redecide.guard_variants import parse_guards
    from groundwatch.evaluation.redecide.windows import parse_grid
    from groundwatch.scorers.errors import InvalidResponse, ModelLoadError

    if not args.input and not args.probes:
        return fail("give --input (labelled JSONL) and/or --probes (probe JSONL)")
    if args.into_model and (not args.calibrate or args.calibration_out):
        return fail("--into-model goes with --calibrate, in place of --calibration-out")
    if args.calibrate and not (args.calibration_out or args.into_model):
        return fail("--calibrate needs --calibration-out FILE or --into-model")
    if args.from_verdicts and args.probes:
        return fail("--from-verdicts applies to --input only")
    if args.fit_combiner and (not args.input or args.half == "report"):
        return fail("--fit-combiner fits on the calibration half of --input (never on the report half)")
    if args.fit_combiner:
        args.half = "calibration"
        from groundwatch.config.extras import MissingExtra, require

        try:
            require("eval", "groundwatch eval --fit-combiner")
        except MissingExtra as exc:
            return fail(str(exc))
    try:
        target = parse_target(args.calibrate) if args.calibrate else None
        window_grid = parse_grid(args.window_grid) if args.window_grid else None
        combiner_features = feature_names(args.combiner_features)
        guards = parse_guards(args.guards) if args.guards else None
        items = read_labelled(args.input, args.limit, args.half) if args.input else []
        probes = read_labelled(args.probes, args.limit) if args.probes else []
    except (InvalidResponse, ValueError, OSError) as exc:
        return fail(str(exc))
    if args.input and not items:
        return empty_input(args.input, "labelled records" + (f" in the {args.half} half" if args.half else ""))
    if args.probes and not probes:
        return empty_input(args.probes, "probes", "--probes")
    try:
        settings = _config(args)
        if args.into_model:
            args.calibration_out = model_calibration_path(settings.scorer.model_dir)
    except (ModelLoadError, ValueError) as exc:
        return fail(str(exc))
    scorer = None
    if not args.from_verdicts or probes:
        try:
            scorer = build_scorer(settings)
        except ModelLoadError as exc:
            return fail(str(exc))
    from groundwatch.evaluation.redecide.combiner_choice import comparison_combiner, scores_model
    from groundwatch.evaluation.session import Options, labelled_section, probe_section
    from groundwatch.scorers.verdicts.combiner import CombinerError

    model = scorer.model if scorer else scores_model(args.from_verdicts)
    try:
        combiner = comparison_combiner(settings.scorer, model, args.combiner,
                                       scorer.combiner if scorer else None) if items else None
    except CombinerError as exc:
        return fail(str(exc))
    options = Options(dataset=str(args.input or ""), sweep=args.sweep, target=target,
                      calibration_out=args.calibration_out, question_mode=not args.no_question_mode,
                      save_verdicts=args.save_verdicts, from_verdicts=args.from_verdicts,
                      resamples=args.resamples, seed=args.seed, batch=args.batch_size, progress=progress_on(args),
                      combiner=combiner, fit_combiner=args.fit_combiner, model=model,
                      top_k=args.top_k if args.from_verdicts else None,
                      pair_top=args.pair_top if args.from_verdicts else None, window_grid=window_grid,
                      guards=guards, combiner_features=combiner_features)
    report: dict = {"scorer": settings.scorer.model_dump(), "model": model}
    try:
        if items:
            report["labelled"], text = labelled_section(settings.scorer, scorer, items, options)
            print(text)
        if probes:
            report["probes"], text = probe_section(settings.scorer, scorer, probes, options)
            print(text)
    except ValueError as exc:
        return fail(str(exc))
    finally:
        if scorer:
            scorer.close()
    if to_stdout(args.output):
        print(json.dumps(report, indent=2))
    elif args.output:
        output_path(args.output).write_text(json.dumps(report, indent=2) + "\n")
        print(f"\nreport written to {args.output}", file=sys.stderr)
    return 0
