"""Helpers shared by subcommands: settings, scorer construction, JSONL input."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Iterator

from groundwatch.config.settings import Settings, load_settings
from groundwatch.scorers.errors import InvalidResponse
from groundwatch.scorers.jsonl import JsonlError, read_jsonl
from groundwatch.scorers.schema import Response, parse_response


def add_settings_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", help="JSON settings file (GROUNDWATCH_* environment variables override it)")
    parser.add_argument("--model", help="NLI model directory (default: the shipped model)")
    parser.add_argument("--backend", choices=["onnx", "torch"], help="NLI backend")


def settings_from(args: argparse.Namespace) -> Settings:
    settings = load_settings(getattr(args, "config", None))
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
    source.add_argument("--verdicts", help="verdicts JSONL written by `groundwatch score`")
    source.add_argument("--config", help="JSON settings file (GROUNDWATCH_* environment variables override it)")
    source.add_argument("--opensearch-url", help="default: opensearch.url from the settings")
    source.add_argument("--alias", help="default: opensearch.alias from the settings")
    scope = parser.add_argument_group("which verdicts")
    scope.add_argument("--since", help="ISO time, inclusive (a time without zone is UTC)")
    scope.add_argument("--until", help="ISO time, exclusive")
    scope.add_argument("--app")
    return scope


def opensearch_settings(args):
    """The settings' opensearch section with --opensearch-url / --alias applied."""
    section = settings_from(args).opensearch
    updates = {k: v for k, v in (("url", getattr(args, "opensearch_url", None)),
                                 ("alias", getattr(args, "alias", None))) if v}
    return section.model_copy(update=updates)


def build_scorer(settings: Settings, **kwargs):
    from groundwatch.scorers.pipeline import Scorer
    from groundwatch.scorers.policy import ActionPolicy

    if settings.policy.enabled:
        kwargs.setdefault("policy", ActionPolicy(settings.policy))
    if settings.corpus.enabled:  # per-claim lookups in the knowledge base (off by default)
        from groundwatch.recall_probe.corpus import build_corpus

        kwargs.setdefault("corpus", build_corpus(settings.opensearch, settings.corpus))
        kwargs.setdefault("corpus_settings", settings.corpus)
    return Scorer.from_config(settings.scorer, **kwargs)


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
