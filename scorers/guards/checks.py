"""Free checks, run before any model: quotes, numbers and dates, citations.

A failed check is recorded on the claim and caps its verdict: a fabricated
quote or a number absent from every passage can never be SUPPORTED. It never
makes a claim CONTRADICTED (docs/verdict-rule.md). A claim number the passages
state in another form (20:00 for 8 pm, 1,200 metres for 1.2 km, a week for 7
days) is found through the arithmetic guard's derived values, which come from
the one quantity normaliser (scorers/english/quantities.py); the detail names
the conversion.
"""

from __future__ import annotations

import re

from groundwatch.scorers.english.quantities import describe, passage_quantities, present, quantities
from groundwatch.scorers.records import Check
from groundwatch.scorers.schema import Citation, Passage
from groundwatch.scorers.english.text import content_words

_QUOTE = re.compile(r"[\"“”„«»]([^\"“”„«»]{3,400})[\"“”„«»]|(?<![\w])['‘’]([^'‘’]{8,400})['‘’](?![\w])")
# Typography that does not change the words: quote marks of any style, any dash as "-", and no space before
# closing punctuation or inside brackets ("Mockingjay – Part 2" is "Mockingjay — Part 2"; tokenised text
# writes "memorials : Passages").
_TYPOGRAPHY = str.maketrans({c: '"' for c in "“”„«»"} | {c: "'" for c in "‘’`"} | {c: "-" for c in "‐‑‒–—―−"})
_SPACE_BEFORE = re.compile(r" (?=[,.;:!?)\]])|(?<=[(\[]) ")


def _normalise(text: str) -> str:
    folded = " ".join(text.translate(_TYPOGRAPHY).lower().split())
    return _SPACE_BEFORE.sub("", folded).strip(" .,;:!?")


_ELISION = re.compile(r"\s*(?:\[\s*(?:\.{3}|…)\s*\]|\.{3}|…)\s*")


def _verbatim(quote: str, haystack: list[str]) -> bool:
    """The quote is in one passage, each part of it around an elision ("tasteful, and [...] sexy") in order."""
    parts = [_normalise(p) for p in _ELISION.split(quote)]
    parts = [p for p in parts if p]
    for h in haystack:
        at = 0
        for part in parts:
            at = h.find(part, at)
            if at < 0:
                break
            at += len(part)
        else:
            return True
    return False


def quote_check(claim: str, passages: list[Passage]) -> Check | None:
    quotes = [m.group(1) or m.group(2) for m in _QUOTE.finditer(claim)]
    quotes = [q for q in quotes if len(q.split()) >= 2]
    if not quotes:
        return None
    haystack = [_normalise(p.text) for p in passages]
    missing = [q for q in quotes if not _verbatim(q, haystack)]
    if missing:
        return Check("quote", False, f"quoted text not found verbatim in any passage: {len(missing)} of {len(quotes)}")
    return Check("quote", True, f"{len(quotes)} quote(s) found verbatim")


def number_check(claim: str, passages_quantities: set[tuple], derived: dict[float, str] | None = None) -> Check | None:
    """Every number of the claim is in a passage, or (with `derived`: claimed value -> computation from the
    arithmetic guard) follows from passage numbers by one operation."""
    claimed = quantities(claim)
    if not claimed:
        return None
    missing = [q for q in claimed if not present(q, passages_quantities)]
    shown = {q: _derivation(q, derived or {}) for q in missing}
    still = [q for q in missing if shown[q] is None]
    if still:
        return Check("numbers", False, "not in any passage: " + ", ".join(describe(q) for q in still))
    if missing:
        return Check("numbers", True, "present or derived: " + ", ".join(
            f"{describe(q)} ({shown[q]})" if shown.get(q) else describe(q) for q in claimed),
            found={"derived": [describe(q) for q in missing]})
    return Check("numbers", True, "all present: " + ", ".join(describe(q) for q in claimed))


def _derivation(q: tuple, derived: dict[float, str]) -> str | None:
    if q[0] not in ("num", "pct"):
        return None
    return next((how for value, how in derived.items() if abs(value - q[1]) < 1e-9), None)


def citation_check(claim: str, cited_ids: list[str], passages: list[Passage]) -> Check | None:
    if not cited_ids:
        return None
    by_id = {p.id: p for p in passages}
    words = content_words(claim)
    problems = []
    for pid in cited_ids:
        passage = by_id.get(pid)
        if passage is None:
            problems.append(f"{pid}: no such passage")
        elif words and not words & content_words(passage.text):
            problems.append(f"{pid}: shares no content word with the claim")
    if problems:
        return Check("citation", False, "; ".join(problems))
    return Check("citation", True, "cited passages resolve: " + ", ".join(cited_ids))


def cited_ids_for(span: tuple[int, int], markers: list[str], citations: list[Citation],
                  passage_ids: list[str]) -> list[str]:
    """Citations that apply to a claim: overlapping spans, plus inline [id] markers.

    A numeric marker [n] that is not itself a passage id means the n-th passage.
    """
    ids = [c.passage_id for c in citations
           if c.span is not None and c.span[0] < span[1] and span[0] < c.span[1]]
    for marker in markers:
        if marker.isdigit() and marker not in passage_ids and 0 < int(marker) <= len(passage_ids):
            ids.append(passage_ids[int(marker) - 1])
        elif " " not in marker:
            ids.append(marker)
    return list(dict.fromkeys(ids))


def run_checks(claim: str, cited_ids: list[str], passages: list[Passage],
               available: set[tuple] | None = None, derived: dict[float, str] | None = None) -> list[Check]:
    if available is None:
        available = passage_quantities([p.text for p in passages])
    checks = [quote_check(claim, passages), number_check(claim, available, derived),
              citation_check(claim, cited_ids, passages)]
    return [c for c in checks if c is not None]
