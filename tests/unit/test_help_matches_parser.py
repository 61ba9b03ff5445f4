"""Every command's --help agrees with its parser: an option the command requires (argparse-required, or
checked as required because an old spelling also sets it) shows without [brackets] in the usage line,
and an option whose help says "(required)" is required."""

from __future__ import annotations

import argparse
import re

from groundwatch.cli import build_parser


def _parsers(parser: argparse.ArgumentParser):
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):
                yield from _parsers(sub)


def _required(action: argparse.Action) -> bool:
    return action.required or getattr(action, "required_with_alias", False)


def test_required_options_show_as_required_and_only_they_say_so():
    checked = 0
    for parser in _parsers(build_parser()):
        usage = " ".join(parser.format_usage().split())
        optional_parts = " ".join(re.findall(r"\[[^\]]*\]", usage))
        for action in parser._actions:
            if not action.option_strings or action.help == argparse.SUPPRESS:
                continue
            says_required = "(required)" in (action.help or "")
            assert says_required <= _required(action), f"{parser.prog} {action.option_strings}: help says required"
            if _required(action):
                checked += 1
                shown = [o for o in action.option_strings if re.search(rf"(?<![\w-]){re.escape(o)}(?![\w-])", usage)]
                assert shown, f"{parser.prog}: {action.option_strings} missing from the usage line"
                assert not any(o in optional_parts.split() or f"[{o}" in optional_parts for o in shown), \
                    f"{parser.prog}: required {shown[0]} shown as optional in {usage!r}"
    assert checked >= 5  # explain -i, score -i/-o, produce -i, ...
