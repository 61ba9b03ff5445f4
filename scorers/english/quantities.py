"""The quantity reader: numbers, dates, units and rates, times of day, durations, word numbers.

Two reads of the same text, both here: `read()` takes spaCy tokens and gives each quantity its unit and
rate; `quantities()` is the regex value reader the numbers check compares by (normalised numbers and
dates, `passage_quantities`, `present`). Unit conversions are in scorers.english.units.

From the tokens:
"$12 per user per month" -> 12, unit "usd", rate "user/month"
"20 weeks"               -> 20, unit "week"
"2.5%"                   -> 2.5, unit "%"  (decimals 1: the claim's rounding)
"$1.2M"                  -> 1_200_000, unit "usd" (decimals 1 at scale 1e6)
"8 pm", "20:00", "noon"  -> 20.0 / 20.0 / 12.0, unit "clock" (hours after midnight)
"2:00 pm to 3:30 pm"     -> the two times, plus the duration 1.5, unit "hour" (`span`)
"1.2 km", "2,500 grams"  -> 1.2 "km", 2500 "g"; "a week", "an hour" -> 1 "week", 1 "hour"
Dates are blanked first (`_dates`) so that 2026-06-30 gives no 2026, 6 or 30.
Number words go through word2number ("twenty-five" -> 25).
Unit conversions (weeks <-> days, per month <-> per year, GB <-> TB, km <-> metres, kg <-> grams) come from
pint through scorers.english.units. The arithmetic guard reads the claim and passages with it, and the
numbers check accepts what it derives (scorers/guards/checks.py), so there is no second normaliser. English-only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from groundwatch.scorers.byte_cache import MB, byte_cached
from groundwatch.scorers.english.lemmas import Token, analyse
from groundwatch.scorers.english.lexicon import HEDGES
from groundwatch.scorers.english.units import NUMBER_WORDS, PINT_UNITS, SHORT_UNITS, factor

# -- numbers and dates as values (`quantities`) ------------------------------
# Numbers and dates in text, normalised so formatting differences still match:
# 1,000 = 1000, thirty = 30, 5% = 5 percent, 2026-01-05 = 5 January 2026 =
# January 5, 2026. Dates normalise to ('date', y, m, d) (or ('month', y, m), and ('day', m, d) for
# "12 March" without a year); numbers to ('num', value) with percentages as ('pct', value).
_TENS = {k: v for k, v in NUMBER_WORDS.items() if v in (20, 30, 40, 50, 60, 70, 80, 90)}
_SCALES = {"hundred": 100, "thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000}
MONTH_NAMES = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
               "november", "december")
MONTHS = {m: i + 1 for i, m in enumerate(MONTH_NAMES)}
MONTHS.update({m[:3]: i for m, i in list(MONTHS.items())})
MONTHS["sept"] = 9

_MONTH_RE = r"(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\.?"
_ISO = re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")
_DMY = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH_RE},?\s+(\d{{4}})\b", re.I)
_MDY = re.compile(rf"\b{_MONTH_RE}\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b", re.I)
_MY = re.compile(rf"\b{_MONTH_RE}\s+(\d{{4}})\b", re.I)
_DM = re.compile(rf"(?<![\w.,:])(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH_RE}(?!\w)", re.I)
_MD = re.compile(rf"\b{_MONTH_RE}\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?![.,:]?\d)", re.I)
_NUMERIC = re.compile(r"(?<![\w.])[-+]?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(\s?(?:%|percent\b|per cent\b))?"
                      r"(\s?(?:million|billion|thousand|k)\b)?", re.I)
_WORD_NUMBER = re.compile(
    r"\b((?:" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True)) + r")(?:[- ](?:"
    + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True)) + r"))*)(\s?(?:%|percent\b|per cent\b))?", re.I)


def _date(y: str, m: int, d: str | None) -> tuple:
    return ("date", int(y), m, int(d)) if d else ("month", int(y), m)


def _dates(text: str) -> tuple[list[tuple], str]:
    """Dates found, and the text with them blanked out (so 5 and 2026 are not numbers too)."""
    found = []
    chars = list(text)

    def blank(m):
        for i in range(m.start(), m.end()):
            chars[i] = " "

    for m in _ISO.finditer(text):
        found.append(_date(m.group(1), int(m.group(2)), m.group(3)))
        blank(m)
    for pattern, order in ((_DMY, "dmy"), (_MDY, "mdy")):
        for m in pattern.finditer("".join(chars)):
            if order == "dmy":
                found.append(_date(m.group(3), MONTHS[m.group(2).lower().rstrip(".")], m.group(1)))
            else:
                found.append(_date(m.group(3), MONTHS[m.group(1).lower().rstrip(".")], m.group(2)))
            blank(m)
    for m in _MY.finditer("".join(chars)):
        found.append(_date(m.group(2), MONTHS[m.group(1).lower().rstrip(".")], None))
        blank(m)
    # Without a year: "12 March", "March 12th" ("18 may apply" is no date: the month May is capitalised).
    for pattern, day, month in ((_DM, 1, 2), (_MD, 2, 1)):
        for m in pattern.finditer("".join(chars)):
            name, key = m.group(month), m.group(month).lower().rstrip(".")
            if key == "may" and name != "May" or not 1 <= int(m.group(day)) <= 31:
                continue
            found.append(("day", MONTHS[key], int(m.group(day))))
            blank(m)
    return found, "".join(chars)


def _word_value(phrase: str) -> float | None:
    total, current = 0, 0
    for word in re.split(r"[- ]", phrase.lower()):
        if word in _SCALES:
            current = max(current, 1) * _SCALES[word]
            if _SCALES[word] >= 1000:
                total, current = total + current, 0
        elif word in NUMBER_WORDS:
            current += NUMBER_WORDS[word]
        else:
            return None
    return float(total + current)


def quantities(text: str) -> list[tuple]:
    """Normalised numbers and dates mentioned in text."""
    found, rest = _dates(text)
    for m in _NUMERIC.finditer(rest):
        value = float(m.group(1).replace(",", "") + (m.group(2) or ""))
        scale = (m.group(4) or "").strip().lower()
        value *= {"million": 1e6, "billion": 1e9, "thousand": 1e3, "k": 1e3}.get(scale, 1)
        found.append(("pct", value) if m.group(3) else ("num", value))
    for m in _WORD_NUMBER.finditer(rest):
        value = _word_value(m.group(1))
        if value is None or m.group(1).lower() in ("one",):
            continue  # "one of the ..." is rarely a quantity
        found.append(("pct", value) if m.group(2) else ("num", value))
    return found


def passage_quantities(texts: list[str]) -> set[tuple]:
    """Every quantity in the passages, plus the parts of dates (a year alone is a number too)."""
    out: set[tuple] = set()
    for text in texts:
        for q in quantities(text):
            out.add(q)
            if q[0] == "pct":
                out.add(("num", q[1]))
            if q[0] in ("date", "month"):
                out.add(("num", float(q[1])))
                out.add(("month", q[1], q[2]))
                if q[0] == "date":
                    out.add(("num", float(q[3])))
                    out.add(("day", q[2], q[3]))
            if q[0] == "day":
                out.add(("num", float(q[2])))
    return out


def present(q: tuple, available: set[tuple]) -> bool:
    """A quantity is among the passages' quantities (a percentage matches the bare number and back; a date
    matches its day and month written without the year, "March 4th", where the passages state that year)."""
    if q in available:
        return True
    if q[0] == "date":
        return ("day", q[2], q[3]) in available and ("num", float(q[1])) in available
    if q[0] == "pct":
        return ("num", q[1]) in available
    if q[0] == "num":
        return ("pct", q[1]) in available
    return False


def describe(q: tuple) -> str:
    if q[0] == "date":
        return f"{q[1]:04d}-{q[2]:02d}-{q[3]:02d}"
    if q[0] == "month":
        return f"{q[1]:04d}-{q[2]:02d}"
    if q[0] == "day":
        return f"--{q[1]:02d}-{q[2]:02d}"  # ISO 8601 without the year
    value = int(q[1]) if float(q[1]).is_integer() else q[1]
    return f"{value}%" if q[0] == "pct" else str(value)


# -- quantities from tokens (`read`) -----------------------------------------

_CURRENCY = {"$": "usd", "€": "eur", "£": "gbp", "usd": "usd", "eur": "eur", "gbp": "gbp", "dollar": "usd",
             "euro": "eur", "pound": "gbp"}
_SCALE = {"thousand": 1e3, "k": 1e3, "million": 1e6, "m": 1e6, "mn": 1e6, "billion": 1e9, "bn": 1e9, "b": 1e9}
# "square metres", "cubic metres": a length unit after one of these words is an area or a volume.
_POWERS = {("square", "m"): "sq_m", ("square", "km"): "sq_km", ("square", "foot"): "sq_ft", ("sq", "m"): "sq_m",
           ("sq", "km"): "sq_km", ("sq", "foot"): "sq_ft", ("cubic", "m"): "cu_m"}
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
    span: bool = False   # a duration read off a time range ("2:00 pm to 3:30 pm"), not a number as written

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
    if unit == "clock":  # hours after midnight, shown as a time of day
        minutes = round(value * 60) % (24 * 60)
        return f"{minutes // 60:02d}:{minutes % 60:02d}"
    shown = f"{value:,.4f}".rstrip("0").rstrip(".")
    prefix = {"usd": "$", "eur": "€", "gbp": "£"}.get(unit, "")
    suffix = "%" if unit == "%" else (f" {unit}" if unit and not prefix else "")
    return f"{prefix}{shown}{suffix}" + (f" per {rate.replace('/', ' per ')}" if rate else "")


_CLOCK = re.compile(r"^(\d{1,2})(?:[:.](\d{2}))?(am|pm|a\.m\.|p\.m\.)?$")
_MERIDIEM = frozenset({"am", "pm", "a.m.", "p.m.", "a.m", "p.m"})
_NOON = {"noon": 12.0, "midday": 12.0, "midnight": 0.0}
_CLOCK_DECIMALS = 4  # a time of day is exact: 20:00 is not 20:29


def _clock(tokens: tuple[Token, ...], i: int) -> tuple[float, int] | None:
    """(hours after midnight, next index) of a time of day at token i: "8 pm", "8:30pm", "20:00", "noon"."""
    text = tokens[i].text.lower()
    if text in _NOON:
        return _NOON[text], i + 1
    m = _CLOCK.match(text)
    if not m:
        return None
    meridiem, j = m.group(3), i + 1
    if meridiem is None and j < len(tokens) and tokens[j].text.lower() in _MERIDIEM:
        meridiem, j = tokens[j].text.lower(), j + 1
    hours, minutes = int(m.group(1)), int(m.group(2) or 0)
    if meridiem is None and not (m.group(2) and ":" in text):  # "8" alone, "9.30": not a time of day
        return None
    if minutes >= 60 or hours > (12 if meridiem else 23) or (meridiem and hours == 0):
        return None
    if meridiem:
        hours = hours % 12 + (12 if meridiem.startswith("p") else 0)
    return hours + minutes / 60, j


# Spoken times of day ("half past four in the morning", "a quarter to eight", "ten past three pm", "nine o'clock
# at night") are read only with the part of the day they name: "half past eight" alone is 08:30 or 20:30.
_DAY_PARTS = {"morning": "am", "afternoon": "pm", "evening": "pm", "night": "night"}  # 11 at night, 2 at night
_SPOKEN_MINUTES = {"half": 30, "quarter": 15}
_PAST, _TO = frozenset({"past", "after"}), frozenset({"to", "before"})


def _int(token: Token) -> int | None:
    return int(token.lemma) if token.lemma.isdigit() else None


def _day_part(tokens: tuple[Token, ...], j: int) -> tuple[str | None, int]:
    """("am" | "pm" | "night" | None, index after the words that said so when they follow at once)."""
    words = [t.text.lower().rstrip("s") for t in tokens[j:j + 3]]  # "evening" lemmatises to "even"
    if words[:1] and tokens[j].text.lower() in _MERIDIEM:
        return ("pm" if tokens[j].text.lower().startswith("p") else "am"), j + 1
    if words[:2] == ["in", "the"] and len(words) == 3 and words[2] in _DAY_PARTS:
        return _DAY_PARTS[words[2]], j + 3
    if words[:2] == ["at", "night"]:
        return "night", j + 2
    for t in tokens[j:j + 4]:  # "a quarter to eight on weekday mornings"
        if t.is_punct:
            break
        if t.text.lower().rstrip("s") in _DAY_PARTS:
            return _DAY_PARTS[t.text.lower().rstrip("s")], j
    return None, j


def _spoken_clock(tokens: tuple[Token, ...], i: int) -> tuple[float, int] | None:
    """(hours after midnight, next index) of a spoken time of day at token i, with its part of the day."""
    j, minutes = i, None
    if tokens[j].lemma == "a" and j + 1 < len(tokens) and tokens[j + 1].lemma == "quarter":
        j += 1
    if tokens[j].lemma in _SPOKEN_MINUTES:
        minutes, j = _SPOKEN_MINUTES[tokens[j].lemma], j + 1
    elif _int(tokens[j]) is not None and 1 <= _int(tokens[j]) <= 59 and j + 1 < len(tokens) and (
            tokens[j + 1].lemma in _PAST | _TO or tokens[j + 1].lemma == "minute"):
        minutes, j = _int(tokens[j]), j + (2 if tokens[j + 1].lemma == "minute" else 1)
    if minutes is not None:
        if j + 1 >= len(tokens) or tokens[j].lemma not in _PAST | _TO or (minutes == 30 and tokens[j].lemma in _TO):
            return None
        sign, hour, j = (1 if tokens[j].lemma in _PAST else -1), _int(tokens[j + 1]), j + 2
    elif _int(tokens[j]) is not None and j + 1 < len(tokens) and tokens[j + 1].lemma == "o'clock":
        sign, hour, minutes, j = 1, _int(tokens[j]), 0, j + 2
    else:
        return None
    if hour is None or not 1 <= hour <= 12:
        return None
    part, end = _day_part(tokens, j)
    if part is None:
        return None
    afternoon = part == "pm" or part == "night" and hour >= 6
    return (hour % 12 + (12 if afternoon else 0) + sign * minutes / 60) % 24, end


_FREQUENCY = frozenset({"once", "twice", "thrice", "time", "per", "every", "each", "a", "an"})
# "a week", "an hour": one of a unit one writes as a word; not a rate ("twice a month", "$5 a month"), and not
# a unit that is also an ordinal or an abbreviation ("a second factor", "a min", "a m").
_ONE = frozenset({"a", "an"})
# ...and only where a duration or distance is written: after a preposition or a verb of time ("within a week",
# "takes an hour"), not after a noun, where it is a rate ("10 days of leave a year", "6 withdrawals a year").
_ONE_AFTER = frozenset({"for", "within", "in", "after", "over", "than", "about", "around", "roughly", "nearly",
                        "almost", "under", "least", "most", "just", "only", "to", "by", "of", "from", "be", "take",
                        "last", "spend", "wait", "need", "give", "get", "allow", "keep", "extend", "run", "and", "or",
                        "another", "(", ","})
_ONE_UNITS = frozenset({"minute", "hour", "day", "week", "month", "year", "kilometre", "kilometer", "mile", "metre",
                        "meter", "kilogram", "kilo", "gram", "tonne", "megabyte", "gigabyte", "terabyte"})


_FRACTIONS = {"half": 0.5, "quarter": 0.25, "third": 1 / 3}
_FRACTION_DECIMALS = 3  # "half a year" is exactly 0.5 of one
# A change by a fraction ("rising by a third", "a fifth bigger"): the fraction as a percentage.
_PROPORTIONS = {"half": 50.0, "third": 100 / 3, "quarter": 25.0, "fifth": 20.0, "sixth": 100 / 6, "eighth": 12.5,
                "tenth": 10.0}
_PROPORTION_COMPARATIVES = frozenset({"bigger", "larger", "smaller", "more", "less", "fewer", "higher", "lower",
                                      "cheaper", "longer", "shorter"})


def _fraction_word(token: Token) -> str:
    """"third", "thirds" -> "third" (spaCy lemmatises "third" to "3")."""
    word = token.text.lower()
    return word[:-1] if word.endswith("s") and word[:-1] in _PROPORTIONS else word


def _fraction(tokens: tuple[Token, ...], i: int) -> tuple[float, int] | None:
    """(value, index of the unit) of "half a year", "a quarter of a gigabyte", "three quarters of an hour"."""
    count, j = 1, i
    if tokens[j].lemma in _ONE:
        j += 1
    elif _int(tokens[j]) is not None and 1 <= _int(tokens[j]) <= 3:
        count, j = _int(tokens[j]), j + 1
    if j >= len(tokens) or _fraction_word(tokens[j]) not in _FRACTIONS:
        return None
    value, j = count * _FRACTIONS[_fraction_word(tokens[j])], j + 1
    if j < len(tokens) and tokens[j].lemma == "of":
        j += 1
    if j + 1 < len(tokens) and tokens[j].lemma in _ONE and tokens[j + 1].lemma in PINT_UNITS:
        return value, j + 1
    return None


def _proportion(tokens: tuple[Token, ...], i: int) -> tuple[float, str, int] | None:
    """(value, "%" or "pp", next index) of a change by a fraction at token i: "(by) a third", "(by) half",
    "two thirds (more)", "a fifth bigger", "(by) half a percentage point". Only after "by" or before a
    comparative: "a fifth" alone is an ordinal, "half a year" a duration (_fraction)."""
    count, j = 1, i
    if tokens[j].lemma in _ONE or tokens[j].text.lower() == "one":
        j += 1
    elif tokens[j].text.lower() in ("two", "three"):
        count, j = 2 if tokens[j].text.lower() == "two" else 3, j + 1
    if j >= len(tokens) or _fraction_word(tokens[j]) not in _PROPORTIONS:
        return None
    if j == i and tokens[j].text.lower() != "half":  # "by half"; "by third" is no proportion
        return None
    value, j = count * _PROPORTIONS[_fraction_word(tokens[j])], j + 1
    after = [t.lemma for t in tokens[j:j + 4]]
    for words in (["a", "percentage", "point"], ["of", "a", "percentage", "point"]):  # "half a percentage point"
        if after[:len(words)] == words:
            return value / 100, "pp", j + len(words)
    if after[:1] and after[0] in ("a", "of"):
        return None  # "half a year", "a third of the seats"
    by = i > 0 and tokens[i - 1].lemma == "by"
    if not by and not (j < len(tokens) and tokens[j].text.lower() in _PROPORTION_COMPARATIVES):
        return None
    return value, "%", j


# A share of a group ("half of all tickets", "a quarter of orders", "three out of four customers", "one in ten"):
# the share as a percentage, so "25% of orders" is found in "a quarter of all orders". Not before "a"/"an"/"one":
# "a quarter of an hour" is a duration (_fraction).
_SHARE_THE = frozenset({"the", "all", "our", "your", "their", "its", "his", "her", "these", "those"})
_PART_OF_A_WHOLE = frozenset({"first", "second", "third", "fourth", "last", "final", "latter", "former", "other",
                              "top", "bottom", "upper", "lower", "front", "back", "early", "late", "opening"})


def _share_count(token: Token) -> int | None:
    """A cardinal as written: "third" and "second" have the lemmas "3" and "2" ("the third quarter")."""
    text = token.text.lower()
    if text in _ONE:
        return 1
    return _int(token) if text.isdigit() or text in NUMBER_WORDS else None


def _share(tokens: tuple[Token, ...], i: int) -> tuple[float, int] | None:
    """(percentage, next index) of a share at token i: "half of", "half the", "two thirds of", "one in four",
    "3 out of 4"."""
    if i and tokens[i - 1].text.lower() in _PART_OF_A_WHOLE:
        return None  # "the second half of the year" is a period
    j, count = i, _share_count(tokens[i])
    if count is not None:
        j += 1
    if j < len(tokens) and _fraction_word(tokens[j]) in _PROPORTIONS and (count is not None or
                                                                           tokens[j].text.lower() == "half"):
        value = (count or 1) * _PROPORTIONS[_fraction_word(tokens[j])]
        after = [t.text.lower() for t in tokens[j + 1:j + 3]]
        if after[:1] == ["of"] and after[1:] and after[1] not in ("a", "an", "one") or (
                tokens[j].text.lower() == "half" and count is None and after[:1] and after[0] in _SHARE_THE):
            return (value, j + 1) if value <= 100 else None
        return None
    if count is None or j >= len(tokens):
        return None
    words = [t.text.lower() for t in tokens[j:j + 2]]
    if words[:1] == ["in"]:
        k = j + 1
    elif words == ["out", "of"]:
        k = j + 2
    else:
        return None
    whole = _int(tokens[k]) if k < len(tokens) else None
    if whole is None or not count < whole <= 1000 or k + 1 < len(tokens) and tokens[k + 1].lemma in PINT_UNITS:
        return None  # "5 in 2025", "2 in 3 days"
    return 100 * count / whole, k + 1


_A_NUMBER = {"hundred": 100.0, "thousand": 1000.0, "million": 1e6, "billion": 1e9, "pair": 2.0}


def _dozen(tokens: tuple[Token, ...], i: int) -> tuple[float, int, int, float, bool] | None:
    """"a dozen", "half a dozen", "two dozen", "a thousand", "a pair of": 12, 6, 24, 1000, 2."""
    words = [t.text.lower() for t in tokens[i:i + 3]]
    for prefix, value in ((["half", "a"], 6.0), (["a"], 12.0), (["two"], 24.0), (["three"], 36.0)):
        if words[:len(prefix) + 1] == prefix + ["dozen"]:
            return value, 0, i + len(prefix) + 1, 1.0, False
    if words[:1] == ["a"] and words[1:2] and words[1] in _A_NUMBER:  # "a thousand lockers", "a pair of"
        return _A_NUMBER[words[1]], 0, i + (3 if words[1:3] == ["pair", "of"] else 2), 1.0, False
    return None


_PENCE = re.compile(r"^(\d+(?:\.\d+)?)p$")  # "50p", "24.5p": pence, read as pounds


def _decimals(digits: str) -> int:
    """Digits after the point as written: "24.5" -> 1."""
    return len(digits.split(".")[1]) if "." in digits else 0


def _number(tokens: tuple[Token, ...], i: int) -> tuple[float, int, int, float, bool] | None:
    """(value, decimals, next index, scale, ratio) of a number starting at token i."""
    tok = tokens[i]
    text = tok.text.lower()
    fraction = _fraction(tokens, i)
    if fraction is not None:
        return fraction[0], _FRACTION_DECIMALS, fraction[1], 1.0, False
    pence = _PENCE.match(tok.text)
    if pence:
        return float(pence.group(1)) / 100, _decimals(pence.group(1)) + 2, i + 1, 1.0, False
    if (text in _ONE and i + 1 < len(tokens) and tokens[i + 1].lemma in _ONE_UNITS
            and (not i or tokens[i - 1].lemma in _ONE_AFTER)):
        return 1.0, _FRACTION_DECIMALS, i + 1, 1.0, False  # "an hour" is exactly one, not 0.5 to 1.5
    dozen = _dozen(tokens, i)
    if dozen is not None:
        return dozen
    glued = _GLUED.match(tok.text)
    if _NUM.match(text) or glued:
        digits = glued.group(1) if glued else text
        value = float(digits.replace(",", ""))
        decimals = _decimals(digits)
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


def _power(tokens: tuple[Token, ...], j: int) -> str | None:
    """The area or volume unit of "square metres", "sq km", "cubic metres" at token j, or None."""
    if j + 1 >= len(tokens) or tokens[j].lemma not in ("square", "sq", "cubic"):
        return None
    return _POWERS.get((tokens[j].lemma, SHORT_UNITS.get(tokens[j + 1].lemma, tokens[j + 1].lemma)))


def _unit_word(token: Token) -> bool:
    """A word that may name what a number counts ("3 tablets"), not a particle or another number."""
    return token.content and token.text.lower() not in _NOT_UNITS and not token.is_number


def _per_second(tokens: tuple[Token, ...], j: int) -> bool:
    """"per second": the unit, though "second" alone has the ordinal's lemma "2" ("the second floor")."""
    return tokens[j].text.lower() in ("per", "/") and tokens[j + 1].text.lower() == "second"


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
                tokens) and tokens[j + 1].lemma in ("day", "week"):
            kind = tokens[j + 1].lemma
            unit = kind if tokens[j].text.lower() == "calendar" else f"business {kind}"
            j += 2
        elif _power(tokens, j) is not None:  # "square metres", "cubic metres"
            unit, j = _power(tokens, j), j + 2
        elif j < len(tokens) and tokens[j].lemma in PINT_UNITS:
            unit, j = tokens[j].lemma, j + 1
        elif j + 1 < len(tokens) and tokens[j + 1].lemma in PINT_UNITS and _unit_word(tokens[j]):
            unit, j = tokens[j + 1].lemma, j + 2  # one word naming the kind: "3 wellbeing days", "2 free months"
        elif j < len(tokens) and tokens[j].lemma in ("time", "x", "fold"):
            unit, j = "x", j + 1
        elif not currency and j < len(tokens) and _unit_word(tokens[j]):
            unit, j = tokens[j].lemma, j + 1
    # "$17 more per user per month": a comparative between the amount and its rate
    if j + 1 < len(tokens) and tokens[j].text.lower() in _COMPARATIVES and tokens[j + 1].text.lower() in _RATE_WORDS:
        j += 1
    while (j + 1 < len(tokens) and tokens[j].text.lower() in _RATE_WORDS and tokens[j + 1].content
           and (not tokens[j + 1].is_number or _per_second(tokens, j))):
        rate.append("second" if _per_second(tokens, j) else tokens[j + 1].lemma)
        j += 2
    if not rate and j < len(tokens) and tokens[j].text.lower() in _RATE_ADVERBS:
        rate.append(_RATE_ADVERBS[tokens[j].text.lower()])
        j += 1
    return unit, "/".join(rate), j


