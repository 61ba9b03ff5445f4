"""Tokens and lemmas for the guards: spaCy's blank English tokenizer and its lookup lemmatizer.

No statistical model is loaded: `spacy.blank("en")` gives the rule-based
tokenizer and spacy-lookups-data's English table, shipped in
scorers/models/spacy-lookups-en, the lemmas (a word -> lemma lookup, the
same one spaCy's "lookup" lemmatizer mode uses). Both load lazily, once per
process (about 0.3 s); analysing a sentence then costs tens of microseconds and
results are cached by text, within a byte budget (scorers/byte_cache.py).
"""

from __future__ import annotations

import gzip
import json
import re
import sys
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

from groundwatch.scorers.byte_cache import MB, byte_cached
from groundwatch.scorers.english.lexicon import ANTONYMS, SYNONYMS
from groundwatch.scorers.english.negation import NEGATED_BY_PREFIX, NEGATING_PREFIXES, PLAIN_NEGATORS
from groundwatch.scorers.english.units import NUMBER_WORDS
from groundwatch.scorers.english.text import STOPWORDS

# Function words whose table lemma is wrong or missing for our purpose ("does" -> "doe", "ca" of "can't").
_OVERRIDES = {"does": "do", "doesn": "do", "ca": "can", "wo": "will", "sha": "shall", "n't": "not", "cannot": "can",
              "'ve": "have", "’ve": "have", "'re": "be", "’re": "be", "'ll": "will", "’ll": "will", "'m": "be",
              "’m": "be", "n’t": "not", "data": "data", "media": "media", "news": "news", "series": "series",
              "us": "we", "lenses": "lens", "glasses": "glasses", "minutes": "minute", "hours": "hour",
              "required": "require", "closed": "closed", "left": "leave", "paid": "pay", "ago": "ago",
              "as": "as"}  # the table's "as" -> "a" broke "as long as"
# Comparatives keep their form: "more" is not "much" when it marks a difference or a bound.
_OVERRIDES.update({w: w for w in ("more", "less", "fewer", "most", "least", "higher", "lower", "cheaper", "longer",
                                  "shorter", "later", "earlier", "older", "newer", "greater", "smaller", "larger",
                                  "bigger", "further", "better", "worse")})
_EXTRA_STOP = frozenset({"be", "have", "do", "will", "would", "shall", "also", "yes", "'s", "’s", "can", "may",
                         "must", "might", "could", "should", "get", "make", "one", "s", "you", "your", "they",
                         "their", "it", "its", "we", "our", "us", "he", "she", "them", "ever", "always", "still",
                         "usually", "typically", "normally", "generally", "currently", "now", "please", "just",
                         "so", "etc", "e.g.", "i.e.", "via", "per", "each", "every", "whole"})
_NUMERIC = re.compile(r"^(\d[\d,]*(?:\.\d+)?)(?:[kKmMbB]n?|x)?\.?$")  # 1,500  2.5  230M  10x
_SUFFIXES = frozenset({"k", "m", "b", "bn", "mn", "x"})


# spacy-lookups-data's English lemma table, shipped alone (the package holds every language: 99 MB).
LEMMA_TABLE = Path(__file__).resolve().parents[1] / "models" / "spacy-lookups-en" / "en_lemma_lookup.json.gz"


def import_spacy_without_torch() -> None:
    """Import spaCy with its ML layer (thinc) told that torch is absent.

    thinc imports torch whenever it is installed (a development or training install): about 140 MB
    of resident memory in a process that only needs the blank tokenizer. For processes of our own
    on a backend other than torch (the commands' build_scorer: `consume`, `serve`, `score`): a library
    user's spaCy models may need thinc's torch support, so the Python API does not call this. A no-op
    when spaCy, thinc or torch is already imported.
    """
    if any(name in sys.modules for name in ("spacy", "thinc", "torch")):
        return
    sys.modules["torch"] = None  # `import torch` raises ImportError while spaCy is imported
    try:
        import spacy  # noqa: F401
    finally:
        del sys.modules["torch"]  # a later `import torch` (the torch backend) works as ever


@lru_cache(maxsize=1)
def _pipeline():
    import spacy

    tokenizer = spacy.blank("en").tokenizer
    with gzip.open(LEMMA_TABLE, "rt", encoding="utf-8") as f:
        return tokenizer, json.load(f)


def negative_adjective(lemma: str) -> bool:
    """A word negated by its prefix ("uncommon", "impossible", "invalid"), from the curated list
    (negation.NEGATED_BY_PREFIX). After "not" it makes a litotes: "not uncommon" is positive."""
    return bool(_bases(lemma))


_PERFECT_BETWEEN = frozenset({"just", "now", "already", "recently", "finally", "also", "since"}) | PLAIN_NEGATORS


def perfect_participle(tokens, i: int) -> bool:
    """Token i is a verb after "have" ("they have uncovered evidence", "has undone the change"): an inflected
    verb form, not the adjective its prefix negates ("uncovered losses", "unlimited data")."""
    if tokens[i].lemma == tokens[i].text.lower():
        return False  # not inflected: "have unlimited data"
    k = i - 1
    while k >= 0 and (tokens[k].lemma in _PERFECT_BETWEEN or tokens[k].text.lower().endswith("ly")):
        k -= 1
    return k >= 0 and tokens[k].lemma == "have"


def warmup() -> None:
    """Load the tokenizer and tables now instead of on the first claim."""
    _pipeline()


