"""Same thing? Asked before two passage sentences may be called contradictory."""

import pytest

from groundwatch.scorers.guards.conditions import unshared
from groundwatch.scorers.guards.sameness import partner, same_thing


@pytest.mark.parametrize("a, b", [
    ("Refunds are available within 30 days of purchase.", "Refunds are available within 14 days of purchase."),
    ("Visitors must sign in at the front desk.", "Visitors do not need to sign in at the front desk."),
    ("Annual subscriptions can be refunded in full during the refund window.",
     "Annual subscriptions are non-refundable once they have been paid, including during the first month."),
])
def test_same_thing_by_key_or_close_wording(a, b):
    assert same_thing(a, b)


@pytest.mark.parametrize("a, b", [
    ("Investments held through Ledgerly Invest are not covered by the deposit guarantee scheme.",    # ex-028
     "Interest is calculated daily on balances up to €100,000."),
    ("The SLA does not apply to the Team plan or to free trials.",                                   # ex-049
     "The Team plan costs $12 per user per month billed annually, or $15 per user per month billed monthly."),
    ("The SLA does not apply to the Team plan or to free trials.",
     "All paid plans start with a 14-day free trial, and no credit card is required to start it."),
])
def test_different_things_sharing_a_name_are_not_the_same(a, b):
    assert not same_thing(a, b)


def test_partner_is_the_closest_sentence():
    text = "Savings pots earn 2.1% interest. Interest is calculated daily on balances up to €100,000."
    assert partner("Interest is calculated monthly.", text) == "Interest is calculated daily on balances up to €100,000."


def test_unshared_conditions_name_the_scope_one_side_adds():
    found = unshared("Visitors must sign in at the front desk.",
                     "Visitors to the Berlin office do not need to sign in at the front desk.")
    assert [c.kind for c in found] == ["restricted_group"] and "Berlin" in found[0].text
    assert unshared("Refunds are available within 30 days.", "Refunds are available within 14 days.") == []