def _worded(tokens: tuple[Token, ...], i: int) -> tuple[float, str, int, int] | None:
    """(value, unit, decimals, next index) of a time of day, a change by a fraction or a share at token i."""
    clock = _spoken_clock(tokens, i) or _clock(tokens, i)
    if clock is not None:
        return clock[0], "clock", _CLOCK_DECIMALS, clock[1]
    proportion = _proportion(tokens, i)
    if proportion is not None:
        value, unit, j = proportion
        return value, unit, 0 if unit == "%" else 2, j
    share = _share(tokens, i)
    if share is not None:
        return share[0], "%", _FRACTION_DECIMALS, share[1]
    return None


@byte_cached(16 * MB)
def read(text: str) -> tuple[Quantity, ...]:
    """Every quantity in a text with its unit, rate and the precision it was written with."""
    _, blanked = _dates(text)
    tokens = analyse(blanked).tokens
    out: list[Quantity] = []
    i = 0
    while i < len(tokens):
        found, i = _worded_at(tokens, text, i) or _numeric_at(tokens, text, i) or (None, i + 1)
        if found is not None:
            out.append(found)
    return tuple(_durations(_ranges(_compounds(out, text), text), text))


def _worded_at(tokens: tuple[Token, ...], text: str, i: int) -> tuple[Quantity, int] | None:
    """(quantity, next index) of a time of day, a change by a fraction or a share written at token i."""
    worded = _worded(tokens, i)
    if worded is None:
        return None
    value, unit, decimals, j = worded
    start, stop = tokens[i].start, tokens[j - 1].end
    return Quantity(value, unit, "", text[start:stop], start, stop, decimals), j


