"""Converters from the groundedness dev sets to labelled JSONL (traffic schema + label).

Each converter reads the original files under a data directory and yields
records; `--limit` samples deterministically with `--seed`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterator

from groundwatch.evaluation.converters import begin, halueval, qags, wice

Converter = Callable[[Path, "int | None", int], Iterator[dict]]

CONVERTERS: dict[str, Converter] = {
    "wice": wice.convert_claims,
    "wice-oracle": wice.convert_oracle,
    "begin": begin.convert,
    "halueval": halueval.convert,
    "qags": qags.convert,
}


def repo_data_dir() -> Path:
    """../shared/data/groundedness-dev beside the repository (where CI's clean clone finds it too)."""
    return Path(__file__).resolve().parents[2].parent / "shared" / "data" / "groundedness-dev"


def convert(name: str, data_dir: Path, limit: int | None = None, seed: int = 0) -> Iterator[dict]:
    if name not in CONVERTERS:
        raise ValueError(f"unknown set {name!r}: expected one of {sorted(CONVERTERS)}")
    if not data_dir.is_dir():
        raise FileNotFoundError(f"data directory {data_dir} not found (set --data-dir or GROUNDWATCH_DATA_DIR)")
    return CONVERTERS[name](data_dir, limit, seed)
