"""groundwatch report: faithfulness, contradiction and unverifiable rates with 95% intervals."""

from __future__ import annotations

import json

from groundwatch.commands.common import add_verdict_source, fail, opensearch_settings
from groundwatch.scorers.files import output_path


def register(sub) -> None:
    p = sub.add_parser("report", help="faithfulness rates with intervals, as a table, JSON and an HTML report")
    scope = add_verdict_source(p)
    # Not `model`: settings_from() reads args.model as the NLI model directory.
    scope.add_argument("--model", dest="model_filter", help="the generating model (metadata.model)")
    scope.add_argument("--tenant")
    out = p.add_argument_group("output")
    out.add_argument("--bucket", choices=["auto", "hour", "day"], default="auto",
                     help="time buckets for the charts (auto: hours up to two days, else days)")
    out.add_argument("--html", help="write the self-contained HTML report here")
    out.add_argument("--json", dest="json_out", help="write the figures as JSON here")
    p.set_defaults(func=run)


def _filter(args):
    from groundwatch.reports.verdict_store import VerdictFilter
    from groundwatch.scorers.times import parse_time

    return VerdictFilter(parse_time(args.since, strict=True), parse_time(args.until, strict=True), args.app,
                         args.model_filter, args.tenant)


def _records(args, f):
    if args.verdicts:
        from groundwatch.scorers.jsonl import read_jsonl

        return [record for _, record in read_jsonl(args.verdicts)]
    from groundwatch.export.opensearch_client import connect
    from groundwatch.reports.verdict_store import search

    section = opensearch_settings(args)
    return list(search(connect(section), section.alias, f))


def run(args) -> int:
    from groundwatch.reports.data import build_report
    from groundwatch.reports.html import render_html
    from groundwatch.reports.summary import rates_table
    from groundwatch.reports.verdict_store import VerdictStoreError

    try:
        f = _filter(args)
    except ValueError as exc:
        return fail(f"--since/--until: {exc}")
    try:
        records = _records(args, f)
    except (OSError, ValueError, VerdictStoreError) as exc:  # ValueError: a line that is not JSON
        return fail(str(exc))
    report = build_report(records, f, args.bucket)
    print(rates_table(report))
    if args.json_out:
        with open(output_path(args.json_out), "w", encoding="utf-8") as handle:
            json.dump(report.to_dict(), handle, indent=2)
    if args.html:
        with open(output_path(args.html), "w", encoding="utf-8") as handle:
            handle.write(render_html(report))
    return 0 if report.responses else fail("no verdicts matched")