def _numeric_at(tokens: tuple[Token, ...], text: str, i: int) -> tuple[Quantity | None, int] | None:
    """(quantity, next index) of a number at token i with its currency, unit and rate; (None, next index) for
    a number that is not a quantity ("one of the"); None when no number starts at i."""
    parsed = _number(tokens, i)
    if parsed is None:
        return None
    value, decimals, j, scale, ratio = parsed
    if _and_a_half(tokens, j):  # "two and a half hours"
        value, decimals, j = value + 0.5, max(decimals, 1), j + 3
    currency, first = _currency_before(tokens, i)
    unit, rate, end = ("", "", j) if ratio else _unit_and_rate(tokens, j, bool(currency))
    if unit in PINT_UNITS and not rate and _and_a_half(tokens, end):  # "a year and a half (a day)"
        value, decimals = value + 0.5, max(decimals, 1)
        _, rate, end = _unit_and_rate(tokens, end + 3, True)
    if unit in _CURRENCY:  # "20 euros"
        currency, unit = _CURRENCY[unit], ""
    if unit == "x":
        ratio, unit = True, ""
    if tokens[i].text.lower() == "one" and not unit and not currency:
        return None, j  # "one of the", "one-time": not a quantity
    hedged = any(t.lemma in HEDGES for t in tokens[max(0, first - 2):first])
    start, stop = _span(tokens, text, first, i, end)
    return Quantity(value, currency or unit if not (currency and unit == "%") else "%", rate,
                    text[start:stop], start, stop, decimals, scale, hedged, ratio), max(end, i + 1)


