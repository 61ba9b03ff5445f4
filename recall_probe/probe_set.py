"""The frozen labelled evidence set the recall probe replays.

JSONL, one probe a line: {"query": str, "gold_passage_ids": [str, ...]} and optionally
"query_vector": [float, ...] (used for k-NN instead of embedding the query).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from groundwatch.scorers.jsonl import JsonlError, read_jsonl


class ProbeSetError(ValueError):
    pass


@dataclass(frozen=True)
class Probe:
    line: int
    query: str
    gold_ids: tuple[str, ...]
    vector: tuple[float, ...] | None = None


def _probe(line: int, raw) -> Probe:
    if not isinstance(raw, dict):
        raise ProbeSetError(f"line {line}: expected a JSON object")
    query, gold, vector = raw.get("query"), raw.get("gold_passage_ids"), raw.get("query_vector")
    if not isinstance(query, str) or not query.strip():
        raise ProbeSetError(f"line {line}: 'query' must be a non-empty string")
    if not isinstance(gold, list) or not gold or not all(isinstance(g, str) for g in gold):
        raise ProbeSetError(f"line {line}: 'gold_passage_ids' must be a non-empty list of strings")
    if vector is not None and (not isinstance(vector, list) or not all(isinstance(x, (int, float)) for x in vector)):
        raise ProbeSetError(f"line {line}: 'query_vector' must be a list of numbers")
    return Probe(line, query, tuple(gold), tuple(float(x) for x in vector) if vector is not None else None)


def load_probes(path: str | Path) -> list[Probe]:
    try:
        probes = [_probe(line, raw) for line, raw in read_jsonl(path)]
    except JsonlError as exc:
        raise ProbeSetError(f"line {exc.line}: not JSON: {exc.msg}") from None
    if not probes:
        raise ProbeSetError(f"{path}: no probes")
    return probes
