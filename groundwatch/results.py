"""Typed, read-only views of a verdict record, as the Python API returns them.

Each object is built from the JSON record `groundwatch score` writes, and `Result.to_dict()` gives
that record back exactly, so the Python API, the verdicts file, `serve` and OpenSearch hold one shape.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping


@dataclass(frozen=True)
class Evidence:
    """One premise a claim was scored against: a chunk of a passage, two chunks joined, or one sentence."""

    passage_ids: tuple[str, ...]
    offsets: tuple[tuple[int, int], ...]  # [start, end) characters in each passage
    entailment: float
    neutral: float
    contradiction: float
    retrieval_score: float
    kind: str  # chunk | pair | sentence

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Evidence":
        return cls(tuple(d["passage_ids"]), tuple(tuple(o) for o in d["offsets"]), d["entailment"], d["neutral"],
                   d["contradiction"], d["retrieval_score"], d["kind"])


@dataclass(frozen=True)
class CheckOutcome:
    """A free check (quote, numbers, citation) or a guard (polarity, dropped_condition, arithmetic)."""

    name: str
    passed: bool
    detail: str

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "CheckOutcome":
        return cls(d["name"], d["passed"], d["detail"])


@dataclass(frozen=True)
class Claim:
    """One claim of the answer and its verdict: SUPPORTED, CONTRADICTED, NOT_ENOUGH_INFO or SKIPPED."""

    index: int
    text: str
    span: tuple[int, int]  # [start, end) characters of the answer
    severity: str          # high | normal
    verdict: str
    entailment: float      # the best entailment over the claim's premises
    contradiction: float
    reason: str            # why a claim was SKIPPED (e.g. offer_of_help); empty otherwise
    evidence: tuple[Evidence, ...]
    checks: tuple[CheckOutcome, ...]
    flags: tuple[str, ...]

    @property
    def supported(self) -> bool:
        return self.verdict == "SUPPORTED"

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Claim":
        return cls(d["index"], d["text"], tuple(d["span"]), d["severity"], d["verdict"], d["entailment"],
                   d["contradiction"], d["reason"], tuple(Evidence.from_dict(e) for e in d["evidence"]),
                   tuple(CheckOutcome.from_dict(c) for c in d["checks"]), tuple(d["flags"]))


@dataclass(frozen=True)
class Action:
    """What the policy says to do with the answer: pass | log | hedge | strip | block, and the rule behind it."""

    action: str
    rule: str
    reason: str
    claims: tuple[int, ...]    # the claims that decided it
    stripped: tuple[int, ...]  # the claims a strip cuts out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Action":
        return cls(d["action"], d["rule"], d["reason"], tuple(d["claims"]), tuple(d["stripped"]))


@dataclass(frozen=True)
class Result:
    """The verdict record of one response. `to_dict()` is the JSON record `groundwatch score` writes."""

    request_id: str
    all_supported: bool
    score: float                 # the lowest entailment over the checked claims
    counts: Mapping[str, int]    # claims per verdict
    high_severity_unsupported: int
    claims: tuple[Claim, ...]
    action: Action | None        # None when the policy is switched off
    flags: tuple[str, ...]
    scorer_version: str
    model: str
    _record: Mapping[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_dict(cls, record: Mapping[str, Any]) -> "Result":
        response = record["response"]
        action = record.get("action")
        return cls(record["request_id"], response["all_supported"], response["score"],
                   MappingProxyType(dict(response["counts"])), response["high_severity_unsupported"],
                   tuple(Claim.from_dict(c) for c in record["claims"]),
                   Action.from_dict(action) if action else None, tuple(record["flags"]),
                   record["scorer_version"], record["model"], copy.deepcopy(dict(record)))

    @property
    def unsupported(self) -> tuple[Claim, ...]:
        """The checked claims that are not SUPPORTED."""
        return tuple(c for c in self.claims if c.verdict in ("CONTRADICTED", "NOT_ENOUGH_INFO"))

    def to_dict(self) -> dict[str, Any]:
        """The whole verdict record (a fresh copy): evidence sentences, context conflicts, passages included."""
        return copy.deepcopy(dict(self._record))
