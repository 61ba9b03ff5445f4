"""One span as the assembler needs it, whatever the encoding it came in."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class SpanRecord:
    trace_id: str                # 32 lowercase hex digits
    span_id: str                 # 16 lowercase hex digits
    parent_id: str | None        # None for a root span
    name: str
    start_ns: int
    end_ns: int
    attributes: dict[str, Any] = field(default_factory=dict)  # attribute values as plain Python values
    service: str | None = None   # the resource's service.name

    @property
    def root(self) -> bool:
        return self.parent_id is None
