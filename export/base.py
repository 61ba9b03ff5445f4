"""The contract every verdict sink keeps, and the exceptions it may raise.

A sink's `write` returns only once every verdict it was given is durably
stored (or handed on); otherwise it raises, and the consumer retries the same
batch without committing. Writes must be idempotent: a retry rewrites by id.

Errors are permanent or transient. Permanent: this document (or record) will
be refused whatever happens (too large, mapping rejected, another 4xx for that
document); the consumer dead-letters its message with the reason and moves on.
Transient: everything else (unreachable, timeouts, 429, 5xx, auth, a blocked
index); the consumer pauses and retries the batch.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol, Sequence

from groundwatch.scorers.records import ResponseVerdict


# Statuses that mean "this document will never be accepted": bad request (mapping, parsing),
# payload too large, unprocessable. Other 4xx (401/403 auth or a read-only index, 404 a deleted
# index, 408, 409, 429) depend on the server's state, not on the document: retried.
PERMANENT_STATUSES = frozenset({400, 413, 422})
TOO_LARGE = 413


@dataclass(frozen=True)
class ItemFailure:
    """One document a sink refused, as the sink reported it (no document text).

    `status` is the HTTP status, or for a Kafka record the nearest one (413 too
    large, 400 invalid record, 503 anything transient).
    """

    doc_id: str
    status: int
    error_type: str
    reason: str

    @property
    def permanent(self) -> bool:
        return self.status in PERMANENT_STATUSES

    @property
    def retryable(self) -> bool:
        return not self.permanent

    @property
    def label(self) -> str:
        """The dead-letter reason word: too_large, index_refused (its index could not be created) or rejected."""
        if self.error_type == "index_refused":
            return "index_refused"
        return "too_large" if self.status == TOO_LARGE else "rejected"


class SinkError(RuntimeError):
    """A sink did not store every document; `failures` lists refused ones, if known.

    `reason` is a short fixed word for the failure metric's label.
    """

    def __init__(self, sink: str, message: str, reason: str = "error",
                 failures: Sequence[ItemFailure] = (), status: int | None = None):
        super().__init__(f"{sink}: {message}")
        self.sink = sink
        self.reason = reason
        self.failures = list(failures)
        self.status = status  # of the whole request, when the server answered one

    @property
    def permanent(self) -> bool:
        """True when every refused document would be refused again (retrying cannot help)."""
        return bool(self.failures) and all(f.permanent for f in self.failures)

    @property
    def refused(self) -> list[ItemFailure]:
        """The documents refused for good: dead-letter them, retry the rest."""
        return [f for f in self.failures if f.permanent]


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


class VerdictStore(Protocol):
    """The sink in the store role: where verdict documents live (OpenSearch)."""

    name: str

    def write(self, verdicts: Sequence[ResponseVerdict],
              event_times: Sequence[datetime | None] | None = None) -> None:
        """As Sink.write; `event_times` (by position) date a verdict whose response has no timestamp."""

    def reachable(self) -> bool:
        """The store answers now (readiness); never raises."""

    def close(self) -> None:
        ...
