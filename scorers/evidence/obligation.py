"""Obligation against exemption: "Visitors must sign in" and "Signing in is optional for visitors" cannot both hold.

English-only: the markers are English phrases. A sentence states a duty when it
has an obligation marker ("must", "is required to", "has to", "needs to",
"is mandatory", "requires") or an exemption marker ("need not", "do not need to",
"does not have to", "is not required", "is optional", "is exempt from", "no X is
needed"), all of one kind; a prohibition ("must not", "may not") is neither, and
"is not optional" is an obligation. Of each duty it keeps:
  holder      who it binds or frees: the subject before a verbal marker ("Visitors
              must sign in", "Passengers do not need a passport"), or the "for ..."
              phrase after an adjectival or passive one ("... is optional for visitors")
  core        what it is about: the words after a verbal marker up to the first
              preposition ("sign"), the subject of an adjectival one ("signing in at
              the front desk")
  exceptions  the content of an "unless" / "except" clause
Two duties conflict when one is an obligation and the other an exemption, the
sentences share two content lemmas (or all of the shorter one; derivations count:
"approve" / "approval"), each core is named by the other sentence and not both
cores name something the other lacks ("Helmets are compulsory" / "Gloves are
optional"), the holders are not two different groups (one holder's words must all
occur in the other sentence: "visitors" / "visitors with a staff badge" may
conflict, "full-time" / "part-time employees" do not) and neither side's exception
is what the other is about ("must sign in unless they hold a staff badge" /
"visitors with a staff badge need not"). Clause-level only: a sentence with markers
of both kinds is left to the other signals.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from groundwatch.scorers.byte_cache import MB, byte_cached
from groundwatch.scorers.english.clauses import OBLIGATION_CLAUSE_BREAKS
from groundwatch.scorers.english.lemmas import lemma_of
from groundwatch.scorers.english.negation import NOT_AFTER_HELPER
from groundwatch.scorers.english.text import STOPWORDS

OBLIGATION, EXEMPTION = "obligation", "exemption"

_NOT = NOT_AFTER_HELPER
_BE = r"(?:is|are|was|were|be|been|being)"
# (kind, binds its subject, pattern), first match wins where spans overlap: negated forms come before what they negate.
_MARKERS = [
    (None, False, rf"\b(?:must|shall|may){_NOT}\b|\bmust never\b|\b{_BE}{_NOT} (?:allowed|permitted) to\b"),
    (OBLIGATION, False, rf"\b{_BE}{_NOT} (?:optional|voluntary)\b"),
    (EXEMPTION, False, rf"\bno requirement\b|\b{_BE}{_NOT} (?:a )?requirement\b"),
    (EXEMPTION, True, rf"\bneeds? not\b|\bneedn't\b|\bnever (?:needs?|has|have) to\b|"
                      rf"\b(?:do|does|did){_NOT} (?:need|have) to\b|"
                      rf"\b{_BE}{_NOT} (?:required|obliged|obligated) to\b|"
                      rf"\b(?:{_BE} )?exempt(?:ed)?(?: from)?\b"),
    (EXEMPTION, True, rf"\b(?:do|does|did){_NOT} (?:need|require)\b"),  # "Passengers do not need a passport"
    (EXEMPTION, False, rf"\bno need\b|"
                       rf"\bnot (?:required|mandatory|compulsory|obligatory|needed|necessary)\b|"
                       rf"\b(?:optional|voluntary|waived)\b|"
                       rf"\bno\b(?: [\w'-]+){{1,3}} {_BE} (?:needed|required|necessary)\b"),
    (OBLIGATION, True, rf"\bmust\b|\bshall\b|\b(?:has|have|had) to\b|\bneeds?\b|\brequires?\b|"
                       rf"\b{_BE} (?:required|obliged|obligated) to\b"),
    (OBLIGATION, False, rf"\b{_BE} (?:required|mandatory|compulsory|obligatory|needed|necessary)\b|"
                        rf"\b(?:mandatory|compulsory|obligatory)\b|\b{_BE} (?:a )?requirement\b"),
]
_PATTERNS = [(kind, binds, re.compile(p)) for kind, binds, p in _MARKERS]
_MARKER_WORDS = frozenset({"must", "shall", "have", "need", "needn't", "require", "oblige", "obligate", "mandatory",
                           "compulsory", "obligatory", "necessary", "optional", "voluntary", "exempt", "waive",
                           "requirement", "never", "all", "every", "any", "each", "always"})
_EXCEPTION = re.compile(r"\b(?:unless|except|other than|apart from|with the exception of)\b[^;,]*")
_CLAUSE = OBLIGATION_CLAUSE_BREAKS
_FOR = re.compile(r"\bfor ((?:[\w'-]+ ?){1,5}?)(?=[,.;:]|$| (?:on|in|at|to|if|when|unless|before|after|during|who)\b)")
# The words right after a marker up to the first of these name what is required ("sign in at the desk" -> sign).
_PHRASE_END = re.compile(r"[,.;:()]|\b(?:in|on|at|for|to|from|by|with|within|before|after|during|when|if|unless|while|"
                         r"until|because|so|and|or|but)\b")
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


@dataclass(frozen=True)
class Duty:
    kind: str                    # OBLIGATION or EXEMPTION
    marker: str                  # as written
    holder: frozenset[str]       # empty when the sentence names nobody
    core: frozenset[str]         # what the marker is about: an adjectival marker's subject, a verbal one's verb phrase
    exceptions: frozenset[str]
    words: frozenset[str]        # every content lemma of the sentence


def _lemmas(text: str) -> frozenset[str]:
    words = (w.removesuffix("'s") for w in _WORD.findall(text))
    return frozenset(lemma_of(w) for w in words if w not in STOPWORDS and len(w) > 1) - _MARKER_WORDS


@byte_cached(4 * MB)
def duty(sentence: str) -> Duty | None:
    """The duty a sentence states, or None (no marker, a prohibition, or markers of both kinds)."""
    text = sentence.lower().replace("’", "'")
    taken: list[tuple[int, int, str | None, bool]] = []
    for kind, binds, pattern in _PATTERNS:
        for m in pattern.finditer(text):
            if not any(m.start() < end and start < m.end() for start, end, _, _ in taken):
                taken.append((m.start(), m.end(), kind, binds))
    kinds = {kind for _, _, kind, _ in taken}
    if not taken or None in kinds or len(kinds) != 1:
        return None
    start, end, kind, binds = min(taken)
    # Only the clause of the marker: "All plans start with a trial, and no card is required" is about the card.
    left = max((m.end() for m in _CLAUSE.finditer(text, 0, start)), default=0)
    right = next((m.start() for m in _CLAUSE.finditer(text, end)), len(text))
    exception = _EXCEPTION.search(text, left, right)
    if exception:
        body = text[left:exception.start()] + " " * len(exception.group(0)) + text[exception.end():right]
    else:
        body = text[left:right]
    start, end = start - left, end - left
    passive = re.match(r"\s+(?:be|been|being)\b", body[end:]) is not None
    after = re.sub(r"^\s*(?:to|be|been|being)\b", "", body[end:])
    phrase = _lemmas(after[:m.start()] if (m := _PHRASE_END.search(after)) else after)
    if binds and not passive:
        holder, core = _lemmas(body[:start]), phrase
    else:
        holder = frozenset().union(*(_lemmas(m.group(1)) for m in _FOR.finditer(body, end)))
        core = _lemmas(body[:end]) | phrase
    words = _lemmas(body)
    return Duty(kind, text[left + start:left + end], holder, core - holder,
                _lemmas(exception.group(0)) if exception else frozenset(), words)


# Words that say little about what is required: light verbs ("complete the training" is about the training) and
# when or how often ("every year" / "annual").
_LIGHT = frozenset({"complete", "do", "make", "take", "use", "get", "have", "perform", "carry", "undergo", "go",
                    "year", "annual", "annually", "yearly", "day", "daily", "week", "weekly", "month", "monthly",
                    "time"})


def _same_word(a: str, b: str) -> bool:
    """Equal, or one derivation of the other by a shared start ("approve" / "approval", "book" / "booking")."""
    return a == b or (min(len(a), len(b)) >= 4 and (a.startswith(b) or b.startswith(a))) or (
        len(a) >= 5 and len(b) >= 5 and a[:5] == b[:5])


def _matched(mine: frozenset[str], other: frozenset[str]) -> set[str]:
    return {w for w in mine if any(_same_word(w, x) for x in other)}


def _unmatched(core: frozenset[str], words: frozenset[str]) -> set[str]:
    return set(core - _LIGHT) - _matched(core, words)


def _excepted(a: Duty, b: Duty) -> bool:
    """`a` names as its exception what `b` is about."""
    return bool(a.exceptions) and len(a.exceptions & b.words) * 2 >= len(a.exceptions)


def duty_conflict(a: str, b: str) -> tuple[Duty, Duty] | None:
    """(duty of a, duty of b) when one sentence requires what the other exempts from, in either order."""
    da, db = duty(a), duty(b)
    if da is None or db is None or da.kind == db.kind:
        return None
    shared = _matched(da.words, db.words)
    if len(shared) < 2 and len(shared) < min(len(da.words), len(db.words)):
        return None
    # Each side must be about something the other names, and not both name something the other lacks ("Helmets are
    # compulsory on site" / "Gloves are optional on site"); one side adding a word narrows ("annual" training).
    if not (_matched(da.core, db.words) and _matched(db.core, da.words)) or (_unmatched(da.core, db.words)
                                                                          and _unmatched(db.core, da.words)):
        return None
    if da.holder and db.holder and not (da.holder <= db.words or db.holder <= da.words):
        return None
    if _excepted(da, db) or _excepted(db, da):
        return None
    return da, db
