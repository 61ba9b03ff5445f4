"""The guard stage for one claim: evidence sentences, then the switched-on guards.

Arithmetic needs only the passages, so it runs with the free checks (its
derived numbers keep the numbers check from capping); polarity and dropped
condition need the claim's top evidence, so they run once NLI has ranked it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Protocol

from groundwatch.scorers.guards import arithmetic, conditions, polarity
from groundwatch.scorers.guards.evidence import ChunkLike, EvidenceSentence, chunk_sentences, evidence_sentences
from groundwatch.scorers.guards.result import GuardResult
from groundwatch.scorers.english.quantities import passage_quantities, present, quantities, read
from groundwatch.scorers.records import Check


class Switches(Protocol):
    polarity: bool
    dropped_condition: bool
    arithmetic: bool


@dataclass(frozen=True)
class AllOn:
    polarity: bool = True
    dropped_condition: bool = True
    arithmetic: bool = True


@dataclass
class ClaimGuards:
    evidence: list[EvidenceSentence] = field(default_factory=list)  # of the deciding chunk(s)
    results: list[GuardResult] = field(default_factory=list)


@dataclass(frozen=True)
class _Whole:
    """A passage as one chunk, so passage sentences get passage offsets."""

    passage_id: str
    text: str
    start: int = 0


def passage_sentences(passages: Iterable) -> list[EvidenceSentence]:
    return chunk_sentences(_Whole(p.id, p.text) for p in passages)


def arithmetic_guard(claim: str, passages: Iterable, switches: Switches = AllOn(),
                     available: set[tuple] | None = None) -> GuardResult | None:
    """`available`: scorers.english.quantities.passage_quantities of the passages, when the caller has it; a claim
    whose numbers are all there needs no arithmetic (and its passages no reading)."""
    if not switches.arithmetic:
        return None
    passages = list(passages)
    if available is None:
        available = passage_quantities([p.text for p in passages])
    # Read both ways: "a quarter past six in the morning" is a 6 to `quantities` and 6.25 o'clock here.
    read_claim = read(claim)
    claimed = quantities(claim) + [("pct" if q.unit == "%" else "num", q.value) for q in read_claim]
    if not claimed or (all(present(q, available) for q in claimed) and _written_as_passages(read_claim, passages)):
        return arithmetic.check(claim, [])  # every number there, written as the passages write it
    return arithmetic.check(claim, passage_sentences(passages))


def _written_as_passages(claimed, passages: list) -> bool:
    """Every claim quantity written in digits as the passages write them (called after the cheaper value
    check, so most claims never read the passages' digits)."""
    runs = arithmetic.digit_runs(p.text for p in passages)
    return all(arithmetic.written_as(q, runs) for q in claimed)


def guard_claim(claim: str, deciding: Iterable[ChunkLike], top: Iterable[ChunkLike],
                contexts: dict[str, str], switches: Switches = AllOn()) -> ClaimGuards:
    """Evidence sentences of the deciding chunk(s); polarity and dropped condition over the top chunks."""
    out = ClaimGuards(evidence_sentences(claim, list(deciding)))
    sentences = chunk_sentences(top)
    if switches.polarity:
        out.results.append(polarity.check(claim, sentences, contexts))
    if switches.dropped_condition:
        out.results.append(conditions.check(claim, sentences))
    return out


def to_check(result: GuardResult) -> Check:
    """A guard's result as a named check of the verdict record."""
    return Check(result.name, not result.fired, result.detail, result.verdict if result.fired else None,
                 result.flag if result.fired else None, result.sentence, dict(result.found))


def recorded(result: GuardResult | None) -> bool:
    """Record a guard that fired, derived a number, or compared the claim with an evidence sentence."""
    return result is not None and (result.fired or bool(result.found) or result.sentence is not None)


GUARD_CHECKS = frozenset({"polarity", "dropped_condition", "arithmetic"})


def without_guards(checks: list[Check]) -> list[Check]:
    """The checks a run with every guard off would have recorded: no guard checks, and a numbers check
    that passed only through derived numbers failing again."""
    out = []
    for c in checks:
        if c.name in GUARD_CHECKS:
            continue
        if c.name == "numbers" and c.passed and c.found.get("derived"):
            c = Check("numbers", False, "not in any passage: " + ", ".join(c.found["derived"]))
        out.append(c)
    return out
