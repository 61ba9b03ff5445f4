"""What every command shares on the command line: -q/-v, defaults in the help, `-` for stdout/stdin,
old option spellings that still work for one release, and where the logs go (always stderr)."""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
from pathlib import Path
from typing import IO, Iterator

from groundwatch.scorers.files import output_path

STDIO = "-"


class Parser(argparse.ArgumentParser):
    """A usage error is one line, `groundwatch: error: ...`, exit 2, like every other error."""

    def parse_known_args(self, args=None, namespace=None):
        namespace, extras = super().parse_known_args(args, namespace)
        # An option that also has a deprecated spelling cannot be argparse-required (argparse would not
        # count the old spelling); it is checked here instead.
        missing = [a.option_strings[-1] for a in self._actions
                   if getattr(a, "required_with_alias", False) and getattr(namespace, a.dest, None) is None]
        if missing:
            self.error(f"the following arguments are required: {', '.join(missing)}")
        return namespace, extras

    def format_usage(self) -> str:
        with self._required_shown():
            return super().format_usage()

    def format_help(self) -> str:
        with self._required_shown():
            return super().format_help()

    @contextlib.contextmanager
    def _required_shown(self):
        """An option checked as required above shows as required in the usage line (no [brackets])."""
        aliased = [a for a in self._actions if getattr(a, "required_with_alias", False)]
        for action in aliased:
            action.required = True
        try:
            yield
        finally:
            for action in aliased:
                action.required = False

    def error(self, message: str):
        command = self.prog.removeprefix("groundwatch").strip()
        hint = f" (see `{self.prog} --help`)"
        self.exit(2, f"groundwatch: error: {command + ': ' if command else ''}{message}{hint}\n")


class HelpFormatter(argparse.HelpFormatter):
    """Shows each option's default unless its help already says it, or there is none to show."""

    def _format_args(self, action: argparse.Action, default_metavar: str) -> str:
        return "" if isinstance(action, JsonOption) else super()._format_args(action, default_metavar)

    def _format_action_invocation(self, action: argparse.Action) -> str:
        return "--json" if isinstance(action, JsonOption) else super()._format_action_invocation(action)

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        default = action.default
        if ("default" in text.lower() or any(default is x for x in (None, False, True, argparse.SUPPRESS))
                or not action.option_strings or default == []):
            return text
        return f"{text} (default: %(default)s)"


class DeprecatedAlias(argparse.Action):
    """An old spelling (`--out`): works for one release, with a note on stderr naming the new one."""

    def __init__(self, option_strings, dest, new: str, **kwargs):
        self.new = new
        super().__init__(option_strings, dest, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"groundwatch: warning: {option_string} is deprecated and goes in the next release; use {self.new}",
              file=sys.stderr)
        setattr(namespace, self.dest, True if self.nargs == 0 else values)


class JsonOption(argparse.Action):
    """`--json`: machine output on stdout. `--json FILE`, the old spelling of `--output FILE`, still works
    for one release with a note."""

    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs="?", const=True, default=False, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        if values is True:
            setattr(namespace, self.dest, True)
            return
        print(f"groundwatch: warning: {option_string} FILE is deprecated and goes in the next release; use "
              f"--output FILE (--json alone prints JSON on stdout)", file=sys.stderr)
        setattr(namespace, "output", values)


def add_json_arg(parser, what: str = "the result") -> None:
    parser.add_argument("--json", action=JsonOption, help=f"print {what} as JSON on stdout instead of the table")


def deprecated(parser, old: str, new: str, dest: str, **kwargs) -> None:
    """Accept `old` as a hidden alias of the option `new` (stored in `dest`)."""
    for action in parser._actions:
        if new in action.option_strings and action.required:
            action.required, action.required_with_alias = False, True
            action.help = f"{action.help} (required)"
    parser.add_argument(old, dest=dest, action=DeprecatedAlias, new=new, help=argparse.SUPPRESS,
                        default=argparse.SUPPRESS, **kwargs)


def add_global_args(parser: argparse.ArgumentParser, default=None) -> None:
    """-q/-v before or after the command; a subcommand's copy must not reset what the main parser read."""
    level = parser.add_mutually_exclusive_group()
    level.add_argument("-q", "--quiet", action="store_true", default=default if default is not None else False,
                       help="warnings and errors only on stderr, no progress bars")
    level.add_argument("-v", "--verbose", action="store_true", default=default if default is not None else False,
                       help="debug logs on stderr")


def finish(sub) -> None:
    """Every command (and sub-subcommand) gets the shared help formatter and -q/-v."""
    for parser in dict.fromkeys(sub.choices.values()):
        parser.formatter_class = HelpFormatter
        add_global_args(parser, argparse.SUPPRESS)
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                finish(action)


LEVELS = ("debug", "info", "warning", "error", "critical")
# One-off commands say only what goes wrong; the services (consume, serve) log their progress as well.
COMMAND_LEVEL, SERVICE_LEVEL = "warning", "info"


def log_level(args: argparse.Namespace, configured: str | None = None) -> str:
    """--verbose / --quiet, else the settings' (or GROUNDWATCH_LOG_LEVEL's) level, else the command's default.

    An unknown level is a SettingsError (one line), not a silent fallback."""
    if getattr(args, "verbose", False):
        return "debug"
    if getattr(args, "quiet", False):
        return "warning"
    level = (configured or os.environ.get("GROUNDWATCH_LOG_LEVEL") or "").lower()
    if level and level not in LEVELS:
        from groundwatch.config.settings_check import SettingsError

        raise SettingsError(f"GROUNDWATCH_LOG_LEVEL: unknown log level {level!r} (one of {', '.join(LEVELS)})")
    return level or getattr(args, "default_log_level", COMMAND_LEVEL)


def start_logging(args: argparse.Namespace, fmt: str | None = None, level: str | None = None) -> None:
    """Logs to stderr in every command: stdout carries only the command's result."""
    from groundwatch.config.logs import CurrentStderr, configure

    level = log_level(args, level)
    configure(fmt or os.environ.get("GROUNDWATCH_LOG_FORMAT") or "auto", level)
    # Libraries that log through the standard library (opensearch-py, onnxruntime, ...) to stderr as well;
    # their info lines are noise for a user, so they show from warning up unless --verbose.
    library = logging.DEBUG if level == "debug" else max(logging.WARNING, getattr(logging, level.upper(), 0))
    logging.basicConfig(handlers=[logging.StreamHandler(CurrentStderr())], level=library, force=True)


@contextlib.contextmanager
def output_stream(path: str | Path) -> Iterator[IO[str]]:
    """A text file to write, or stdout for `-`."""
    if str(path) == STDIO:
        yield sys.stdout
        sys.stdout.flush()
        return
    with open(output_path(path), "w", encoding="utf-8") as handle:
        yield handle


def empty_input(path: str | Path, what: str = "records", option: str = "--input") -> int:
    """An input with nothing in it: a warning and exit 1, never an all-zero result that looks like success."""
    print(f"groundwatch: warning: {option} {path} holds no {what}; nothing done", file=sys.stderr)
    return 1


def to_stdout(path: str | Path | None) -> bool:
    return path is not None and str(path) == STDIO


def input_path(path: str | Path) -> str | Path:
    """`-` reads stdin."""
    return "/dev/stdin" if str(path) == STDIO else path
