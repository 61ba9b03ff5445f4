"""Surface cues of a (premise, hypothesis) pair that a model could learn instead of reading it.

English-only, model-free and cheap (regular expressions, a hand-written
antonym list), so the whole training mix can be measured in seconds. A cue is
a yes/no feature of the pair:

  negation_hypothesis_only  the hypothesis has a negation word, the premise none
  negation_premise_only     the premise has a negation word, the hypothesis none
  antonym_pair              a word of the hypothesis has its antonym in the premise (and is not there itself)
  number_changed            a number of the hypothesis has no equal value in the premise
  number_rewritten          every number value of the hypothesis is in the premise, one written otherwise
                            ("7" / "seven", "1200" / "1,200")
  high_overlap              at least 90% of the hypothesis's content words are in the premise
  low_overlap               at most 30% are

The antonym list is hand-written for this measurement, not shared with the
guards or the training recipes, so what it measures does not move when they change.
"""

from __future__ import annotations

import re
from functools import lru_cache

from groundwatch.scorers.english.negation import NEGATION_WORDS as NEGATIONS
from groundwatch.scorers.english.units import NUMBER_WORDS
from groundwatch.scorers.english.text import STOPWORDS

CUES = ("negation_hypothesis_only", "negation_premise_only", "antonym_pair", "number_changed", "number_rewritten",
        "high_overlap", "low_overlap")

HIGH_OVERLAP, LOW_OVERLAP = 0.9, 0.3

_PAIRS = """open close; open shut; allow forbid; allow deny; allow prohibit; enable disable; accept reject;
accept decline; increase decrease; increase reduce; rise fall; win lose; buy sell; include exclude; add remove;
start stop; begin end; arrive leave; push pull; before after; above below; inside outside; indoors outdoors;
up down; more less; higher lower; larger smaller; big small; large small; long short; tall short; old young;
old new; hot cold; wet dry; fast slow; early late; full empty; light dark; happy sad; day night; man woman;
boy girl; sit stand; asleep awake; alive dead; true false; public private; required optional;
mandatory optional; visible hidden; present absent; always never; same different; first last; north south;
east west; male female; cheap expensive; rich poor; strong weak; easy difficult; safe dangerous;
success failure; highest lowest; maximum minimum; gain loss; profit loss; import export; lend borrow;
online offline; legal illegal; possible impossible; available unavailable; like dislike; agree disagree"""
ANTONYM_PAIRS = tuple(tuple(p.split()) for p in _PAIRS.replace("\n", " ").split(";"))
_IRREGULAR = {"men": "man", "women": "woman", "sat": "sit", "stood": "stand", "won": "win", "lost": "lose",
              "bought": "buy", "sold": "sell", "began": "begin", "begun": "begin", "left": "leave", "fell": "fall",
              "fallen": "fall", "rose": "rise", "risen": "rise", "lent": "lend"}

_TOKEN = re.compile(r"n't|\d+(?:[.,:]\d+)*|[a-z]+(?:-[a-z]+)*")
_NUMBER = re.compile(r"\d+(?:[.,:]\d+)*")


@lru_cache(maxsize=1)
def _antonyms() -> tuple[dict[str, frozenset[str]], dict[str, str]]:
    """(listed word -> its antonyms, inflected form -> listed word: "closed", "closes" -> "close")."""
    table: dict[str, set[str]] = {}
    for a, b in ANTONYM_PAIRS:
        table.setdefault(a, set()).add(b)
        table.setdefault(b, set()).add(a)
    forms = dict(_IRREGULAR)
    for word in table:
        stem = word[:-1] if word.endswith("e") else word
        for form in (word, word + "s", word + "es", word + "d", word + "ed", stem + "ed", stem + "ing",
                     word + word[-1] + "ed", word + word[-1] + "ing", word[:-1] + "ies"):
            forms.setdefault(form, word)
    return {k: frozenset(v) for k, v in table.items()}, forms


def tokens(text: str) -> list[str]:
    """Lower-cased words, numbers and "n't" ("doesn't" -> "does", "n't"; "cannot" stays one word)."""
    return _TOKEN.findall(text.lower().replace("’", "'").replace("n't", " n't"))


def numbers(words: list[str]) -> dict[str, set[str]]:
    """Number value -> the forms it is written in ("1,200" and "1200" -> "1200"; "seven" -> "7")."""
    out: dict[str, set[str]] = {}
    for w in words:
        if _NUMBER.fullmatch(w):
            value = w.replace(",", "") if ":" not in w else w
            try:
                value = f"{float(value):g}"
            except ValueError:
                pass
        elif w in NUMBER_WORDS:
            value = f"{float(NUMBER_WORDS[w]):g}"
        else:
            continue
        out.setdefault(value, set()).add(w)
    return out


def cues(premise: str, hypothesis: str) -> dict[str, bool]:
    p_words, h_words = tokens(premise), tokens(hypothesis)
    p_set, h_set = set(p_words), set(h_words)
    p_neg, h_neg = bool(p_set & NEGATIONS), bool(h_set & NEGATIONS)
    table, forms = _antonyms()
    p_stems = {forms[w] for w in p_set if w in forms}
    h_stems = {forms[w] for w in h_set if w in forms}
    antonym = any(table.get(w, frozenset()) & p_stems for w in h_stems - p_stems)
    p_num, h_num = numbers(p_words), numbers(h_words)
    changed = any(v not in p_num for v in h_num)
    rewritten = bool(h_num) and not changed and any(forms - p_num[v] for v, forms in h_num.items())
    content = {w for w in h_set if w not in STOPWORDS and w not in NEGATIONS and len(w) > 1}
    overlap = len(content & p_set) / len(content) if content else 1.0
    return {"negation_hypothesis_only": h_neg and not p_neg, "negation_premise_only": p_neg and not h_neg,
            "antonym_pair": antonym, "number_changed": changed, "number_rewritten": rewritten,
            "high_overlap": overlap >= HIGH_OVERLAP, "low_overlap": overlap <= LOW_OVERLAP}
