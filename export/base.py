"""The contract every verdict sink keeps, and the exceptions it may raise.

A sink's `write` returns only once every verdict it was given is durably
stored (or handed on); otherwise it raises, and the consumer retries the same
batch without committing. Writes must be idempotent: a retry rewrites by id.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, Sequence

from scorers.records import ResponseVerdict


@dataclass(frozen=True)
class ItemFailure:
    """One document a sink refused, as the sink reported it (no document text)."""

    doc_id: str
    status: int
    error_type: str
    reason: str

    @property
    def retryable(self) -> bool:
        # 429 (too many requests) and 5xx pass; other 4xx (mapping, parsing) repeat forever.
        return self.status == 429 or self.status >= 500


class SinkError(RuntimeError):
    """A sink did not store every document; `failures` lists refused ones, if known.

    `reason` is a short fixed word for the failure metric's label.
    """

    def __init__(self, sink: str, message: str, reason: str = "error",
                 failures: Sequence[ItemFailure] = ()):
        super().__init__(f"{sink}: {message}")
        self.sink = sink
        self.reason = reason
        self.failures = list(failures)

    @property
    def permanent(self) -> bool:
        """True when every refused document would be refused again (retrying cannot help)."""
        return bool(self.failures) and not any(f.retryable for f in self.failures)


class SinkUnavailable(SinkError):
    """The sink could not be reached or answered with a transient error; retry later."""

    def __init__(self, sink: str, message: str, reason: str = "unavailable"):
        super().__init__(sink, message, reason)


class Sink(Protocol):
    name: str

    def write(self, verdicts: Sequence[ResponseVerdict]) -> None:
        """Store every verdict or raise SinkError; safe to call again with the same verdicts."""

    def close(self) -> None:
        ...
