"""groundwatch explain: why a response got its verdicts, for a person to read."""

from __future__ import annotations

from groundwatch.commands.common import fail
from reports.explain import render
from scorers.jsonl import read_jsonl


def register(sub) -> None:
    p = sub.add_parser("explain", help="explain the verdicts of one response")
    p.add_argument("request_id")
    p.add_argument("--verdicts", required=True, help="verdicts JSONL written by `groundwatch score`")
    p.set_defaults(func=run)


def run(args) -> int:
    for _, record in read_jsonl(args.verdicts):
        if record.get("request_id") == args.request_id:
            print(render(record))
            return 0
    return fail(f"request_id {args.request_id!r} not found in {args.verdicts}")
