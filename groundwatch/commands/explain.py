"""groundwatch explain: why a response got its verdicts, for a person to read."""

from __future__ import annotations

import os
import sys

from groundwatch.commands.common import fail
from groundwatch.commands.conventions import deprecated, input_path
from groundwatch.reports.explain import render
from groundwatch.reports.trace import owner_line, shared_head
from groundwatch.scorers.identity import app_of, tenant_of
from groundwatch.scorers.jsonl import read_jsonl


def register(sub) -> None:
    p = sub.add_parser("explain", help="explain the verdicts of one response")
    p.add_argument("request_id", help="the request whose verdict to explain")
    p.add_argument("-i", "--input", required=True, dest="verdicts", metavar="FILE",
                   help="verdicts JSONL written by `groundwatch score`; `-` for stdin")
    deprecated(p, "--verdicts", "--input", "verdicts")
    p.add_argument("--app", help="the app whose verdict to explain, when several apps reuse the request id "
                                 "(default: every app's, one after the other)")
    p.set_defaults(func=run)


def use_color(stream, environ=os.environ) -> bool:
    """ANSI highlighting only on a terminal, and never when NO_COLOR is set (https://no-color.org)."""
    return bool(getattr(stream, "isatty", lambda: False)()) and not environ.get("NO_COLOR")


def run(args) -> int:
    found: dict[tuple[str, str], dict] = {}  # (app, tenant) -> its first record in the file
    try:
        for _, record in read_jsonl(input_path(args.verdicts)):
            if isinstance(record, dict) and record.get("request_id") == args.request_id and \
                    (args.app is None or app_of(record) == args.app):
                found.setdefault((app_of(record), tenant_of(record)), record)
    except (OSError, ValueError) as exc:  # ValueError: a line that is not JSON
        return fail(str(exc))
    if not found:
        within = f" of app {args.app!r}" if args.app is not None else ""
        return fail(f"request_id {args.request_id!r}{within} not found in {args.verdicts}")
    color = use_color(sys.stdout)
    if len(found) == 1:
        print(render(next(iter(found.values())), color=color))
        return 0
    print(shared_head(args.request_id, found))
    for owner, record in found.items():
        print(f"\n{owner_line(owner)}\n{render(record, color=color)}")
    return 0
