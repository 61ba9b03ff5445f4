"""Verified mismatch: the same quantity of the same subject, in one dimension, with values that differ."""

import pytest

from groundwatch.scorers.guards.mismatch import verified, verify
from groundwatch.scorers.english.quantities import read


def check(claim, sentence):
    claimed, stated = read(claim)[0], read(sentence)[0]
    return verify(claim, claimed, sentence, stated)


@pytest.mark.parametrize("claim, sentence, converted", [
    ("Parents get 150 days of fully paid parental leave.",
     "Parents get 20 weeks of fully paid parental leave.", "140 day"),
    ("The hiking trail is 1.5 km long.", "The hiking trail is 1,200 metres long.", "1.2 km"),
    ("Refunds for cancelled orders arrive within 10 days.", "Refunds for cancelled orders arrive within a week.",
     "7 day"),
    ("You can return unworn items within 120 days.", "You can return unworn items within three months.",
     "84 day–93 day"),
])
def test_a_converted_value_that_differs_is_a_verified_mismatch(claim, sentence, converted):
    found = check(claim, sentence)
    assert found is not None and found.converted == converted, found
    assert verified({"mismatch": found.to_record()})


@pytest.mark.parametrize("claim, sentence", [
    ("You can return unworn items within 90 days.", "You can return unworn items within three months."),  # spread
    ("The hiking trail is 1,250 metres long.", "The hiking trail is 1.2 km long."),      # the passage's rounding
    ("Premium accounts store up to 200 GB.", "Premium accounts store 150 GB."),           # another bound
    ("Parents get 150 days of fully paid parental leave.", "Northwind was founded 20 weeks ago in Leeds."),
    ("Parents get 150 days of parental leave.", "Parents get 20 weeks of leave, 4 weeks of it paid."),  # which one?
    ("The trail is 1.5 km long.", "The trail took 20 minutes."),                          # another dimension
])
def test_anything_less_is_no_verified_mismatch(claim, sentence):
    assert check(claim, sentence) is None


def test_only_a_record_convicts():
    assert not verified({}) and not verified({"claimed": "40 seats"})
