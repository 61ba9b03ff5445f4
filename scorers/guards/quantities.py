"""Quantities with their units and rates, read from spaCy tokens, for the arithmetic guard.

"$12 per user per month" -> 12, unit "usd", rate "user/month"
"20 weeks"               -> 20, unit "week"
"2.5%"                   -> 2.5, unit "%"  (decimals 1: the claim's rounding)
"$1.2M"                  -> 1_200_000, unit "usd" (decimals 1 at scale 1e6)
Dates are blanked first (scorers.numbers) so that 2026-06-30 gives no 2026, 6 or 30.
Number words go through word2number ("twenty-five" -> 25).
Unit conversions (weeks <-> days, per month <-> per year, GB <-> TB) come from pint.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from groundwatch.scorers.guards.lemmas import Token, analyse
from groundwatch.scorers.guards.lexicon import HEDGES
from groundwatch.scorers.numbers import NUMBER_WORDS, _dates

_CURRENCY = {"$": "usd", "€": "eur", "£": "gbp", "usd": "usd", "eur": "eur", "gbp": "gbp", "dollar": "usd",
             "euro": "eur", "pound": "gbp"}
_SCALE = {"thousand": 1e3, "k": 1e3, "million": 1e6, "m": 1e6, "mn": 1e6, "billion": 1e9, "bn": 1e9, "b": 1e9}
# Units pint can convert between (lemma -> pint unit name).
PINT_UNITS = {"second": "second", "sec": "second", "minute": "minute", "min": "minute", "hour": "hour",
              "hr": "hour", "day": "day", "week": "week", "month": "month", "year": "year", "kb": "kilobyte",
              "mb": "megabyte", "gb": "gigabyte", "tb": "terabyte", "kilobyte": "kilobyte",
              "megabyte": "megabyte", "gigabyte": "gigabyte", "terabyte": "terabyte"}
_RATE_ADVERBS = {"monthly": "month", "yearly": "year", "annually": "year", "daily": "day", "weekly": "week",
                 "hourly": "hour"}
_COMPARATIVES = frozenset({"more", "less", "extra", "cheaper", "higher", "lower", "additional"})
_RATE_WORDS = frozenset({"per", "a", "an", "each", "every", "/"})
_GLUED = re.compile(r"^(\d[\d,]*(?:\.\d+)?)([kKmMbB]n?|x)\.?$")
_NUM = re.compile(r"^\d[\d,]*(?:\.\d+)?$")
_NOT_UNITS = frozenset({"and", "or", "to", "of", "in", "on", "at", "for", "from", "with", "by", "the", "than",
                        "more", "less", "up", "per", "a", "an", "each", "every", "-", "–", "/", "(", ")", ","})


@dataclass(frozen=True)
class Quantity:
    value: float
    unit: str          # "usd", "%", "week", "tablet", "" ...
    rate: str          # "month", "user/month", "" ...
    text: str          # as written
    start: int
    end: int
    decimals: int      # digits after the point as written (scaled: "$1.2M" -> 1 at 1e6)
    scale: float = 1.0
    hedged: bool = False
    ratio: bool = False  # "10x", "3 times"

    @property
    def tolerance(self) -> float:
        """Half a unit of the last digit written: "15%" covers 14.5 to 15.5; a hedge allows 5%."""
        tol = 0.5 * 10 ** (-self.decimals) * self.scale
        return max(tol, 0.05 * abs(self.value)) if self.hedged else tol

    @property
    def key(self) -> str:
        return f"{self.unit}/{self.rate}" if self.rate else self.unit

    def describe(self) -> str:
        return format_value(self.value, self.unit, self.rate)


def format_value(value: float, unit: str, rate: str = "") -> str:
    shown = f"{value:,.4f}".rstrip("0").rstrip(".")
    prefix = {"usd": "$", "eur": "€", "gbp": "£"}.get(unit, "")
    suffix = "%" if unit == "%" else (f" {unit}" if unit and not prefix else "")
    return f"{prefix}{shown}{suffix}" + (f" per {rate.replace('/', ' per ')}" if rate else "")


def _number(tokens: tuple[Token, ...], i: int) -> tuple[float, int, int, float, bool] | None:
    """(value, decimals, next index, scale, ratio) of a number starting at token i."""
    tok = tokens[i]
    text = tok.text.lower()
    glued = _GLUED.match(tok.text)
    if _NUM.match(text) or glued:
        digits = glued.group(1) if glued else text
        value = float(digits.replace(",", ""))
        decimals = len(digits.split(".")[1]) if "." in digits else 0
        scale, ratio, j = 1.0, False, i + 1
        if glued:
            suffix = glued.group(2).lower()
            ratio = suffix == "x"
            scale = 1.0 if ratio else _SCALE.get(suffix, 1.0)
        elif j < len(tokens) and tokens[j].text.lower() in _SCALE:
            word = tokens[j].text.lower()
            if len(word) > 2 or tokens[j].start == tok.end:  # "5 m" may be metres; "5m" and "5 million" are not
                scale, j = _SCALE[word], j + 1
        return value * scale, decimals, j, scale, ratio
    if text not in NUMBER_WORDS or text in ("hundred", "thousand"):
        return None
    words, j = [], i
    while j < len(tokens):
        word = tokens[j].text.lower()
        joins = word in ("-", "and") and words and j + 1 < len(tokens) and tokens[j + 1].text.lower() in NUMBER_WORDS
        if word in NUMBER_WORDS or word in ("million", "billion"):
            words.append(word)
        elif not joins:
            break
        j += 1
    from word2number import w2n

    try:
        value = float(w2n.word_to_num(" ".join(words)))
    except ValueError:
        return None
    return value, 0, j, 1.0, False


def _unit_and_rate(tokens: tuple[Token, ...], j: int, currency: bool = False) -> tuple[str, str, int]:
    unit, rate = "", []
    if j < len(tokens) and (tokens[j].text == "%" or tokens[j].lemma in ("percent", "percentage")):
        unit, j = "%", j + 1
        if j < len(tokens) and tokens[j].lemma == "point":
            unit, j = "pp", j + 1
    elif j + 1 < len(tokens) and tokens[j].lemma == "per" and tokens[j + 1].lemma == "cent":
        unit, j = "%", j + 2
    else:
        if j + 1 < len(tokens) and tokens[j].text == "-" and tokens[j + 1].content:  # "14-day"
            j += 1
        if j < len(tokens) and tokens[j].text.lower() in ("business", "working", "calendar") and j + 1 < len(
                tokens) and tokens[j + 1].lemma == "day":
            unit = "day" if tokens[j].text.lower() == "calendar" else "business day"
            j += 2
        elif j < len(tokens) and tokens[j].lemma in PINT_UNITS:
            unit, j = tokens[j].lemma, j + 1
        elif j < len(tokens) and tokens[j].lemma in ("time", "x", "fold"):
            unit, j = "x", j + 1
        elif (not currency and j < len(tokens) and tokens[j].content and tokens[j].text.lower() not in _NOT_UNITS
              and not tokens[j].is_number):
            unit, j = tokens[j].lemma, j + 1
    # "$17 more per user per month": a comparative between the amount and its rate
    if j + 1 < len(tokens) and tokens[j].text.lower() in _COMPARATIVES and tokens[j + 1].text.lower() in _RATE_WORDS:
        j += 1
    while (j + 1 < len(tokens) and tokens[j].text.lower() in _RATE_WORDS and tokens[j + 1].content
           and not tokens[j + 1].is_number):
        rate.append(tokens[j + 1].lemma)
        j += 2
    if not rate and j < len(tokens) and tokens[j].text.lower() in _RATE_ADVERBS:
        rate.append(_RATE_ADVERBS[tokens[j].text.lower()])
        j += 1
    return unit, "/".join(rate), j


@lru_cache(maxsize=8192)
def read(text: str) -> tuple[Quantity, ...]:
    """Every quantity in a text with its unit, rate and the precision it was written with."""
    _, blanked = _dates(text)
    tokens = analyse(blanked).tokens
    out: list[Quantity] = []
    i = 0
    while i < len(tokens):
        parsed = _number(tokens, i)
        if parsed is None:
            i += 1
            continue
        value, decimals, j, scale, ratio = parsed
        currency = ""
        k = i - 1
        if k >= 0 and tokens[k].text.lower() in _CURRENCY:
            currency = _CURRENCY[tokens[k].text.lower()]
        unit, rate, end = ("", "", j) if ratio else _unit_and_rate(tokens, j, bool(currency))
        if unit in _CURRENCY:  # "20 euros"
            currency, unit = _CURRENCY[unit], ""
        if unit == "x":
            ratio, unit = True, ""
        if tokens[i].text.lower() == "one" and not unit and not currency:
            i = j
            continue  # "one of the", "one-time": not a quantity
        first = k + (0 if currency else 1)
        hedged = any(t.lemma in HEDGES for t in tokens[max(0, first - 2):first])
        start = tokens[first].start
        stop = tokens[end - 1].end if end > i else tokens[i].end
        if text[start:stop].endswith(".") and _GLUED.match(tokens[end - 1].text):
            stop -= 1  # "$230M." at the end of a sentence
        out.append(Quantity(value, currency or unit if not (currency and unit == "%") else "%", rate,
                            text[start:stop], start, stop, decimals, scale, hedged, ratio))
        i = max(end, i + 1)
    return tuple(_ranges(out, text))


_RANGE_GAPS = frozenset({"to", "-", "–", "or", "and"})


def _ranges(found: list[Quantity], text: str) -> list[Quantity]:
    """"5 to 10 business days", "$12 or $15 per month": the first number takes the unit of the second."""
    out = list(found)
    for n in range(len(out) - 2, -1, -1):
        a, b = out[n], out[n + 1]
        if not a.unit and not a.rate and text[a.end:b.start].strip().lower() in _RANGE_GAPS:
            out[n] = Quantity(a.value, b.unit, b.rate, a.text, a.start, a.end, a.decimals, a.scale, a.hedged,
                              a.ratio)
    return out


@lru_cache(maxsize=1)
def _registry():
    import pint

    return pint.UnitRegistry()


_SHORT = {"sec": "second", "min": "minute", "hr": "hour", "kilobyte": "kb", "megabyte": "mb", "gigabyte": "gb",
          "terabyte": "tb"}
# Conversions people write: neighbouring time units and byte multiples (not years in hours).
_NEIGHBOURS = frozenset({("second", "minute"), ("minute", "hour"), ("hour", "day"), ("day", "week"),
                         ("week", "month"), ("month", "year"), ("week", "year"), ("day", "month"),
                         ("kb", "mb"), ("mb", "gb"), ("gb", "tb")})


@lru_cache(maxsize=1024)
def factor(source: str, target: str) -> float | None:
    """How many `target` units one `source` unit is (week -> day: 7), or None if not a conversion one writes."""
    if source == target:
        return 1.0
    if source not in PINT_UNITS or target not in PINT_UNITS:
        return None
    pair = (_SHORT.get(source, source), _SHORT.get(target, target))
    if pair not in _NEIGHBOURS and pair[::-1] not in _NEIGHBOURS:
        return None
    ureg = _registry()
    try:
        value = ureg.Quantity(1, PINT_UNITS[source]).to(PINT_UNITS[target]).magnitude
    except Exception:  # noqa: BLE001 - pint raises DimensionalityError for days -> gigabytes
        return None
    # A calendar year is 12 months and 52 weeks for policy text, not pint's 365.25-day Julian year.
    value = float(f"{value:.12g}")
    return {("year", "month"): 12.0, ("month", "year"): 1 / 12}.get((source, target), value)