def _currency_before(tokens: tuple[Token, ...], i: int) -> tuple[str, int]:
    """(currency, index where the quantity starts) for the number at token i: a currency sign before the
    number starts the quantity; "50p" is its own currency."""
    if _PENCE.match(tokens[i].text):
        return "gbp", i
    if i >= 1 and tokens[i - 1].text.lower() in _CURRENCY:
        return _CURRENCY[tokens[i - 1].text.lower()], i - 1
    return "", i


def _span(tokens: tuple[Token, ...], text: str, first: int, i: int, end: int) -> tuple[int, int]:
    """Character offsets of a quantity from token first (currency or number) to token end - 1."""
    start = tokens[first].start
    stop = tokens[end - 1].end if end > i else tokens[i].end
    if text[start:stop].endswith(".") and _GLUED.match(tokens[end - 1].text):
        stop -= 1  # "$230M." at the end of a sentence
    return start, stop


def _and_a_half(tokens: tuple[Token, ...], j: int) -> bool:
    return [t.lemma for t in tokens[j:j + 3]] == ["and", "a", "half"]


def _compounds(found: list[Quantity], text: str) -> list[Quantity]:
    """"3 hours 45 minutes": one quantity in the larger unit. Only written together: "two years and two months
    after that" names two periods."""
    out: list[Quantity] = []
    for q in found:
        prev = out[-1] if out else None
        f = factor(q.unit, prev.unit) if prev is not None and prev.unit in PINT_UNITS and q.unit in PINT_UNITS else None
        if (prev is not None and f is not None and f < 1 and not prev.rate and not q.rate
                and not text[prev.end:q.start].strip()):
            out[-1] = Quantity(prev.value + q.value * f, prev.unit, "", text[prev.start:q.end], prev.start, q.end,
                               _CLOCK_DECIMALS)
            continue
        out.append(q)
    return out


