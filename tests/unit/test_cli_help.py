"""The command line's face: every option of every command has a help text and shows its default, help
names no repository path, one spelling per concept, --version, and old spellings still parse."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys

import pytest

from groundwatch.cli import GROUPS, build_parser, main
from groundwatch.commands.conventions import DeprecatedAlias, JsonOption

REPOSITORY_PATH = re.compile(r"docs/|\.\./|shared/data/|examples/|scorers/models|build/")


def _commands(parser: argparse.ArgumentParser, prefix: str = "") -> dict[str, argparse.ArgumentParser]:
    out = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                out[f"{prefix}{name}"] = sub
                out.update(_commands(sub, f"{prefix}{name} "))
    return out


COMMANDS = _commands(build_parser())
LEAVES = {name: p for name, p in COMMANDS.items()
          if not any(isinstance(a, argparse._SubParsersAction) for a in p._actions)}


def test_every_command_is_listed_under_one_task():
    listed = [name for names in GROUPS.values() for name in names]
    assert sorted(listed) == sorted(n for n in COMMANDS if " " not in n) and len(listed) == len(set(listed))


@pytest.mark.parametrize("name", sorted(LEAVES))
def test_every_option_has_a_help_text_and_no_repository_path(name):
    parser = LEAVES[name]
    missing = [a.dest for a in parser._actions
               if not isinstance(a, DeprecatedAlias) and (not a.help or not a.help.strip())]
    assert missing == [], f"groundwatch {name}: no help for {missing}"
    text = parser.format_help()
    assert not REPOSITORY_PATH.search(text), f"groundwatch {name} --help names a repository path"


@pytest.mark.parametrize("name", sorted(LEAVES))
def test_every_default_is_shown(name):
    """An option with a default value says what it is (argparse would print nothing)."""
    parser = LEAVES[name]
    formatter = parser._get_formatter()
    for action in parser._actions:
        if not action.option_strings or action.help == argparse.SUPPRESS:
            continue
        if action.default in (None, False, True, argparse.SUPPRESS) or isinstance(action, JsonOption):
            continue
        rendered = formatter._expand_help(action)
        assert "default" in rendered.lower(), f"groundwatch {name} {action.option_strings[-1]}: {rendered!r}"


def _option_names(parser) -> set[str]:
    return {s for a in parser._actions if not isinstance(a, DeprecatedAlias) for s in a.option_strings}


def test_one_spelling_per_concept():
    old = {"--out", "--json-out", "--responses", "--verdicts", "--set", "--opensearch", "--batch"}
    for name, parser in LEAVES.items():
        names = _option_names(parser)
        assert not names & old, f"groundwatch {name} still shows {names & old}"
        for short, long in (("-i", "--input"), ("-o", "--output")):
            if long in names:
                assert short in names, f"groundwatch {name}: {long} without {short}"
    # --model is the NLI model wherever it appears; report's generator filter is --generator.
    assert "--generator" in _option_names(LEAVES["report"]) and "--model" not in _option_names(LEAVES["report"])


@pytest.mark.parametrize("argv, dest, value", [
    (["score", "--input", "a", "--output", "b", "--batch", "4"], "batch_size", 4),
    (["eval", "--input", "a", "--batch", "4"], "batch_size", 4),
    (["explain", "r1", "--verdicts", "v.jsonl"], "verdicts", "v.jsonl"),
    (["report", "--verdicts", "v.jsonl", "--model", "gpt"], "model_filter", "gpt"),
    (["report", "--verdicts", "v.jsonl", "--json", "r.json"], "output", "r.json"),
    (["label", "export", "--verdicts", "v.jsonl", "--out", "r.jsonl"], "out", "r.jsonl"),
    (["label", "import", "x.jsonl", "--out", "r.jsonl"], "out", "r.jsonl"),
    (["convert", "--set", "begin", "--output", "b"], "set_name", "begin"),
    (["recall-probe", "--set", "p.jsonl", "--retriever", "http"], "probe_set", "p.jsonl"),
    (["bench", "--responses", "r.jsonl", "--json", "b.json"], "output", "b.json"),
    (["bench-stream", "--opensearch", "http://x", "--json-out", "f.json"], "output", "f.json"),
])
def test_old_spellings_still_work_with_a_note(argv, dest, value, capsys):
    args = build_parser().parse_args(argv)
    assert str(getattr(args, dest)) == str(value)
    assert "deprecated" in capsys.readouterr().err


def test_json_alone_asks_for_machine_output():
    args = build_parser().parse_args(["report", "-i", "v.jsonl", "--json"])
    assert args.json is True and args.output is None


def test_version_and_grouped_help(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0 and re.match(r"groundwatch \d+\.\d+", capsys.readouterr().out)
    help_text = build_parser().format_help()
    positions = [help_text.index(f"\n{title}:\n") for title in GROUPS]
    assert positions == sorted(positions)


def test_quiet_and_verbose_go_before_or_after_the_command():
    parser = build_parser()
    assert parser.parse_args(["-v", "score", "-i", "a", "-o", "b"]).verbose
    assert parser.parse_args(["score", "-i", "a", "-o", "b", "-q"]).quiet
    assert not parser.parse_args(["score", "-i", "a", "-o", "b"]).verbose


def test_installed_entry_point_prints_the_version():
    done = subprocess.run([sys.executable, "-m", "groundwatch.cli", "--version"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("groundwatch ")
