"""Output files: whatever a command writes, it first creates the folder for.

`make demo` on a fresh clone writes build/verdicts.jsonl before build/ exists;
every writer goes through output_path so no command depends on a folder made by hand.
"""

from __future__ import annotations

from pathlib import Path


def output_path(path: str | Path) -> Path:
    """`path` as a Path whose parent folder exists (created with its parents when missing)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    return target


def shown_path(path: str | Path, root: str | Path | None = None) -> str:
    """`path` relative to `root` (default: the working directory) where it lies under it, else as given: a
    kept result names no machine's folders."""
    try:
        return str(Path(path).resolve().relative_to(Path(root or Path.cwd()).resolve()))
    except (TypeError, ValueError):
        return str(path)
