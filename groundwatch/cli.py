"""The `groundwatch` command: one entry point, one module per subcommand."""

from __future__ import annotations

import argparse
import importlib
import sys

# Each module defines register(subparsers); its parser sets `func(args) -> int`.
COMMANDS = [
    "groundwatch.commands.score",
    "groundwatch.commands.explain",
    "groundwatch.commands.export_model",
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


if __name__ == "__main__":
    sys.exit(main())
