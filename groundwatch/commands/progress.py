"""The one progress option: every command that runs for more than a few seconds shows a bar on stderr.

stdout carries the command's result (tables, summaries), so progress never mixes with it;
`--no-progress` turns the bars off the same way in every command.
"""

from __future__ import annotations

import argparse


def add_progress_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--no-progress", action="store_true", help="no progress bars on stderr")


def progress_on(args: argparse.Namespace) -> bool:
    return not (getattr(args, "no_progress", False) or getattr(args, "quiet", False))


def progress_bar(args: argparse.Namespace, iterable=None, **kwargs):
    """A tqdm bar on stderr, off with --no-progress."""
    import sys

    from tqdm import tqdm

    return tqdm(iterable, file=sys.stderr, disable=not progress_on(args), **kwargs)
