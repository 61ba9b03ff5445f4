"""Synthetic hard cases built from premises of the training mix.

NLI models are known to call negation flips and number edits "entailed";
these recipes teach the opposite. Each recipe takes a (premise, hypothesis)
entailment pair or a premise sentence and returns a new labelled pair, or
None when the recipe does not apply. The same recipes build the failure
probes of `groundwatch eval` (scorers are tested against them).
"""

from __future__ import annotations

import random
import re

from groundwatch.scorers.english.quantities import MONTH_NAMES
from groundwatch.training.labels import LABEL2ID, NOT_ENTAILMENT
from groundwatch.training.nli_data import Pair

ENT, NEU, CON = LABEL2ID["entailment"], LABEL2ID["neutral"], LABEL2ID["contradiction"]

_NEGATABLE = [
    (r"\b(is|are|was|were|has been|have been|will|can|could|should|must|may|does|do|did)\b(?! not\b)", None),
]
_NEGATED = re.compile(r"\b(is|are|was|were|will|can|could|should|must|does|do|did|has|have|had) not\b|\b(isn't|aren't|wasn't|weren't|cannot|can't|won't|doesn't|don't|didn't)\b")
_CONTRACTIONS = {"isn't": "is", "aren't": "are", "wasn't": "was", "weren't": "were", "cannot": "can",
                 "can't": "can", "won't": "will", "doesn't": "does", "don't": "do", "didn't": "did"}
_AUX = re.compile(r"\b(is|are|was|were|will|can|could|should|must|may|has|have|had)\b")
_LEXICAL_VERB = re.compile(r"\b([a-z]{3,}(?:ed|es|s))\b")
_NUMBER = re.compile(r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?![\w.]|\.\d)")
_MONTHS = [m.capitalize() for m in MONTH_NAMES]
_MONTH = re.compile(r"\b(" + "|".join(_MONTHS) + r")\b")
_UNIT_SWAPS = {"days": "weeks", "weeks": "months", "months": "years", "years": "months",
               "hours": "days", "minutes": "hours", "percent": "times", "km": "miles", "miles": "km",
               "million": "billion", "billion": "million", "thousand": "million"}
_UNIT = re.compile(r"\b(" + "|".join(_UNIT_SWAPS) + r")\b")
_CONDITION = re.compile(
    r",?\s*\b(?:only if|only when|if|unless|provided that|provided|as long as|subject to|"
    r"on condition that|except|with (?:prior |written |manager |their |the )?(?:approval|consent|permission)|"
    r"for (?:enterprise|premium|eligible|registered|approved) \w+)\b[^,.;]*", re.IGNORECASE)
_ENTITY = re.compile(r"(?<!^)(?<![.!?] )\b([A-Z][a-z]+(?: [A-Z][a-z]+)*)\b")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'])")


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(text) if 4 <= len(s.split()) <= 40]


def negate(text: str, rng: random.Random) -> str | None:
    """Flip the polarity of a sentence: remove a negation or add one."""
    m = _NEGATED.search(text)
    if m:
        if m.group(2):
            return text[:m.start()] + _CONTRACTIONS[m.group(2).lower()] + text[m.end():]
        return text[:m.start()] + m.group(1) + text[m.end():]
    m = _AUX.search(text)
    if m:
        return text[:m.end()] + " not" + text[m.end():]
    m = _LEXICAL_VERB.search(text)
    if m and m.start() > 0 and not text[:m.start()].strip().endswith(("the", "a", "an")):
        word = m.group(1)
        if word.endswith("ed"):
            return text[:m.start()] + "did not " + _base(word) + text[m.end():]
    return None


def _base(verb: str) -> str:
    if verb.endswith("ied"):
        return verb[:-3] + "y"
    if verb.endswith("ed"):
        stem = verb[:-2]
        return stem + "e" if stem.endswith(("at", "iv", "ur", "os", "ov", "ag", "uc")) else stem
    return verb


