"""Severity: claims about amounts, dates, numbers or permissions are high severity."""

from __future__ import annotations

import re

from groundwatch.scorers.english.quantities import MONTH_NAMES
from groundwatch.scorers.english.units import NUMBER_WORDS

_AMOUNT = re.compile(r"[$€£¥]\s?\d|\b\d[\d,.]*\s?(usd|eur|gbp|dollars?|euros?|pounds?|cents?)\b", re.I)
# "may" only before a day ("may 5"): alone it is the modal.
_MONTHS = "|".join(r"may \d" if m == "may" else m for m in MONTH_NAMES)
_DATE = re.compile(
    rf"\b(\d{{4}}-\d{{2}}-\d{{2}}|{_MONTHS}|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|deadline|due (date|by)|"
    r"expires?|until|no later than|within \w+ (business )?(days?|weeks?|months?|hours?))\b", re.I)
_NUMBER = re.compile(r"\d|\b(" + "|".join(NUMBER_WORDS) + r")\b", re.I)
_PERMISSION = re.compile(
    r"\b(eligible|eligibility|entitled|allowed|not allowed|permitted|prohibited|forbidden|must|required|"
    r"requires?|mandatory|only|approval|approved|qualif(y|ies|ied)|authori[sz]ed|can(not)?|may not|"
    r"exempt|refund(s|able)?|guarantee[ds]?)\b", re.I)


def severity(claim: str) -> str:
    for pattern in (_AMOUNT, _DATE, _NUMBER, _PERMISSION):
        if pattern.search(claim):
            return "high"
    return "normal"
