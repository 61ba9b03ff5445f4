import pytest

from groundwatch.scorers.answer.decorative import decorative_reason
from groundwatch.scorers.verdicts.severity import severity


@pytest.mark.parametrize("sentence, reason", [
    ("Hope this helps!", "offer_of_help"),
    ("Let me know if you have any other questions.", "offer_of_help"),
    ("Thanks for reaching out!", "thanks"),
    ("Hi there!", "greeting"),
    ("Great question!", "filler"),
    ("This is documented in the runbook.", "pointer"),
    ("I'm not sure.", "hedge"),
    ("Please note that policies may change.", "hedge"),
    ("I'd be happy to help with that.", "offer_of_help"),
    ("Would you like more details?", "offer_of_help"),
    ("Does that answer your question?", "offer_of_help"),
    ("Here are the details.", "filler"),
    ("Let me explain.", "filler"),
    ("I'm sorry, I don't have information about that.", "abstention"),
    ("I couldn't find anything about shipping in the documents.", "abstention"),
    ("The provided documents don't mention shipping costs.", "abstention"),
    ("There is no information about shipping in the context.", "abstention"),
])
def test_decorative_sentences_are_recognised(sentence, reason):
    assert decorative_reason(sentence) == reason


@pytest.mark.parametrize("sentence", [
    "Refunds are available within 30 days.",
    "Let me know by 5 May if you want the refund.",  # carries a date: checkable
    "The runbook says to restart the service first.",
    "Thanks to caching, pages load in under 200 ms.",
    "We don't have data centres in Asia.",  # the company speaking: a claim
    "The warranty does not cover water damage.",  # a passage's content, not the answer's sources
    "The documents don't mention the 2024 prices.",  # a number: checked
])
def test_checkable_sentences_are_not_decorative(sentence):
    assert decorative_reason(sentence) is None


@pytest.mark.parametrize("claim, expected", [
    ("The plan costs $49 per month.", "high"),
    ("The offer expires on 5 January 2026.", "high"),
    ("The cluster has three nodes.", "high"),
    ("Only administrators can delete projects.", "high"),
    ("Contractors are not eligible for the bonus.", "high"),
    ("The dashboard shows recent activity.", "normal"),
])
def test_severity(claim, expected):
    assert severity(claim) == expected


@pytest.mark.parametrize("sentence", [
    "Hiring managers have to sign off on the final offer.",
    "It is available in the Pro and Enterprise plans.",
    "Storage add-ons renew together with your subscription.",
])
def test_real_claims_that_look_like_templates_are_kept(sentence):
    assert decorative_reason(sentence) is None


def test_bare_answers_are_decorative():
    assert decorative_reason("Yes.") == "bare_answer" and decorative_reason("No!") == "bare_answer"
