"""Redaction of personal data in verdict records before they are stored.

Built-in entity types (`config.redaction.ENTITIES`):
- email: local@domain.tld;
- phone: 9 to 15 digits in groups, optionally with +country code and (area) code; ISO
  dates and times are left alone;
- iban: two letters, two check digits, 11 to 30 alphanumerics (spaces allowed every four),
  kept only when the ISO 13616 mod-97 check holds;
- card: 13 to 19 digits (spaces or dashes allowed), kept only when the Luhn check holds,
  so order numbers and amounts are not masked.
Plus any regular expressions from the settings. Each match is masked in place by a tag
of the same length ("[email]*********", or "*****" when shorter than the tag), so the
offsets a record stores (claim spans, evidence offsets) still point at the same characters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterable

_EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b")
_PHONE = re.compile(r"(?<![\w+])(?:\+\d{1,3}[\s.-]?)?(?:\(\d{1,4}\)[\s.-]?)?\d{2,5}(?:[\s.-]\d{2,8}){1,5}(?![\w])"
                    r"|(?<![\w+])\+\d{9,15}\b")
_DATE_LIKE = re.compile(r"^\d{4}-\d{1,2}-\d{1,2}(?:[ T]\d{1,2}(?::\d{2}){1,2})?$|^\d{1,2}[./-]\d{1,2}[./-]\d{2,4}$")
_IBAN = re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}\b")
_CARD = re.compile(r"(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])")


def luhn_ok(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        n = int(ch)
        if i % 2:
            n = n * 2 - 9 if n > 4 else n * 2
        total += n
    return total % 10 == 0


def iban_ok(text: str) -> bool:
    compact = text.replace(" ", "")
    if not 15 <= len(compact) <= 34:
        return False
    moved = compact[4:] + compact[:4]
    return int("".join(str(int(ch, 36)) for ch in moved)) % 97 == 1


def _card(match: re.Match) -> bool:
    digits = re.sub(r"\D", "", match.group(0))
    return 13 <= len(digits) <= 19 and luhn_ok(digits)


def _phone(match: re.Match) -> bool:
    text = match.group(0)
    digits = sum(ch.isdigit() for ch in text)
    return 9 <= digits <= 15 and not _DATE_LIKE.match(text)


DETECTORS: dict[str, tuple[re.Pattern, Callable[[re.Match], bool] | None]] = {
    # Checked in this order: an IBAN or a card number is not also a phone number.
    "iban": (_IBAN, lambda m: iban_ok(m.group(0))),
    "card": (_CARD, _card),
    "email": (_EMAIL, None),
    "phone": (_PHONE, _phone),
}

# Fields of a verdict record that hold ids, enums or times, never free text: left as they are,
# so a redacted record can still be traced and forgotten by its ids. Metadata values are redacted
# like text (a client may put an e-mail address anywhere), except the ids of whom the verdict
# belongs to, metadata.app and metadata.tenant: the document id and `forget --tenant` use them.
STRUCTURAL = frozenset({
    "request_id", "scorer_version", "model", "scored_at", "timestamp", "app", "tenant", "id", "doc_id", "passage_id",
    "passage_ids", "gold_passage_ids", "evidence_ids", "newer_id", "updated_at", "newer_updated_at", "verdict",
    "severity", "kind", "flags", "flag", "signals", "outcome", "action", "rule", "name", "source", "index",
})


def _mask(text: str, kind: str) -> str:
    tag = f"[{kind}]"
    return tag + "*" * (len(text) - len(tag)) if len(text) >= len(tag) else "*" * len(text)


@dataclass(frozen=True)
class Redactor:
    entities: tuple[str, ...]
    patterns: tuple[re.Pattern, ...] = ()

    @classmethod
    def from_settings(cls, settings) -> "Redactor | None":
        """None when redaction is off, so callers can skip it entirely."""
        if not settings.enabled:
            return None
        return cls(tuple(settings.entities), tuple(re.compile(p) for p in settings.patterns))

    def spans(self, text: str) -> list[tuple[int, int, str]]:
        """(start, end, kind) of everything to mask, earlier detectors winning overlaps."""
        taken: list[tuple[int, int, str]] = []

        def add(matches: Iterable[re.Match], kind: str, accept) -> None:
            for m in matches:
                if m.end() > m.start() and (accept is None or accept(m)) and \
                        not any(m.start() < e and s < m.end() for s, e, _ in taken):
                    taken.append((m.start(), m.end(), kind))

        for kind in DETECTORS:
            if kind in self.entities:
                pattern, accept = DETECTORS[kind]
                add(pattern.finditer(text), kind, accept)
        for pattern in self.patterns:
            add(pattern.finditer(text), "pattern", None)
        return sorted(taken)

    def text(self, text: str) -> str:
        spans = self.spans(text)
        if not spans:
            return text
        out, cursor = [], 0
        for start, end, kind in spans:
            out += [text[cursor:start], _mask(text[start:end], kind)]
            cursor = end
        return "".join(out + [text[cursor:]])

    def document(self, value, key: str | None = None):
        """A copy of a record (dicts, lists, strings) with every free-text string redacted."""
        if key in STRUCTURAL:
            return value
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {k: self.document(v, k) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [self.document(v, key) for v in value]
        return value
