"""Helpers shared by subcommands: settings, scorer construction, JSONL input."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Iterator

from groundwatch.commands.conventions import deprecated, start_logging
from groundwatch.config.settings import Settings, load_settings
from groundwatch.scorers.errors import InvalidResponse
from groundwatch.scorers.jsonl import JsonlError, read_jsonl
from groundwatch.scorers.schema import Response, parse_response


CONFIG_HELP = "JSON settings file (GROUNDWATCH_* environment variables override it; default: none)"


def add_config_arg(parser) -> None:
    parser.add_argument("--config", metavar="FILE", help=CONFIG_HELP)


def add_settings_args(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("settings and model")
    add_config_arg(group)
    group.add_argument("--model", metavar="DIR", help="NLI model directory (default: scorer.model_dir, else the "
                                                      "shipped model)")
    group.add_argument("--backend", choices=["onnx", "torch"],
                       help="NLI backend: onnx for an exported model.onnx, torch for a Hugging Face checkpoint "
                            "or compact copy, without --model the shipped model's (needs groundwatch[export]; "
                            "bf16 on a CPU with AMX, the fastest there) (default: scorer.backend, onnx)")


def positive_int(text: str) -> int:
    """An argparse type: sizes and counts that must be at least 1 (`--batch-size 0` would never finish)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def settings_from(args: argparse.Namespace) -> Settings:
    """The settings (raises SettingsError, one line) with the command line's overrides; logging follows them."""
    settings = load_settings(getattr(args, "config", None))
    if not getattr(args, "_logging_from_settings", False):
        start_logging(args, settings.log_format, settings.log_level)
        args._logging_from_settings = True
    updates = {}
    if getattr(args, "model", None):
        updates["model_dir"] = args.model
    if getattr(args, "backend", None):
        updates["backend"] = args.backend
    if updates:
        settings = settings.model_copy(update={"scorer": settings.scorer.model_copy(update=updates)})
    return settings


def add_verdict_source(parser: argparse.ArgumentParser):
    """Where stored verdicts come from (a file, or OpenSearch) and the time/app window; returns the
    "which verdicts" group so a command can add its own filters to it."""
    source = parser.add_argument_group("verdicts (a file, or OpenSearch from the settings by default)")
    source.add_argument("-i", "--input", metavar="FILE", dest="verdicts",
                        help="verdicts JSONL written by `groundwatch score`, `-` for stdin (default: OpenSearch)")
    deprecated(source, "--verdicts", "--input", "verdicts")
    add_config_arg(source)
    add_opensearch_args(source)
    scope = parser.add_argument_group("which verdicts")
    scope.add_argument("--since", help="ISO time, inclusive (a time without zone is UTC; default: no limit)")
    scope.add_argument("--until", help="ISO time, exclusive (default: no limit)")
    scope.add_argument("--app", help="only responses whose metadata.app is this (default: every app)")
    return scope


def add_opensearch_args(parser) -> None:
    parser.add_argument("--opensearch-url", metavar="URL", help="OpenSearch server (default: opensearch.url from "
                                                                "the settings)")
    parser.add_argument("--alias", help="verdict index alias (default: opensearch.alias from the settings)")


def opensearch_settings(args):
    """The settings' opensearch section with --opensearch-url / --alias applied."""
    section = settings_from(args).opensearch
    updates = {k: v for k, v in (("url", getattr(args, "opensearch_url", None)),
                                 ("alias", getattr(args, "alias", None))) if v}
    return section.model_copy(update=updates)


def build_scorer(settings: Settings, **kwargs):
    """The Python API's scorer (groundwatch.api.build_scorer), after checking the model directory.
    Off the torch backend, torch stays out of the process: spaCy would import it, for no use here."""
    from groundwatch.scorers.english.lemmas import import_spacy_without_torch
    from groundwatch.scorers.nli.factory import check_model_dir

    check_model_dir(settings.scorer.model_dir, settings.scorer.backend)  # before the pipeline's imports
    if settings.scorer.backend != "torch":
        import_spacy_without_torch()
    from groundwatch.api import build_scorer as api_build_scorer

    return api_build_scorer(settings, **kwargs)


def read_responses(path: str | Path, settings: Settings | None = None
                   ) -> Iterator[tuple[int, Response | InvalidResponse, dict | None]]:
    """(line number, Response or the error naming the field, raw record) for each non-blank line."""
    limits = settings.scorer if settings else None
    for number, raw in read_jsonl(path, errors="yield"):  # one broken line must not hide the others
        if isinstance(raw, JsonlError):
            yield number, InvalidResponse(f"not JSON: {raw.msg} at column {raw.colno}", "<record>"), None
            continue
        try:
            kwargs = {"max_passages": limits.max_passages, "max_bytes": limits.max_record_bytes} if limits else {}
            yield number, parse_response(raw, **kwargs), raw
        except InvalidResponse as exc:
            yield number, exc, raw if isinstance(raw, dict) else None


def fail(message: str) -> int:
    print(f"groundwatch: error: {message}", file=sys.stderr)
    return 2
