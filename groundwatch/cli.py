"""The `groundwatch` command: one entry point, one module per subcommand."""

from __future__ import annotations

import argparse
import importlib
import os
import sys

# Each module defines register(subparsers); its parser sets `func(args) -> int`. Listed by task, as the
# help shows them.
GROUPS = {
    "check": ["score", "explain", "report", "trace"],
    "stream and serve": ["consume", "serve", "produce"],
    "operate": ["init-store", "forget", "label", "audit-corpus"],
    "measure": ["eval", "convert", "probes", "bench", "bench-stream", "recall-probe"],
    "model": ["export-model"],
}
DESCRIPTION = ("Checks that the answers of a RAG service are supported by the passages it retrieved, "
               "claim by claim: on files, on a Kafka stream, or inline over HTTP.")
MODULES = {"eval": "evaluate"}  # else the command's name with _ for -
COMMANDS = [f"groundwatch.commands.{MODULES.get(name, name.replace('-', '_'))}"
            for names in GROUPS.values() for name in names]


def _version() -> str:
    """The package version and the code part of the scorer version that verdict records carry."""
    from groundwatch import __version__
    from groundwatch.scorers import SCORER_VERSION

    return f"groundwatch {__version__} (verdicts: scorer {SCORER_VERSION})"


def _grouped(sub) -> str:
    """The commands under their task headings (argparse lists subcommands in one flat block)."""
    helps = {a.dest: a.help for a in sub._choices_actions}
    width = max(map(len, helps)) + 2
    blocks = []
    for title, names in GROUPS.items():
        rows = [f"  {name:<{width}}{helps[name]}" for name in names]
        blocks.append(f"{title}:\n" + "\n".join(rows))
    return "\n\n".join(blocks) + "\n\nRun `groundwatch COMMAND --help` for a command's options."


def build_parser() -> argparse.ArgumentParser:
    from groundwatch.commands.conventions import Parser, add_global_args, finish

    parser = Parser(prog="groundwatch", description=DESCRIPTION,
                                     usage="groundwatch [-h] [--version] [-q | -v] COMMAND ...",
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=_version(),
                        help="print the version and exit")
    add_global_args(parser)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", help=argparse.SUPPRESS,
                                prog="groundwatch", parser_class=Parser)
    for name in COMMANDS:
        importlib.import_module(name).register(sub)
    parser.epilog = _grouped(sub)
    sub._choices_actions.clear()  # listed by task in the epilog instead
    finish(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    from groundwatch.commands.common import fail
    from groundwatch.commands.conventions import start_logging
    from groundwatch.config.settings_check import SettingsError

    args = build_parser().parse_args(argv)
    try:
        start_logging(args)  # GROUNDWATCH_LOG_LEVEL=loud is a one-line error here
        return args.func(args) or 0
    except SettingsError as exc:
        return fail(str(exc))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (`groundwatch audit-corpus ... | head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit's flush
        return 141  # 128 + SIGPIPE, what a shell reports for a pipe closed early


if __name__ == "__main__":
    sys.exit(main())
