"""structlog set-up: JSON in production, console when interactive.

Never log answer, question or passage text: log ids, counts and timings. Credentials in URLs
are masked in every event (config/secrets.py).
"""

from __future__ import annotations

import logging
import sys

import structlog

from groundwatch.config.library_logs import guard_library_logs
from groundwatch.config.secrets import mask_event


class CurrentStderr:
    """Whatever sys.stderr is when a line is written, not when logging was set up: a stream swapped out
    later (a test's capture, a daemon's redirect) must not leave the logger writing to a closed file."""

    def write(self, text: str) -> int:
        return sys.stderr.write(text)

    def flush(self) -> None:
        sys.stderr.flush()


def configure(fmt: str = "auto", level: str | None = None) -> None:
    """`level` None: warning, what a library should say in someone else's program (groundwatch.Checker)."""
    level = level or "warning"
    if fmt == "auto":
        fmt = "console" if sys.stderr.isatty() else "json"
    renderer = structlog.processors.JSONRenderer() if fmt == "json" else structlog.dev.ConsoleRenderer()
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            mask_event,  # after format_exc_info: a traceback's text is masked too
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(getattr(logging, level.upper(), logging.WARNING)),
        # One write per line, newline included: print() writes the newline separately, and a library's
        # warning from another thread landed between the two, gluing itself to the JSON line.
        logger_factory=structlog.WriteLoggerFactory(file=CurrentStderr()),
        cache_logger_on_first_use=False,
    )
    guard_library_logs(level)  # opensearch-py & co.: no request bodies, no URL credentials


def get_logger(name: str):
    return structlog.get_logger(name)