_RANGE_GAPS = frozenset({"to", "-", "–", "or", "and"})
_TIME_RANGE_GAPS = frozenset({"to", "-", "–", "until", "till", "and"})


def _event_gap(before: str, gap: str) -> bool:
    """Between the start and the end of one event: "leaves at 07:05 and lands in Faro at 10:50", "opens at 9 am
    and closes at 5 pm" (not "at 9 am on weekdays and 10 am on Saturdays"), "from 23:00 UTC on 12 March to
    01:30"."""
    words = gap.lower().split()
    if len(words) > 6:
        return False
    if words and words[-1] in ("to", "until", "till") and before.lower().split()[-1:] == ["from"]:
        return True
    return "and" in words and words[-1] == "at"


def _durations(found: list[Quantity], text: str) -> list[Quantity]:
    """"2:00 pm to 3:30 pm", "between 9 am and 5 pm", "leaves at 07:05 and lands at 10:50": the time range's
    duration, in hours, after its end."""
    out = []
    for n, q in enumerate(found):
        out.append(q)
        nxt = found[n + 1] if n + 1 < len(found) else None
        if q.unit != "clock" or nxt is None or nxt.unit != "clock":
            continue
        gap = text[q.end:nxt.start]
        if gap.strip().lower() in _TIME_RANGE_GAPS:
            written = text[q.start:nxt.end]
        elif _event_gap(text[:q.start], gap):
            written = f"from {q.text} to {nxt.text}"  # as a range, so the operand form reads as one
        else:
            continue
        out.append(Quantity((nxt.value - q.value) % 24, "hour", "", written, q.start, nxt.end, _CLOCK_DECIMALS,
                            span=True))
    return out


def is_year(q: Quantity) -> bool:
    """A bare four-digit number that reads as a year ("in 2024"): it dates a fact, it is no amount."""
    return not q.unit and not q.rate and q.decimals == 0 and 1900 <= q.value <= 2100 and q.value.is_integer()


def _ranges(found: list[Quantity], text: str) -> list[Quantity]:
    """"5 to 10 business days", "$12 or $15 per month", "from £9 to £12 per editor": the first number takes the
    unit and rate of the second (not a year: "from 72% in 2024 to 81%")."""
    out = list(found)
    for n in range(len(out) - 2, -1, -1):
        a, b = out[n], out[n + 1]
        if text[a.end:b.start].strip().lower() not in _RANGE_GAPS or a.rate or (is_year(a) and not is_year(b)):
            continue
        if not a.unit or a.unit == b.unit:
            out[n] = Quantity(a.value, b.unit, b.rate, a.text, a.start, a.end, a.decimals, a.scale, a.hedged,
                              a.ratio)
    return out
