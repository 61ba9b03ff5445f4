"""groundwatch report: faithfulness, contradiction and unverifiable rates with 95% intervals."""

from __future__ import annotations

import json

from groundwatch.commands.common import add_verdict_source, fail, opensearch_settings
from groundwatch.commands.conventions import (add_json_arg, deprecated, empty_input, input_path, output_stream,
                                              to_stdout)
from groundwatch.scorers.files import output_path


def register(sub) -> None:
    p = sub.add_parser("report", help="faithfulness rates with intervals, as a table, JSON and an HTML report")
    scope = add_verdict_source(p)
    # Not `model`: that is the NLI model everywhere else (and settings_from() reads args.model).
    scope.add_argument("--generator", dest="model_filter", metavar="NAME",
                       help="only responses of this generating model, metadata.model (default: every model)")
    deprecated(scope, "--model", "--generator", "model_filter")
    scope.add_argument("--tenant", help="only responses whose metadata.tenant is this (default: every tenant)")
    out = p.add_argument_group("output")
    out.add_argument("--bucket", choices=["auto", "hour", "day"], default="auto",
                     help="time buckets for the charts (auto: hours up to two days, else days)")
    out.add_argument("--worst", type=int, default=10, metavar="N",
                     help="responses listed under 'worst responses' (0: none)")
    out.add_argument("--html", metavar="FILE", help="write the self-contained HTML report here (default: none)")
    out.add_argument("-o", "--output", metavar="FILE",
                     help="write the figures as JSON here; `-` for stdout (default: none)")
    add_json_arg(out, "the figures")
    p.set_defaults(func=run)


def _filter(args):
    from groundwatch.reports.verdict_store import VerdictFilter
    from groundwatch.scorers.times import parse_time

    return VerdictFilter(parse_time(args.since, strict=True), parse_time(args.until, strict=True), args.app,
                         args.model_filter, args.tenant)


def _records(args, f):
    if args.verdicts:
        from groundwatch.scorers.jsonl import read_jsonl

        return [record for _, record in read_jsonl(input_path(args.verdicts))]
    from groundwatch.export.opensearch_client import connect
    from groundwatch.reports.verdict_store import search

    section = opensearch_settings(args)
    return list(search(connect(section), section.alias, f))


def run(args) -> int:
    from groundwatch.reports.data import build_report
    from groundwatch.reports.html import render_html
    from groundwatch.reports.summary import report_text
    from groundwatch.reports.verdict_store import VerdictStoreError

    try:
        f = _filter(args)
    except ValueError as exc:
        return fail(f"--since/--until: {exc}")
    try:
        records = _records(args, f)
    except VerdictStoreError as exc:
        return fail(f"{exc} (url {opensearch_settings(args).url})")
    except (OSError, ValueError) as exc:  # ValueError: a line that is not JSON
        return fail(str(exc))
    if args.verdicts and not records:
        return empty_input(args.verdicts, "verdicts")
    report = build_report(records, f, args.bucket, worst=max(0, args.worst))
    if not report.responses:
        return fail("no verdicts matched")
    if args.json and not to_stdout(args.output):
        print(json.dumps(report.to_dict(), indent=2))
    elif not to_stdout(args.output):  # stdout carries one thing: the JSON or the tables
        print(report_text(report))
    if args.output:
        with output_stream(args.output) as handle:
            json.dump(report.to_dict(), handle, indent=2)
    if args.html:
        with open(output_path(args.html), "w", encoding="utf-8") as handle:
            handle.write(render_html(report))
    return 0
