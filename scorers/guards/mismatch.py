"""A verified mismatch: the one way a deterministic check may make a claim CONTRADICTED.

A claim quantity and a passage quantity are a verified mismatch when all of these hold:
- the same dimension: one converts into the other (`quantities.convert`: the same unit, or a conversion
  people write: weeks and days, km and metres, per month and per year, 8 pm and 20:00);
- the same quantity: each side states exactly one quantity of that dimension (which one the claim means is
  not in doubt), and both are bounded alike: the same bound words before or after the number ("up to",
  "at least", "within", "or more");
- of the same subject: the passage sentence holds at least `cover` of the claim's content words outside its
  numbers (synonyms aligned, at least two words);
- different values: after conversion they differ by more than either side's rounding and the conversion's
  own spread (a month is 28 to 31 days, so "90 days" is "three months").
Anything less (an operation the claim names but gets wrong, two candidate operands, a sentence about
something else, another bound) is a reason for doubt only: the check caps the verdict at NOT_ENOUGH_INFO.
scorers/verdicts/decide.py convicts on a failed check only when it carries this record (`RECORD_KEY`), so every
checker that wants to convict must call `verify`. English-only, as the quantity reader.
"""

from __future__ import annotations

from dataclasses import dataclass

from groundwatch.scorers.english.lemmas import analyse, matched
from groundwatch.scorers.english.quantities import Quantity, format_value, read
from groundwatch.scorers.english.units import convert

RECORD_KEY = "mismatch"  # a failed check's `found[RECORD_KEY]`: the verified mismatch that convicts

# Words that bound a number; the two sides must bound theirs alike ("up to 200 GB" is not "200 GB").
_BOUNDS = frozenset({"up", "least", "most", "within", "after", "before", "over", "under", "above", "below", "more",
                     "less", "fewer", "than", "until", "till", "by", "from", "minimum", "maximum", "max", "min",
                     "only", "beyond", "exceed", "exceeding", "limit", "cap"})


@dataclass(frozen=True)
class Mismatch:
    claimed: str   # the claim's quantity as written
    stated: str    # the passage's quantity as written
    converted: str  # the passage's value in the claim's unit ("84–93 day")

    def to_record(self) -> dict:
        return {"claimed": self.claimed, "stated": self.stated, "converted": self.converted}


def verified(found: dict) -> bool:
    """Does a check's `found` carry a verified mismatch?"""
    return isinstance(found.get(RECORD_KEY), dict)


def _bounds(text: str, q: Quantity) -> frozenset[str]:
    before = analyse(text[:q.start]).tokens[-3:]
    after = analyse(text[q.end:]).tokens[:2]
    return frozenset(t.lemma for t in before + after if t.lemma in _BOUNDS)


def _subject_words(text: str) -> frozenset[str]:
    """Content lemmas outside the text's quantities (numbers and units are what differs)."""
    spans = [(q.start, q.end) for q in read(text)]
    return frozenset(t.lemma for t in analyse(text).tokens
                     if t.content and not t.is_number and not any(a <= t.start < b for a, b in spans))


def _one_of_its_dimension(text: str, q: Quantity) -> bool:
    return sum(1 for other in read(text) if convert(other, q) is not None) == 1


def verify(claim: str, claimed: Quantity, sentence: str, stated: Quantity, cover: float = 0.75) -> Mismatch | None:
    """`claimed` (a quantity of `claim`) and `stated` (of a passage `sentence`) as a verified mismatch, or None
    when they are equal, not comparable, or not verifiably the same quantity of the same subject."""
    span = convert(stated, claimed)
    if span is None or not (claimed.unit or claimed.rate):
        return None  # another dimension, or bare numbers of unknown kind
    low, high = span
    # The passage's rounding counts where it shows: a decimal ("1.2 km" may be 1,250 m), a scale ("$1.2M"), a
    # hedge ("about 3 weeks"); "20 weeks" and "a week" mean what they say.
    rounded = stated.decimals > 0 or stated.scale > 1 or stated.hedged
    slack = claimed.tolerance + (stated.tolerance * (high / stated.value) if rounded and stated.value else 0.0)
    if low - slack - 1e-9 <= claimed.value <= high + slack + 1e-9:
        return None
    if not (_one_of_its_dimension(claim, claimed) and _one_of_its_dimension(sentence, stated)):
        return None
    if _bounds(claim, claimed) != _bounds(sentence, stated):
        return None
    words = _subject_words(claim)
    if len(words) < 2 or len(matched(words, _subject_words(sentence))) < cover * len(words):
        return None
    shown = format_value(low, claimed.unit, claimed.rate) if high == low else \
        f"{format_value(low, claimed.unit)}–{format_value(high, claimed.unit, claimed.rate)}"
    return Mismatch(claimed.text, stated.text, shown)
