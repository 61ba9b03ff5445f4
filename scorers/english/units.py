"""Units and number words: the vocabulary the quantity reader (scorers.english.quantities) reads with, and
the unit conversions it and the guards compare by.

Conversions (weeks <-> days, per month <-> per year, GB <-> TB, km <-> metres, kg <-> grams) come from pint;
a calendar month (28 to 31 days) and year (365 or 366) convert to days and weeks with a spread
(`factor_range`). The number words live here, not beside the reader, because the lemmatiser needs them
and the reader needs the lemmatiser. English-only.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from groundwatch.scorers.byte_cache import MB, byte_cached

if TYPE_CHECKING:
    from groundwatch.scorers.english.quantities import Quantity

NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
    "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100,
    "thousand": 1000, "dozen": 12,
}
# Units pint can convert between (lemma -> pint unit name).
PINT_UNITS = {"second": "second", "sec": "second", "minute": "minute", "min": "minute", "hour": "hour",
              "hr": "hour", "day": "day", "week": "week", "month": "month", "year": "year", "kb": "kilobyte",
              "mb": "megabyte", "gb": "gigabyte", "tb": "terabyte", "kilobyte": "kilobyte",
              "megabyte": "megabyte", "gigabyte": "gigabyte", "terabyte": "terabyte",
              "mm": "millimeter", "cm": "centimeter", "m": "meter", "km": "kilometer", "millimetre": "millimeter",
              "millimeter": "millimeter", "centimetre": "centimeter", "centimeter": "centimeter", "metre": "meter",
              "meter": "meter", "kilometre": "kilometer", "kilometer": "kilometer", "mile": "mile", "foot": "foot",
              "feet": "foot", "inch": "inch", "mg": "milligram", "g": "gram", "kg": "kilogram",
              "milligram": "milligram", "gram": "gram", "gramme": "gram", "kilogram": "kilogram", "kilo": "kilogram",
              "tonne": "tonne", "lb": "pound", "lbs": "pound", "oz": "ounce", "ounce": "ounce",
              "ml": "milliliter", "millilitre": "milliliter", "milliliter": "milliliter", "cl": "centiliter",
              "centilitre": "centiliter", "centiliter": "centiliter", "litre": "liter", "liter": "liter", "l": "liter",
              "hectare": "hectare", "ha": "hectare", "acre": "acre",
              "sq_m": "meter**2", "sq_km": "kilometer**2", "sq_ft": "foot**2", "cu_m": "meter**3"}


@lru_cache(maxsize=1)
def _registry():
    import pint

    return pint.UnitRegistry()


# One spelling a unit, so that "metre" and "m" compare as one unit.
SHORT_UNITS = {"sec": "second", "min": "minute", "hr": "hour", "kilobyte": "kb", "megabyte": "mb", "gigabyte": "gb",
               "terabyte": "tb", "millimetre": "mm", "millimeter": "mm", "centimetre": "cm", "centimeter": "cm",
               "metre": "m", "meter": "m", "kilometre": "km", "kilometer": "km", "feet": "foot", "milligram": "mg",
               "gram": "g", "gramme": "g", "kilogram": "kg", "kilo": "kg", "lbs": "lb", "ounce": "oz",
               "millilitre": "ml", "milliliter": "ml", "centilitre": "cl", "centiliter": "cl", "litre": "l",
               "liter": "l", "hectare": "ha"}
# Conversions people write: neighbouring time units, byte multiples, metric length and mass and their common
# imperial counterparts (not years in hours, not millimetres in miles).
_NEIGHBOURS = frozenset({("second", "minute"), ("minute", "hour"), ("hour", "day"), ("day", "week"),
                         ("week", "month"), ("month", "year"), ("week", "year"), ("day", "month"), ("day", "year"),
                         ("kb", "mb"), ("mb", "gb"), ("gb", "tb"),
                         ("mm", "cm"), ("cm", "m"), ("mm", "m"), ("m", "km"), ("cm", "inch"), ("m", "foot"),
                         ("foot", "inch"), ("km", "mile"), ("mg", "g"), ("g", "kg"), ("kg", "tonne"), ("kg", "lb"),
                         ("g", "oz"), ("lb", "oz"), ("ml", "cl"), ("ml", "l"), ("cl", "l"), ("l", "cu_m"),
                         ("sq_m", "ha"), ("ha", "sq_km"), ("ha", "acre"), ("sq_m", "sq_ft"), ("sq_m", "sq_km")})


# A working week is five working days (not seven days: the two are not converted into each other).
_WORKING = {("business week", "business day"): 5.0, ("business day", "business week"): 0.2}


@byte_cached(1 * MB)
def factor(source: str, target: str) -> float | None:
    """How many `target` units one `source` unit is (week -> day: 7), or None if not a conversion one writes."""
    if source == target:
        return 1.0
    if (source, target) in _WORKING:
        return _WORKING[source, target]
    if source not in PINT_UNITS or target not in PINT_UNITS:
        return None
    pair = (SHORT_UNITS.get(source, source), SHORT_UNITS.get(target, target))
    if pair[0] == pair[1]:
        return 1.0  # "metre" and "m"
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


# Days in a calendar unit, least and most: a month is 28 to 31 days, a year 365 or 366.
_CALENDAR_DAYS = {"day": (1, 1), "week": (7, 7), "month": (28, 31), "year": (365, 366)}


@byte_cached(1 * MB)
def factor_range(source: str, target: str) -> tuple[float, float] | None:
    """(least, most) `target` units in one `source` unit: (7, 7) for week -> day, (28, 31) for month -> day,
    (4, 4.43) for month -> week; None if not a conversion one writes. Months and years convert exactly."""
    f = factor(source, target)
    if f is None:
        return None
    s, t = SHORT_UNITS.get(source, source), SHORT_UNITS.get(target, target)
    if s in _CALENDAR_DAYS and t in _CALENDAR_DAYS and {s, t} & {"month", "year"} and {s, t} != {"month", "year"}:
        return _CALENDAR_DAYS[s][0] / _CALENDAR_DAYS[t][1], _CALENDAR_DAYS[s][1] / _CALENDAR_DAYS[t][0]
    return f, f


def _rate_range(source: Quantity, target: Quantity) -> tuple[float, float] | None:
    """$12 per user per month -> per user per year: x12. Units and every other rate part must agree."""
    if source.unit != target.unit or not source.rate or not target.rate:
        return None
    sp, tp = source.rate.split("/"), target.rate.split("/")
    if len(sp) != len(tp):
        return None
    diffs = [(s, t) for s, t in zip(sp, tp) if s != t]
    if len(diffs) != 1:
        return None
    return factor_range(diffs[0][1], diffs[0][0])  # per month -> per year: a year is 12 months


def convert(q: Quantity, target: Quantity) -> tuple[float, float] | None:
    """(least, most) value of `q` in the unit and rate of `target`, or None when the two are not quantities of
    one dimension (days and gigabytes, a bare count and a price, a ratio and an amount)."""
    if q.ratio != target.ratio:
        return None
    if q.unit == target.unit and q.rate == target.rate:
        return q.value, q.value
    if q.rate == target.rate and q.unit and target.unit:
        r = factor_range(q.unit, target.unit)
    else:
        r = _rate_range(q, target)
    return None if r is None else (q.value * r[0], q.value * r[1])