def edit_number(text: str, rng: random.Random) -> str | None:
    """Change one number, month or unit so the statement no longer holds."""
    options = []
    for m in _NUMBER.finditer(text):
        options.append(("num", m))
    for m in _MONTH.finditer(text):
        options.append(("month", m))
    for m in _UNIT.finditer(text):
        options.append(("unit", m))
    if not options:
        return None
    kind, m = rng.choice(options)
    old = m.group(0)
    if kind == "month":
        new = rng.choice([x for x in _MONTHS if x != old])
    elif kind == "unit":
        new = _UNIT_SWAPS[old.lower()]
    else:
        value = float(old.replace(",", ""))
        if 1800 <= value <= 2100 and "." not in old:
            new = str(int(value) + rng.choice([-3, -2, -1, 1, 2, 5, 10]))
        else:
            factor = rng.choice([0.5, 2, 3, 10, 1.5, 0.25])
            changed = value * factor if value else rng.randint(1, 9)
            if changed == value:
                changed = value + rng.randint(1, 9)
            new = f"{changed:,.0f}" if "," in old else (f"{changed:.1f}" if "." in old else str(int(round(changed))))
            if new == old:
                new = str(int(value) + 1)
    return text[:m.start()] + new + text[m.end():]


def drop_condition(text: str, rng: random.Random) -> str | None:
    """Remove a condition or qualifier: the bare statement is no longer entailed."""
    m = _CONDITION.search(text)
    if not m or m.end() - m.start() < 6:
        return None
    shorter = (text[:m.start()] + text[m.end():]).strip()
    shorter = re.sub(r"\s+([,.;])", r"\1", shorter)
    return shorter if len(shorter.split()) >= 4 else None


def swap_entities(text: str, rng: random.Random) -> str | None:
    names = list(dict.fromkeys(m.group(1) for m in _ENTITY.finditer(text)))
    if len(names) < 2:
        return None
    a, b = rng.sample(names, 2)
    swapped = text.replace(a, "\x00").replace(b, a).replace("\x00", b)
    return swapped if swapped != text else None


# Policy-like premises with conditions, the shape RAG answers drop most often.
_SUBJECTS = ["Refunds", "Data exports", "API keys", "Contract renewals", "Overtime payments",
             "Hardware replacements", "Travel reimbursements", "Account deletions", "Price adjustments",
             "Support escalations", "Parental leave extensions", "Warranty claims"]
_VERBS = ["are available", "can be requested", "are processed", "are granted", "may be approved"]
_CONDITIONS = ["for Enterprise customers", "subject to manager approval", "only if the invoice is paid",
               "unless the order was customised", "with written approval from finance",
               "for customers on the annual plan", "if the request is made by the account owner",
               "provided that the item is unused", "only when a ticket has been opened"]
_WINDOWS = ["within {n} days", "for up to {n} days", "within {n} business days", "for {n} months"]


def policy_pair(rng: random.Random) -> list[Pair]:
    subject, verb, cond = rng.choice(_SUBJECTS), rng.choice(_VERBS), rng.choice(_CONDITIONS)
    n = rng.choice([7, 10, 14, 30, 45, 60, 90, 12, 24])
    window = rng.choice(_WINDOWS).format(n=n)
    premise = f"{subject} {verb} {window} {cond}."
    base = f"{subject} {verb} {window}"
    other = rng.choice([x for x in [7, 10, 14, 30, 45, 60, 90] if x != n])
    default = f" Standard {subject.lower()} {verb} within {other} days."
    out = [
        Pair(premise, base + ".", NEU, "synthetic_condition"),
        Pair(premise + default, f"{subject} {verb} {window} {cond}.", ENT, "synthetic_condition"),
        Pair(premise + default, f"{subject} {verb} {window.replace(str(n), str(other))} {cond}.", CON,
             "synthetic_condition"),
        Pair(premise + default, f"{subject} {verb} within {other} days.", ENT, "synthetic_condition"),
    ]
    return out


