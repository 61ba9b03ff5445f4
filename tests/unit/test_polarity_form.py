"""Opposites reach the NLI model as the negation it reads: "optional" -> "not required", on both sides of a pair."""

import pytest

from groundwatch.scorers.english.polarity_form import polarity_form


@pytest.mark.parametrize("text, written", [
    ("Attending the briefing is optional.", "Attending the briefing is not required."),
    ("Attending the briefing is compulsory.", "Attending the briefing is required."),
    ("Smoking is strictly prohibited on the platform.", "Smoking is strictly not allowed on the platform."),
    ("Pets are permitted in the garden.", "Pets are allowed in the garden."),
    ("The loft is uninsulated and unheated.", "The loft is uninsulated and not heated."),
    ("Deposits are non-refundable.", "Deposits are not refundable."),
    ("An invalid voucher is rejected at the till.", "A not valid voucher is not accepted at the till."),
    ("The kiosk is closed on Mondays.", "The kiosk is not open on Mondays."),
    ("Unlimited storage comes with the plan.", "Not limited storage comes with the plan."),
])
def test_opposites_are_written_as_a_negated_word(text, written):
    assert polarity_form(text) == written


@pytest.mark.parametrize("text", [
    "You can disable notifications in Settings.",        # a verb: disabling is not "not enabling"
    "The kiosk closed at 5 pm yesterday.",               # a participle without a copula
    "Prices decreased by 5% in March.",                  # a directional opposite
    "The non-stop service runs hourly.",                 # non- before a word that is no adjective
    "Interest is paid monthly.",
    "Archaeologists have uncovered a Roman road.",       # a verb after "have": found, not "not covered"
])
def test_verbs_directions_and_other_words_are_left_alone(text):
    assert polarity_form(text) == text


def test_both_sides_of_a_paraphrase_meet_in_one_form():
    assert polarity_form("Registering is not mandatory.") == "Registering is not required."
    assert polarity_form("Registration is optional.") == "Registration is not required."


@pytest.mark.parametrize("text, written", [
    ("The briefing isn't optional.", "The briefing is required."),          # two negations cancel
    ("Deposits are not non-refundable.", "Deposits are refundable."),
    ("Not optional for staff.", "Required for staff."),
    ("The rate is not variable during the term.", "The rate is fixed during the term."),
    ("There is no branch without free Wi-Fi.", "Every branch has free Wi-Fi."),
    ("There isn't a room at the hotel without a safe.", "Every room at the hotel has a safe."),
    ("There are no rooms without a safe.", "All rooms have a safe."),
])
def test_double_negations_and_no_x_without_y_are_written_positively(text, written):
    assert polarity_form(text) == written


def test_no_x_without_y_needs_both_in_one_clause():
    assert polarity_form("There is no fee, without exception.") == "There is no fee, without exception."
    assert polarity_form("There is no fee.") == "There is no fee."
