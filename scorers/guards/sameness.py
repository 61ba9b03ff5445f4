"""Do two passage sentences talk about the same thing? Asked before two sentences may be called contradictory.

Yes when they share an entity-attribute key (scorers.english.facts: "refund | available
within"), or when they are lexically close: at least `min_shared` content lemmas
in common (synonyms and antonyms aligned, "forbid" ~ "allow"), making up at least
`min_overlap` of the shorter sentence. "The SLA does not apply to the Team plan"
and "The Team plan costs $12" share only "Team plan": not the same thing.
"""

from __future__ import annotations

from groundwatch.scorers.english.facts import sentence_facts
from groundwatch.scorers.english.lemmas import analyse, matched
from groundwatch.scorers.english.sentences import sentence_spans


def shared_key(a: str, b: str) -> str | None:
    keys = {f.key for f in sentence_facts(a)}
    return next((f.key for f in sentence_facts(b) if f.key in keys), None)


def lexical_overlap(a: str, b: str) -> tuple[int, float]:
    """(shared content lemmas, their share of the shorter sentence's content lemmas)."""
    la, lb = analyse(a).antonym_aware, analyse(b).antonym_aware
    shared = len(matched(la, lb))
    return shared, shared / max(min(len(la), len(lb)), 1)


def same_thing(a: str, b: str, min_shared: int = 3, min_overlap: float = 0.6) -> bool:
    if shared_key(a, b):
        return True
    shared, overlap = lexical_overlap(a, b)
    return shared >= min_shared and overlap >= min_overlap


def partner(sentence: str, text: str) -> str:
    """The sentence of `text` that shares most content with `sentence` (first on ties)."""
    spans = sentence_spans(text) or [(0, len(text))]
    target = analyse(sentence).antonym_aware
    return max((text[s:e] for s, e in spans), key=lambda s: len(matched(target, analyse(s).antonym_aware)))
