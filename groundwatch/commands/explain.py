"""groundwatch explain: why a response got its verdicts, for a person to read."""

from __future__ import annotations

import os
import sys

from groundwatch.commands.common import fail
from groundwatch.reports.explain import render
from groundwatch.scorers.jsonl import read_jsonl


def register(sub) -> None:
    p = sub.add_parser("explain", help="explain the verdicts of one response")
    p.add_argument("request_id")
    p.add_argument("--verdicts", required=True, help="verdicts JSONL written by `groundwatch score`")
    p.set_defaults(func=run)


def use_color(stream, environ=os.environ) -> bool:
    """ANSI highlighting only on a terminal, and never when NO_COLOR is set (https://no-color.org)."""
    return bool(getattr(stream, "isatty", lambda: False)()) and not environ.get("NO_COLOR")


def run(args) -> int:
    try:
        for _, record in read_jsonl(args.verdicts):
            if isinstance(record, dict) and record.get("request_id") == args.request_id:
                print(render(record, color=use_color(sys.stdout)))
                return 0
    except (OSError, ValueError) as exc:  # ValueError: a line that is not JSON
        return fail(str(exc))
    return fail(f"request_id {args.request_id!r} not found in {args.verdicts}")