def unrelated_pairs(train: list[Pair], rng: random.Random, n: int) -> list[Pair]:
    """A hypothesis from another example: unrelated content is neutral, not a contradiction.

    SNLI's same-scene convention labels unrelated captions "contradiction"; in RAG an off-topic
    chunk must leave a claim unverified, never refute it.
    """
    out = []
    for _ in range(n):
        a, b = rng.sample(train, 2)
        if a.premise != b.premise:
            out.append(Pair(a.premise, b.hypothesis, NEU, "synthetic_unrelated"))
    return out


def build(train: list[Pair], seed: int, per_recipe: int = 5000, unrelated: int = 0) -> list[Pair]:
    """Synthetic pairs from the premises of `train` (never from validation)."""
    rng = random.Random(seed)
    entailed = [p for p in train if p.label == ENT and len(p.hypothesis.split()) <= 30]
    premises = [p.premise for p in train if 8 <= len(p.premise.split()) <= 120]
    rng.shuffle(entailed)
    rng.shuffle(premises)
    out: list[Pair] = []

    def take(recipe, label, source, sources_iter, limit):
        made = 0
        for premise, sentence in sources_iter:
            if made >= limit:
                break
            new = recipe(sentence, rng)
            if new and new != sentence:
                out.append(Pair(premise, new, label, source))
                made += 1

    def hyp_sources():
        for p in entailed:
            yield p.premise, p.hypothesis

    def sentence_sources():
        for premise in premises:
            sents = sentences(premise)
            if sents:
                yield premise, rng.choice(sents)

    take(negate, CON, "synthetic_negation", hyp_sources(), per_recipe // 2)
    take(negate, CON, "synthetic_negation", sentence_sources(), per_recipe // 2)
    take(edit_number, CON, "synthetic_number", hyp_sources(), per_recipe // 2)
    take(edit_number, CON, "synthetic_number", sentence_sources(), per_recipe // 2)
    take(drop_condition, NEU, "synthetic_condition", sentence_sources(), per_recipe // 2)
    take(swap_entities, NOT_ENTAILMENT, "synthetic_swap", sentence_sources(), per_recipe // 2)
    # Meant to add verbatim sentences as entailment, but take() drops unchanged sentences, so it
    # yields nothing; kept because it advances the seeded generator earlier runs were trained with.
    # Copies come from counter_shortcuts.copy_pairs (train.py --copies).
    take(lambda s, r: s, ENT, "synthetic_copy", sentence_sources(), per_recipe // 2)
    for _ in range(per_recipe // 8):
        out.extend(policy_pair(rng))
    out.extend(_distractor_padding(train, rng, per_recipe))
    out.extend(_split_support(entailed, rng, per_recipe // 2))
    if unrelated:  # stage 2 only; stage 1 ran without it (keeps its seeded sequence reproducible)
        out.extend(unrelated_pairs(train, rng, unrelated))
    return out


def _distractor_padding(train: list[Pair], rng: random.Random, n: int) -> list[Pair]:
    """Bury the premise among unrelated sentences: chunks in RAG look like this."""
    out = []
    pool = [p.premise for p in train if len(p.premise.split()) <= 40]
    for p in rng.sample(train, min(n, len(train))):
        if len(p.premise.split()) > 60:
            continue
        parts = [p.premise] + rng.sample(pool, rng.randint(1, 3))
        rng.shuffle(parts)
        out.append(Pair(" ".join(parts), p.hypothesis, p.label, "synthetic_padding"))
    return out


def _split_support(entailed: list[Pair], rng: random.Random, n: int) -> list[Pair]:
    """A conjunction needs both premises; one alone leaves half unverified."""
    out = []
    short = [p for p in entailed if len(p.premise.split()) <= 40 and len(p.hypothesis.split()) <= 15]
    for _ in range(n):
        a, b = rng.sample(short, 2)
        hyp = a.hypothesis.rstrip(" .") + ", and " + b.hypothesis[0].lower() + b.hypothesis[1:]
        out.append(Pair(a.premise + " " + b.premise, hyp, ENT, "synthetic_split"))
        out.append(Pair(a.premise, hyp, NEU, "synthetic_split"))
    return out
