"""Entity-attribute-value facts found in a sentence by simple patterns.

"Refunds are available within 30 days"  -> refund | available within | 30 day
"The Pro plan costs $49 per month"      -> pro plan | cost | 49 usd/month
Two facts with the same key (entity, attribute, condition) and the same unit
but different amounts disagree: model-free evidence of a conflict. Only
sentences the patterns understand yield facts; the rest is left to NLI.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from groundwatch.scorers.byte_cache import MB, byte_cached
from groundwatch.scorers.answer.claims import clause_spans, sentence_spans
from groundwatch.scorers.english.clauses import FACT_ATTRIBUTE_BREAKS, FACT_TAIL_BREAKS
from groundwatch.scorers.english.negation import FACT_NEGATIONS
from groundwatch.scorers.english.quantities import MONTHS, describe, quantities
from groundwatch.scorers.english.units import NUMBER_WORDS
from groundwatch.scorers.english.text import STOPWORDS, tokens

_MONTH = "|".join(sorted(MONTHS, key=len, reverse=True))
_DATE = (rf"\d{{4}}-\d{{1,2}}-\d{{1,2}}"
         rf"|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{_MONTH})\.?,?\s+\d{{4}}"
         rf"|(?:{_MONTH})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}"
         rf"|(?:{_MONTH})\.?\s+\d{{4}}")
_WORD_NUM = "|".join(sorted((w for w in NUMBER_WORDS if w not in ("hundred", "thousand")), key=len, reverse=True))
_NUM = (rf"(?<![\w.])(?:\d{{1,3}}(?:,\d{{3}})+|\d+)(?:\.\d+)?(?:\s?(?:k|thousand|million|billion)\b)?"
        rf"|\b(?:{_WORD_NUM})\b")
_CUR = r"[$€£]|\b(?:usd|eur|gbp)\s?"
_UNITS = (r"business\s+days?|working\s+days?|calendar\s+days?|days?|hours?|hrs?|minutes?|mins?|seconds?|secs?"
          r"|weeks?|months?|years?|[kmgt]b|(?:kilo|mega|giga|tera)bytes?|characters?|users?|seats?|members?"
          r"|requests?|calls?|files?|projects?|attempts?|devices?|times?|notes?|pages?|items?|licen[cs]es?"
          r"|workspaces?|emails?|messages?|credits?|digits?|people|guests?|boards?|integrations?|tickets?"
          r"|versions?|copies|backups?|sessions?|reminders?|exports?|invoices?|installments?|languages?")
_RATE_UNITS = (r"month|mo|year|yr|user|seat|member|minute|hour|day|second|week|request|device|workspace|token"
               r"|key|account")
_VALUE = re.compile(
    rf"\b(?P<date>{_DATE})\b"
    rf"|(?P<between>between\s+)?(?P<cur>{_CUR})?(?P<num>{_NUM})"
    rf"(?:(?:\s?[-–]\s?|\s+to\s+|(?(between)\s+and\s+|(?!)))(?:{_CUR})?(?P<num2>{_NUM}))?"
    rf"(?P<unit>\s?%|\s?percent\b|\s(?:{_UNITS})\b)?"
    rf"(?P<rate>(?:\s?(?:per|a|an|each|every|/)\s?(?:{_RATE_UNITS})\b)+"
    rf"|\s(?:monthly|yearly|annually|daily|weekly|hourly)\b)?",
    re.I)
# The first verb ends the subject ("Refunds | are available within ...").
_VERB = re.compile(
    r"\b(?:is|are|was|were|will|can|cannot|can't|may|must|should|does|do|did|has|have|had|won't|isn't|aren't"
    r"|costs?|takes?|lasts?|expires?|renews?|includes?|allows?|supports?|offers?|provides?|gives?|gets?|get"
    r"|requires?|needs?|starts?|begins?|ends?|runs?|stays?|remains?|keeps?|stores?|holds?|covers?|charges?"
    r"|limits?|accepts?|receives?|ships?|arrives?|processes|retains?|deletes?|archives?|comes?|applies"
    r"|apply|reaches?|counts?|uses?|pays?|sends?|syncs?|caps?|permits?|bills?|expire|last|stay|remain"
    r"|replies|reply|responds?|appears?)\b",
    re.I)
_LEADING_CONDITION = re.compile(r"^(?:for|on|in|with|if|when|unless|during|outside|under)\b([^,]{1,80}),\s*", re.I)
_CONDITION = re.compile(r"\b(?:for|on|if|when|unless|in|with|without|outside|except|during|under)\b", re.I)
_PRONOUN = re.compile(r"^(?:it|they|this|these|that)$", re.I)
_AUX = {"is", "are", "was", "were", "be", "been", "being", "will", "would", "can", "could", "may", "might",
        "must", "should", "shall", "do", "does", "did", "has", "have", "had"}
_ADVERBS = {"usually", "typically", "normally", "generally", "always", "often", "currently", "now", "still",
            "also", "already", "sometimes"}
_KEEP = {"within", "up", "least", "most", "under", "over", "more", "less", "than", "after", "before", "until",
         "only", "minimum", "maximum", "every", "once"}
_UNIT_ALIASES = {"hr": "hour", "min": "minute", "sec": "second", "char": "character", "gigabyte": "gb",
                 "megabyte": "mb", "terabyte": "tb", "kilobyte": "kb", "licence": "license", "working day":
                 "business day", "calendar day": "day", "percent": "%", "mo": "month", "yr": "year",
                 "people": "person", "copie": "copy", "monthly": "month", "yearly": "year", "annually": "year",
                 "daily": "day", "weekly": "week", "hourly": "hour"}
_CURRENCIES = {"$": "usd", "€": "eur", "£": "gbp"}
_BYTES = {"kb": 1e-6, "mb": 1e-3, "tb": 1e3}
_SCALES = {"k": 1e3, "thousand": 1e3, "million": 1e6, "billion": 1e9}


@dataclass(frozen=True)
class Value:
    text: str                 # as written: "$49 per month"
    unit: str                 # normalised: "usd/month", "day", "%", "date", ""
    amounts: tuple            # normalised: (49.0,) or (("date", 2026, 3, 31),)

    def describe(self) -> str:
        shown = [describe(a) if isinstance(a, tuple) else describe(("num", a)) for a in self.amounts]
        return "-".join(shown) + (f" {self.unit}" if self.unit and self.unit != "date" else "")


@dataclass(frozen=True)
class Fact:
    entity: str
    attribute: str
    condition: str
    value: Value
    span: tuple[int, int]     # the value's characters in the sentence

    @property
    def key(self) -> str:
        return " | ".join(p for p in (self.entity, self.attribute, self.condition) if p)


def disagree(a: Fact, b: Fact) -> bool:
    """Same key and unit, different amounts: the two cannot both hold."""
    return a.key == b.key and a.value.unit == b.value.unit and a.value.amounts != b.value.amounts


def mismatches(left: list[Fact], right: list[Fact]) -> list[tuple[Fact, Fact]]:
    return [(a, b) for a in left for b in right if disagree(a, b)]


def _singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("s") and len(word) > 3 and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def _unit(match: re.Match) -> str:
    unit = " ".join((match.group("unit") or "").lower().split())
    unit = _UNIT_ALIASES.get(unit, unit)
    unit = _UNIT_ALIASES.get(_singular(unit), _singular(unit)) if unit != "%" else unit
    rates = re.split(r"\s*(?:\bper\b|\ba\b|\ban\b|\beach\b|\bevery\b|/)\s*", (match.group("rate") or "").lower())
    rate = "/".join(_UNIT_ALIASES.get(r.strip(), r.strip()) for r in rates if r.strip())  # "per user per month"
    currency = (match.group("cur") or "").strip().lower()
    currency = _CURRENCIES.get(currency, currency)
    base = " ".join(p for p in (currency, unit) if p)
    return f"{base}/{rate}" if rate else base


def _amount(text: str) -> float:
    text = text.strip().lower()
    m = re.match(r"([\d,]+(?:\.\d+)?)\s?(k|thousand|million|billion)?$", text)
    if m:
        return float(m.group(1).replace(",", "")) * _SCALES.get(m.group(2) or "", 1)
    return float(NUMBER_WORDS[text])


def _value(match: re.Match) -> Value | None:
    text = match.group(0).strip()
    if match.group("date"):
        return Value(text, "date", tuple(quantities(match.group("date"))))
    unit = _unit(match)
    if not unit and not match.group("num")[:1].isdigit():
        return None  # "one of", "two-factor": a word number needs a unit to be a value
    amounts = [_amount(match.group("num"))] + ([_amount(match.group("num2"))] if match.group("num2") else [])
    if unit.endswith("week") or unit.startswith("week"):
        amounts, unit = [a * 7 for a in amounts], unit.replace("week", "day")
    size = unit.split("/")[0]
    if size in _BYTES:  # 1 TB = 1000 GB
        amounts, unit = [a * _BYTES[size] for a in amounts], "gb" + unit[len(size):]
    return Value(text, unit, tuple(amounts))


def _entity(text: str) -> str:
    words = [w for w in tokens(text) if w not in STOPWORDS and w not in _ADVERBS]
    return " ".join(_singular(w) for w in words) or " ".join(tokens(text))


def _attribute(text: str) -> str:
    words = tokens(text)
    kept = ["not" if w in FACT_NEGATIONS else w for w in words
            if w in FACT_NEGATIONS or w in _KEEP or (w not in STOPWORDS and w not in _AUX)]
    if not [w for w in kept if w not in _KEEP and w != "not"]:
        # "has 10 seats", "is 30 days": the auxiliary is the only verb there is
        aux = [w for w in words if w in _AUX]
        kept = (["have" if aux[-1] in ("has", "have", "had") else "be"] if aux else []) + kept
    return " ".join(_singular(w) for w in kept)


def _condition(text: str) -> str:
    return " ".join(_singular(w) for w in tokens(text) if w not in STOPWORDS)


def _split_tail(tail: str) -> tuple[str, str]:
    """("of purchase", "for annual plans") parts of the text after a value: object, condition."""
    tail = FACT_TAIL_BREAKS.split(tail, maxsplit=1)[0]
    m = _CONDITION.search(tail)
    obj, cond = (tail[:m.start()], tail[m.end():]) if m else (tail, "")
    obj = obj if re.match(r"\s*of\b", obj, re.I) else ""
    return _condition(obj), _condition(cond)


def clause_facts(clause: str, offset: int = 0, inherited: str | None = None) -> tuple[list[Fact], str | None]:
    """Facts of one clause, and its entity (for a following clause that says 'it')."""
    leading = _LEADING_CONDITION.match(clause)
    condition = _condition(leading.group(1)) if leading else ""
    body_start = leading.end() if leading else 0
    verb = next((m for m in _VERB.finditer(clause, body_start) if clause[body_start:m.start()].strip()), None)
    if verb is None:
        return [], inherited
    subject = clause[body_start:verb.start()]
    if len(subject.split()) > 6:
        return [], inherited
    entity = inherited if (_PRONOUN.match(subject.strip()) and inherited) else _entity(subject)
    facts: list[Fact] = []
    cursor, attribute = verb.start(), ""
    values = [m for m in _VALUE.finditer(clause, verb.start())]
    for i, m in enumerate(values):
        value = _value(m)
        before = clause[cursor:m.start()]
        if i:  # after a first value, only what follows the last conjunction names the attribute
            before = FACT_ATTRIBUTE_BREAKS.split(before)[-1]
        attribute = _attribute(before) or attribute
        end = values[i + 1].start() if i + 1 < len(values) else len(clause)
        obj, cond = _split_tail(clause[m.end():end])
        cursor = m.end()
        if value is None or not attribute:
            continue
        full_attribute = f"{attribute} {obj}".strip()
        facts.append(Fact(entity, full_attribute, " ".join(p for p in (condition, cond) if p), value,
                          (offset + m.start(), offset + m.end())))
    return facts, entity


@byte_cached(8 * MB)
def sentence_facts(sentence: str) -> tuple[Fact, ...]:
    """Facts of one sentence (questions have none); value spans are sentence offsets."""
    text = sentence.rstrip()
    if not text or text.endswith("?"):
        return ()
    out: list[Fact] = []
    entity = None
    for start, end in clause_spans(text, 0, len(text)):
        found, entity = clause_facts(text[start:end].rstrip(".!"), start, entity)
        out.extend(found)
    return tuple(out)


@byte_cached(16 * MB)
def text_facts(text: str) -> tuple[tuple[str, Fact], ...]:
    """(sentence, fact) for every fact in a passage or chunk."""
    return tuple((text[s:e], f) for s, e in sentence_spans(text) for f in sentence_facts(text[s:e]))
