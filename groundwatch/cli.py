"""The `groundwatch` command: one entry point, one module per subcommand."""

from __future__ import annotations

import argparse
import importlib
import os
import sys

# Each module defines register(subparsers); its parser sets `func(args) -> int`.
COMMANDS = [
    "groundwatch.commands.score",
    "groundwatch.commands.explain",
    "groundwatch.commands.export_model",
    "groundwatch.commands.convert",
    "groundwatch.commands.evaluate",
    "groundwatch.commands.probes",
    "groundwatch.commands.bench",
    "groundwatch.commands.trace",
    "groundwatch.commands.init_store",
    "groundwatch.commands.forget",
    "groundwatch.commands.recall_probe",
    "groundwatch.commands.report",
    "groundwatch.commands.label",
    "groundwatch.commands.consume",
    "groundwatch.commands.serve",
    "groundwatch.commands.produce",
    "groundwatch.commands.bench_stream",
    "groundwatch.commands.audit_corpus",
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="groundwatch", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    for name in COMMANDS:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args) or 0
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (`groundwatch audit-corpus ... | head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit's flush
        return 141  # 128 + SIGPIPE, what a shell reports for a pipe closed early


if __name__ == "__main__":
    sys.exit(main())
