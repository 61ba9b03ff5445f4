"""Ordinary sentences the guards once convicted: each is a paraphrase or an agreement, and no guard may fire on it."""

import pytest

from groundwatch.scorers.evidence.chunking import Chunk
from groundwatch.scorers.guards import arithmetic, polarity
from groundwatch.scorers.guards.evidence import chunk_sentences


def sentences(passage):
    return chunk_sentences([Chunk("p1", passage, 0, len(passage), 0)])


@pytest.mark.parametrize("claim, passage", [
    # "disable" in "enable or disable" names a choice, not a negation
    ("You can enable or disable two-factor authentication in Settings.",
     "Two-factor authentication can be enabled in Settings."),
    ("You can enable or disable two-factor authentication in Settings.",
     "Two-factor authentication can be turned on or off in Settings."),
    # "allow or deny", "grant or revoke": the choice again, on either side
    ("Admins can allow or deny access to shared folders.", "Admins can allow access to shared folders."),
    ("Admins can allow or deny access to shared folders.", "Admins can grant or revoke access to shared folders."),
    # "never been easier": a comparative after the negator says it is easy
    ("Exporting reports is easy.", "It has never been easier to export reports."),
    # "in-tense" is not a negated "tense": negative prefixes come from a curated list
    ("Intense exercise improves heart health.", "Vigorous exercise improves heart health."),
    ("Intense exercise improves heart health.", "Heart health improves with vigorous exercise."),
    # "invalid" before its noun says which tokens, it does not negate the predicate
    ("Invalid tokens are rejected.", "Tokens that fail validation are rejected."),
    ("Invalid tokens are rejected.", "The gateway rejects malformed tokens."),
])
def test_polarity_stays_silent_on_agreeing_sentences(claim, passage):
    result = polarity.check(claim, sentences(passage), {"p1": passage})
    assert not result.fired, result


@pytest.mark.parametrize("claim, passage", [
    ("Invalid tokens are accepted.", "Invalid tokens are rejected."),
    ("Two-factor authentication cannot be disabled.", "You can enable or disable two-factor authentication."),
    ("Reports cannot be exported.", "Reports can be exported as CSV files."),
    ("The archive is unavailable to contractors.", "The archive is available to contractors."),
])
def test_polarity_still_fires_on_a_real_difference(claim, passage):
    assert polarity.check(claim, sentences(passage), {"p1": passage}).fired


@pytest.mark.parametrize("claim, passage", [
    # a month is 28 to 31 days: three months hold 90 days
    ("You can return items within 90 days.", "Items can be returned within three months of delivery."),
    # "up to" is a bound, not a change; 200 GB is the total of the parts
    ("Premium accounts store up to 200 GB.", "Premium accounts store 100 GB of photos and 100 GB of documents."),
])
def test_arithmetic_finds_no_mismatch_in_an_equivalent_quantity(claim, passage):
    result = arithmetic.check(claim, sentences(passage))
    assert not result.fired, result
    assert result.found["derived"], result


def test_a_calendar_conversion_outside_its_spread_is_still_a_mismatch():
    result = arithmetic.check("You can return items within 120 days.",
                              sentences("Items can be returned within three months of delivery."))
    assert result.fired, result


@pytest.mark.parametrize("claim, passage", [
    # "you don't use" modifies the budget (a relative clause without "that"); "Unspent" names the subject
    ("Any learning budget you don't use rolls over into the next year.",
     "Unspent budget does not roll over into the next year."),
    ("Leave you do not take is paid out when you leave.", "Untaken leave is not paid out when you leave."),
])
def test_a_negation_inside_a_reduced_relative_clause_negates_the_modifier(claim, passage):
    result = polarity.check(claim, sentences(passage), {"p1": passage})
    assert result.fired, result


def test_a_negation_after_an_opening_adverb_still_counts():
    result = polarity.check("Today you don't need a code to sign in.",
                            sentences("Today you need a code to sign in."), {"p1": "Today you need a code to sign in."})
    assert result.fired, result


@pytest.mark.parametrize("claim, passage", [
    # a verb of saying before the pronoun: "said she didn't" is a clause of its own, not "the budget you don't use"
    ("Dana said she didn't know the answer.", "Asked about the quiz, Dana said she didn't know the answer."),
    # the person told is a name of several words
    ("The striker will not repeat the mistake.",
     "The striker apologised and has assured club manager Ana Ruiz he will not repeat the mistake."),
    # a dash spaced out as "- -" ends the clause: the negation after it is about something else
    ("The bookmaker has taken five large bets on the Greens.",
     "The bookmaker has taken five large bets on the Greens - - with not a single bet of that size on the Blues."),
    # "have uncovered" is a verb (found), not the adjective "uncovered" (not covered)
    ("Archaeologists have uncovered a Roman road near the village.",
     "Archaeologists have found a Roman road near the village."),
])
def test_polarity_reads_the_clause_the_negation_is_in(claim, passage):
    result = polarity.check(claim, sentences(passage), {"p1": passage})
    assert not result.fired, result


@pytest.mark.parametrize("claim, passage", [
    ("Dana said she will not renew the lease.", "Dana said she will renew the lease."),
    ("The striker will repeat the mistake.", "The striker has assured club manager Ana Ruiz he will not repeat the mistake."),
    ("Uncovered losses are refunded.", "Uncovered losses are not refunded."),
])
def test_polarity_still_fires_across_those_clauses(claim, passage):
    assert polarity.check(claim, sentences(passage), {"p1": passage}).fired


def test_a_negation_after_a_verb_of_saying_counts_on_both_sides():
    passage = "Manager Ana Ruiz said last week she did not expect the striker to be fit for Sunday."
    result = polarity.check("Ana Ruiz said she did not expect the striker to be fit for Sunday.", sentences(passage),
                            {"p1": passage})
    assert not result.fired, result
