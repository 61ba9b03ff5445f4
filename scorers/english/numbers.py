"""Numbers and dates in text, normalised so formatting differences still match.

1,000 = 1000, thirty = 30, 5% = 5 percent, 2026-01-05 = 5 January 2026 =
January 5, 2026. Dates normalise to ('date', y, m, d) (or ('month', y, m), and ('day', m, d) for
"12 March" without a year); numbers to ('num', value) with percentages as ('pct', value).
"""

from __future__ import annotations

import re

NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
    "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100,
    "thousand": 1000, "dozen": 12,
}
_TENS = {k: v for k, v in NUMBER_WORDS.items() if v in (20, 30, 40, 50, 60, 70, 80, 90)}
_SCALES = {"hundred": 100, "thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000}
MONTHS = {m: i + 1 for i, m in enumerate(
    ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
     "november", "december"])}
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
