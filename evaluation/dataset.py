"""Labelled JSONL in, validated responses with their gold labels out."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from groundwatch.evaluation.labels import THREE_WAY, is_unsupported
from groundwatch.scorers.errors import InvalidResponse
from groundwatch.scorers.jsonl import read_jsonl
from groundwatch.scorers.schema import Response, parse_response

HALVES = ("calibration", "report")


@dataclass
class Labelled:
    response: Response
    unsupported: bool            # the positive class
    label_3way: str | None = None
    set_name: str = "unknown"
    hints: list[str] = field(default_factory=list)
    probe: str | None = None     # probe family, for probe files
    source: str | None = None    # the request_id a probe was made from

    @property
    def request_id(self) -> str:
        return self.response.request_id


def half_of(request_id: str) -> str:
    """A stable half by hash of the id: calibrate on one half, report on the other."""
    return HALVES[hashlib.sha1(request_id.encode("utf-8")).digest()[0] % 2]


def read_labelled(path: str | Path, limit: int | None = None, half: str | None = None) -> list[Labelled]:
    """Records in file order; `limit` keeps the first N (after the half is applied)."""
    out: list[Labelled] = []
    for number, raw in read_jsonl(path):
        if "label" not in raw:
            raise InvalidResponse(f"line {number}: no `label` field; not a labelled file", "label")
        try:
            response = parse_response(raw)
            unsupported = is_unsupported(raw["label"])
        except (InvalidResponse, ValueError) as exc:
            raise InvalidResponse(f"line {number}: {exc}", "label") from None
        if half and half_of(response.request_id) != half:
            continue
        three = raw.get("label_3way")
        out.append(Labelled(response, unsupported, three if three in THREE_WAY else None,
                            raw.get("set", "unknown"), list(raw.get("stratum") or []), raw.get("probe"),
                            raw.get("source_request_id")))
        if limit is not None and len(out) >= limit:
            break
    return out
