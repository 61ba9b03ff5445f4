"""groundwatch label: stored verdicts out to human review, reviewed labels back as labelled JSONL."""

from __future__ import annotations

import json
import sys
from groundwatch.commands.common import add_verdict_source, fail, opensearch_settings, positive_int
from groundwatch.commands.conventions import deprecated, input_path, output_stream, to_stdout
from groundwatch.scorers.files import output_path


def register(sub) -> None:
    p = sub.add_parser("label", help="review a stratified sample of stored verdicts; import the labels for calibration")
    actions = p.add_subparsers(dest="label_action", required=True)

    e = actions.add_parser("export", help="draw a stratified sample of stored claims into a review file "
                                          "(JSONL + a self-contained HTML form)")
    scope = add_verdict_source(e)
    scope.add_argument("--tenant", help="only responses whose metadata.tenant is this (default: every tenant)")
    e.add_argument("--size", type=positive_int, default=200, metavar="N", help="claims in the sample")
    e.add_argument("-o", "--output", required=True, metavar="FILE", dest="out",
                   help="review JSONL to write; the HTML form goes beside it (.html)")
    deprecated(e, "--out", "--output", "out")
    e.set_defaults(func=run_export)

    i = actions.add_parser("import", help="reviewed JSONL (from the form's download) -> labelled JSONL for "
                                          "`groundwatch eval --calibrate` / `--fit-combiner`")
    i.add_argument("reviewed", help="the reviewed JSONL")
    i.add_argument("-o", "--output", required=True, metavar="FILE", dest="out", help="labelled JSONL to write")
    deprecated(i, "--out", "--output", "out")
    i.set_defaults(func=run_import)


def _records(args):
    from groundwatch.reports.data import latest_per_request, selected
    from groundwatch.reports.verdict_store import VerdictFilter
    from groundwatch.scorers.times import parse_time

    f = VerdictFilter(parse_time(args.since, strict=True), parse_time(args.until, strict=True), args.app, None,
                      args.tenant)
    if args.verdicts:
        from groundwatch.scorers.jsonl import read_jsonl

        return latest_per_request(r for _, r in read_jsonl(input_path(args.verdicts)) if selected(r, f))
    from groundwatch.export.opensearch_client import connect
    from groundwatch.reports.verdict_store import search

    section = opensearch_settings(args)
    return latest_per_request(search(connect(section), section.alias, f))


def run_export(args) -> int:
    from groundwatch.reports.review import sample, write_review
    from groundwatch.reports.review_form import render_form
    from groundwatch.reports.verdict_store import VerdictStoreError

    if to_stdout(args.out):
        return fail("--output -: the review needs a file (its HTML form is written beside it)")
    try:
        records = _records(args)
    except VerdictStoreError as exc:
        return fail(f"{exc} (url {opensearch_settings(args).url})")
    except ValueError as exc:
        return fail(str(exc))
    items = sample(records, args.size)
    if not items:
        return fail("no scored claims in the selected verdicts")
    out = output_path(args.out)
    write_review(items, out)
    form = out.with_suffix(".html")
    output_path(form).write_text(render_form(items, f"groundwatch review: {out.name}"), encoding="utf-8")
    strata = len({json.dumps(i["stratum"], sort_keys=True) for i in items})
    print(f"{len(items)} claims from {len(records)} verdicts in {strata} strata -> {out} and {form}")
    return 0


def run_import(args) -> int:
    from groundwatch.reports.review import to_labelled
    from groundwatch.scorers.jsonl import JsonlError, read_jsonl

    try:
        imported = to_labelled(item for _, item in read_jsonl(args.reviewed))
    except (JsonlError, ValueError, KeyError) as exc:
        return fail(f"{args.reviewed}: {exc}")
    if not imported.labelled:
        return fail(f"{args.reviewed}: no labelled items ({imported.unlabelled} without a label, "
                    f"{imported.skipped} skipped)")
    out = args.out
    with output_stream(out) as handle:
        handle.write("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in imported.labelled))
    print(f"{len(imported.labelled)} labelled claims -> {out} ({imported.unlabelled} without a label, "
          f"{imported.skipped} skipped, {imported.no_passages} without stored passages); next: groundwatch eval "
          f"--input {out} --calibrate balanced-accuracy --calibration-out calibration.json",
          file=sys.stderr if to_stdout(out) else sys.stdout)
    return 0
