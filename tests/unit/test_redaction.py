"""Redaction before storage: entity detectors (Luhn and mod-97 checked), patterns, and the
record walk that masks free text in place and leaves ids alone."""

from __future__ import annotations

import json
import re

import pytest
from pydantic import ValidationError

from groundwatch.config.redaction import RedactionSettings
from groundwatch.scorers.redaction import Redactor, iban_ok, luhn_ok
from groundwatch.scorers.records import Verdict
from tests.unit.verdicts import claim, verdict

ALL = Redactor(("email", "phone", "iban", "card"))


@pytest.mark.parametrize(("text", "kind"), [
    ("jane.doe+billing@example.co.uk", "email"),
    ("+44 20 7946 0958", "phone"),
    ("(555) 123-4567", "phone"),
    ("030 1234567", "phone"),
    ("+14155552671", "phone"),
    ("DE89 3704 0044 0532 0130 00", "iban"),
    ("GB82WEST12345698765432", "iban"),
    ("4111 1111 1111 1111", "card"),
    ("5500-0000-0000-0004", "card"),
    ("378282246310005", "card"),
])
def test_each_entity_is_masked_to_the_same_length(text, kind):
    sentence = f"Contact: {text}. Thanks"
    out = ALL.text(sentence)
    assert text not in out and len(out) == len(sentence)
    assert f"[{kind}]" in out and out.startswith("Contact: ") and out.endswith(". Thanks")


@pytest.mark.parametrize("text", [
    "Refunds within 30 days of 2026-03-05 at 10:30.",
    "The plan costs $1,000,000 or 49.99 per month.",
    "Order 1234 5678 9012 3456 (fails Luhn) and DE00 1234 5678 9012 3456 78 (fails mod 97).",
    "Version 1.2.3, 12 34 56, 14 business days.",
])
def test_numbers_that_are_not_personal_data_stay(text):
    assert ALL.text(text) == text


def test_checks():
    assert luhn_ok("4111111111111111") and not luhn_ok("4111111111111112")
    assert iban_ok("DE89 3704 0044 0532 0130 00") and not iban_ok("DE88 3704 0044 0532 0130 00")


def test_only_the_chosen_entities_and_patterns():
    r = Redactor(("email",), (re.compile(r"ACME-\d{6}"),))
    assert r.text("ab@cd.io a@b.io 4111 1111 1111 1111 ACME-123456") == \
        "[email]* ****** 4111 1111 1111 1111 [pattern]**"  # shorter than its tag: stars only


def test_settings_are_off_by_default_and_checked():
    assert Redactor.from_settings(RedactionSettings()) is None
    r = Redactor.from_settings(RedactionSettings(enabled=True, entities=("card",), patterns=(r"K-\d+",)))
    assert r.entities == ("card",) and r.patterns[0].pattern == r"K-\d+"
    with pytest.raises(ValidationError, match="unknown"):
        RedactionSettings(entities=("ssn",))
    with pytest.raises(ValidationError, match="not a regular expression"):
        RedactionSettings(patterns=("(",))


def test_a_record_keeps_ids_and_offsets_and_loses_the_personal_data():
    v = verdict([claim(0, Verdict.NOT_ENOUGH_INFO, text="Write to jane@example.com for a refund.")],
                request_id="req-jane@example.com")
    v.passages[0]["text"] = "Refunds: call +44 20 7946 0958 or pay to GB82WEST12345698765432."
    record = ALL.document(v.to_dict())
    dumped = json.dumps(record)
    assert "jane@example.com for" not in dumped and "7946" not in dumped and "WEST1234" not in dumped
    assert record["request_id"] == "req-jane@example.com"  # ids are left for trace and forget
    assert record["passage_ids"] == ["p1", "p2"] and record["claims"][0]["verdict"] == "NOT_ENOUGH_INFO"
    assert len(record["passages"][0]["text"]) == len(v.passages[0]["text"])
    assert record["claims"][0]["text"] == "Write to [email]********* for a refund."
    assert tuple(record["claims"][0]["span"]) == v.claims[0].span