def lemma_of(word: str) -> str:
    lower = word.lower()
    if lower in _OVERRIDES:
        return _OVERRIDES[lower]
    m = _NUMERIC.match(lower)
    if m:
        value = float(m.group(1).replace(",", ""))
        return str(int(value)) if value.is_integer() else str(value)
    if lower in NUMBER_WORDS:
        return str(NUMBER_WORDS[lower])
    return _pipeline()[1].get(lower, lower)


def canonical(lemma: str) -> str:
    """The lemma a synonym stands for ("need" -> "require"); antonyms keep their own lemma."""
    return SYNONYMS.get(lemma, lemma)


@dataclass(frozen=True)
class Token:
    text: str
    lemma: str        # lower-cased lemma, synonyms mapped to one canonical lemma
    start: int        # character offsets in the analysed text
    end: int
    content: bool     # carries content (not a stopword, not punctuation)
    capitalised: bool  # starts with a capital and is not the first word

    @property
    def is_punct(self) -> bool:
        return not any(ch.isalnum() for ch in self.text)

    @property
    def is_number(self) -> bool:
        return self.lemma[:1].isdigit()


class TokenRun:
    """A run of tokens (a text's analysis, a clause of it) and its lemma sets."""

    tokens: tuple[Token, ...]

    @property
    def content(self) -> frozenset[str]:
        return frozenset(t.lemma for t in self.tokens if t.content)

    @property
    def lemmas(self) -> frozenset[str]:
        return frozenset(t.lemma for t in self.tokens)


@dataclass(frozen=True)
class Analysed(TokenRun):
    text: str
    tokens: tuple[Token, ...]

    # An analysis is cached and read by every guard: its sets are computed once (a clause's on each read).
    content = cached_property(TokenRun.content.fget)
    lemmas = cached_property(TokenRun.lemmas.fget)

    @cached_property
    def antonym_aware(self) -> frozenset[str]:
        """Content lemmas with antonyms mapped to what they negate ("forbid" -> "allow"), for alignment."""
        return frozenset(ANTONYMS.get(t.lemma, t.lemma) for t in self.tokens if t.content)


def analysed_bytes(text: str, tokens: int, clauses: int = 0) -> int:
    """Bytes an analysis (or the clauses) of `text` holds, without walking it: an upper estimate,
    checked against byte_cache.deep_size in tests/unit/test_byte_cache.py (at most 545 bytes a token,
    with the lemma sets computed; 3 copies of the text cover the tokens' and lemmas' strings)."""
    return 2048 + 3 * sys.getsizeof(text) + 640 * tokens + 400 * clauses


def _is_content(lemma: str, text: str) -> bool:
    if not any(ch.isalnum() for ch in text):
        return False
    return lemma not in STOPWORDS and lemma not in _EXTRA_STOP and text.lower() not in STOPWORDS and (
        len(lemma) > 1 or lemma.isdigit())


@byte_cached(128 * MB, sizer=lambda text, value: analysed_bytes(text, len(value.tokens)))
def analyse(text: str) -> Analysed:
    tokenizer = _pipeline()[0]
    out = []
    first = True
    for tok in tokenizer(text):
        raw = tok.text
        if out and out[-1].is_number and out[-1].end == tok.idx and raw.lower() in _SUFFIXES:
            out.append(Token(raw, raw.lower(), tok.idx, tok.idx + len(raw), False, False))  # "40" "M"
            continue
        lemma = canonical(lemma_of(raw))
        out.append(Token(raw, lemma, tok.idx, tok.idx + len(raw), _is_content(lemma, raw),
                         (not first) and raw[:1].isupper() and raw.lower() != "i"))
        if any(ch.isalnum() for ch in raw):
            first = False
    return Analysed(text, tuple(out))


@lru_cache(maxsize=1)
def _negated() -> dict[str, str]:
    """Curated prefixed word (as written and as its table lemma) -> the word it negates."""
    out = {}
    for word in NEGATED_BY_PREFIX:
        prefix = next(p for p in NEGATING_PREFIXES if word.startswith(p))
        out[word] = out[lemma_of(word)] = word[len(prefix):]
    return out


def negated_base(word: str) -> str | None:
    """The word a curated prefixed word negates, as written ("unheated" -> "heated"); None for any other."""
    return _negated()[word] if word in NEGATED_BY_PREFIX else None


@byte_cached(4 * MB)
def _bases(lemma: str) -> tuple[str, ...]:
    """What `lemma` negates by its prefix: "unavailable" -> ("available",), "unsampled" -> ("sampled",
    "sample"), "unpaid" -> ("paid", "price") (the base's own lemma, synonyms mapped, as the other side has it);
    () for a word outside the curated list ("intense", "discount")."""
    base = _negated().get(lemma)
    return () if base is None else tuple(dict.fromkeys([base, canonical(lemma_of(base))]))


def unprefixed(lemma: str, others: frozenset[str]) -> str | None:
    """The word `lemma` negates by a prefix when `others` has it ("unavailable" -> "available")."""
    return next((base for base in _bases(lemma) if base in others), None)


@byte_cached(8 * MB)
def _prefixed(lemmas: frozenset[str]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    return tuple((lemma, bases) for lemma in lemmas if (bases := _bases(lemma)))


def matched(a: frozenset[str], b: frozenset[str]) -> frozenset[str]:
    """Lemmas two sets share, counting a prefix-negated word as its base ("unavailable" ~ "available")."""
    shared = a & b
    extra = [base for x, y in ((a, b), (b, a)) for lemma, bases in _prefixed(x) if lemma not in y
             for base in bases if base in y][:]
    return shared | frozenset(extra) if extra else shared
