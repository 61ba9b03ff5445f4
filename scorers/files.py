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
