"""Dropped-condition guard: a claim that states unconditionally what the evidence grants under a condition."""

import pytest

from groundwatch.scorers.evidence.chunking import Chunk
from groundwatch.scorers.guards import conditions
from groundwatch.scorers.guards.evidence import chunk_sentences

REFUNDS = ("Acme Cloud subscriptions can be refunded within 30 days of the original purchase date. "
           "Enterprise customers may extend the refund window to 60 days, but only with written approval from "
           "their account manager. Approved refunds are returned to the original payment method within 5 to 10 "
           "business days. Add-ons such as extra storage are not refundable once they have been provisioned.")
PARENTAL = ("From 1 January 2026, Northwind offers 20 weeks of fully paid parental leave to every parent, "
            "regardless of gender, once they have completed 6 months of continuous employment. The leave can be "
            "taken in up to three blocks within 12 months of the birth or adoption.")
REMOTE = ("Employees may work remotely up to 3 days per week with their manager's approval. "
          "Fully remote arrangements require approval from both the department head and HR.")
LEAVE = ("Full-time employees accrue 25 days of paid time off per calendar year. Up to 5 unused days can be "
         "carried over into the next year.")
GERMANY = "Employees in Germany can apply for a sabbatical of up to 6 months after 5 years of service."
PRO = "Unlimited integrations are only available on the Enterprise plan. Pro workspaces can connect 20 integrations."
SSO = "If your workspace uses SSO, members can sign in with Okta or Google Workspace only."


def run(claim, passage):
    return conditions.check(claim, chunk_sentences([Chunk("p1", passage, 0, len(passage), 0)]))


@pytest.mark.parametrize("claim, passage, kind", [
    ("Refunds are available for up to 60 days.", REFUNDS, "restricted_group"),
    ("Enterprise customers can get 60 days to ask for a refund.", REFUNDS, "approval"),
    ("All employees get 20 weeks of fully paid parental leave.", PARENTAL, "conditional"),
    ("You can work remotely up to 3 days a week.", REMOTE, "approval"),
    ("Employees accrue 25 days of paid time off per year.", LEAVE, "restricted_group"),
    ("Employees get a sabbatical of up to 6 months after 5 years.", GERMANY, "restricted_group"),
    ("Employees in Germany get a sabbatical of up to 6 months after 5 years.", GERMANY, "modal"),
    ("Add-ons are refundable.", REFUNDS, "conditional"),
    ("Unlimited integrations are available.", PRO, "conditional"),
])
def test_dropped_condition_fires_with_the_condition_text(claim, passage, kind):
    result = run(claim, passage)
    assert result.fired and result.verdict == "NOT_ENOUGH_INFO" and result.flag == "dropped_condition", result
    kinds = [c["kind"] for c in result.found["conditions"]]
    assert kind in kinds, kinds
    text = next(c["text"] for c in result.found["conditions"] if c["kind"] == kind)
    assert text and text in passage
    assert passage[result.sentence.start:result.sentence.end] == result.sentence.text


@pytest.mark.parametrize("claim, passage", [
    ("Enterprise customers can extend the refund window to 60 days with their account manager's approval.",
     REFUNDS),
    ("With sign-off from their account manager, Enterprise customers may stretch the refund window to 60 days.",
     REFUNDS),
    ("You have 30 days from when you first bought the subscription to request a refund.", REFUNDS),
    ("Approved refunds take 5 to 10 business days to arrive.", REFUNDS),
    ("Every parent gets 20 weeks of fully paid parental leave once they've completed 6 months of continuous "
     "employment.", PARENTAL),
    ("After six months of continuous employment, parents receive 20 weeks of paid parental leave.", PARENTAL),
    ("The leave can be split into up to three blocks within 12 months of the birth.", PARENTAL),
    ("If their manager approves, employees can work remotely 3 days per week.", REMOTE),
    ("Full-time staff get 25 days of paid time off each year.", LEAVE),
    ("You can carry over up to 5 unused days into the next year.", LEAVE),
    ("Germany-based employees can request a sabbatical of up to 6 months after 5 years.", GERMANY),
    ("Employees in Germany may apply for up to 6 months of sabbatical after 5 years of service.", GERMANY),
    ("Enterprise plans come with unlimited integrations.", PRO),
    ("Pro workspaces can connect 20 integrations.", PRO),
    # what is available is there to be asked for: "can request" is kept
    ("A refund is available for 30 days after purchase.",
     "Customers can request a refund within 30 days of purchase."),
])
def test_condition_kept_in_any_wording_passes(claim, passage):
    result = run(claim, passage)
    assert not result.fired, result


@pytest.mark.parametrize("claim, passage", [
    # the restriction belongs to the other conjunct's number
    ("Free trials are limited to 60 requests per minute.",
     "The REST API allows 600 requests per minute on paid plans and 60 requests per minute during a free trial."),
    ("Pro also comes with a 99.9% monthly uptime commitment.",
     "Acme Cloud commits to 99.9% monthly uptime on the Pro plan and 99.95% on the Enterprise plan."),
    # a role restricts by itself; its modifier is not a scope the claim drops
    ("You can export all of your data from Settings > Export whenever you like.",
     "Workspace owners can export all data at any time from Settings > Export."),
])
def test_conditions_of_another_conjunct_or_role_nouns_do_not_fire(claim, passage):
    assert not run(claim, passage).fired


def test_a_condition_holding_the_key_number_is_kept_when_the_claim_restates_it():
    passage = ("If the line is down for more than 72 hours, the provider credits £5 for each day of the outage. "
               "Credits appear on the next bill.")
    assert not run("Once the line has been out for over 72 hours, the provider pays £5 per day.", passage).fired
    dropped = run("The provider credits £5 for each day of an outage.", passage)
    assert dropped.fired and dropped.found["conditions"][0]["kind"] == "conditional"


def test_a_past_tense_is_the_main_verb_not_a_restricting_participle():
    passage = "Prices rose by 10% in 2025, from £20 to £22 for the basic box."
    assert not run("The basic box costs £22.", passage).fired
    kept = run("Thermostats cost £89.", "Thermostats bought from the Lumen online store cost £89.")
    assert kept.fired and kept.found["conditions"][0]["kind"] == "restricted_subject"


def test_a_negated_modifier_keeps_a_prefix_negated_group():
    passage = "Unverified accounts can send 5 invoices a day."
    assert not run("Accounts that aren't verified can send 5 invoices a day.", passage).fired
    assert not run("Accounts that have not been verified can send 5 invoices a day.", passage).fired
    assert run("Verified accounts can send 5 invoices a day.", passage).fired  # the other group
    assert run("Accounts can send 5 invoices a day.", passage).fired


def test_claims_without_key_content_are_not_checked():
    result = run("Your password is managed by your identity provider.", SSO)
    assert not result.fired and "no number" in result.detail


def test_an_equally_aligned_unconditional_sentence_wins():
    passage = "Refunds are available for 60 days. Enterprise refunds are available for 60 days with approval."
    assert not run("Refunds are available for 60 days.", passage).fired


@pytest.mark.parametrize("claim, passage, kind", [
    ("Apprentices receive a travel card worth £90 a month.",
     "Apprentices whose college is outside the city receive a travel card worth £90 a month.", "restricted_subject"),
    ("Volunteers can claim mileage at 30p per mile.",
     "Volunteers with a valid driving licence can claim mileage at 30p per mile.", "restricted_subject"),
    ("Orders need a second signature.", "Orders above $25,000 need a second signature.", "restricted_subject"),
    ("Bikes can be exchanged within 60 days.", "Bikes bought from the factory outlet can be exchanged within 60 days.",
     "restricted_subject"),
    ("Guests get free parking.", "Guests staying in suites get free parking; other guests pay $12 a night.",
     "restricted_subject"),
    ("Tenants can sublet their flat.", "Tenants can sublet their flat, provided the landlord agrees in writing.",
     "conditional"),
    ("Pupils can miss up to five days of school.", "Pupils can miss up to five days of school with a parent's note.",
     "conditional"),
    ("The council waives the parking fee.", "The council waives the parking fee as long as you show a blue badge.",
     "conditional"),
    ("Premium accounts include cloud backup.", "Acme Premium Plus accounts include cloud backup.", "restricted_group"),
])
def test_narrower_subjects_and_conditions_fire(claim, passage, kind):
    result = run(claim, passage)
    assert result.fired and kind in [c["kind"] for c in result.found["conditions"]], result


@pytest.mark.parametrize("claim, passage", [
    ("Staff who have finished probation can work from home two days a week.",
     "Employees who have completed probation can work from home two days a week."),
    ("Volunteers holding a valid driving licence can claim mileage at 30p per mile.",
     "Volunteers with a valid driving licence can claim mileage at 30p per mile."),
    ("Orders over $25,000 need a second signature.", "Orders above $25,000 need a second signature."),
    ("Tenants can sublet their flat if the landlord agrees in writing.",
     "Tenants can sublet their flat, provided the landlord agrees in writing."),
    ("Meals on business trips are reimbursed up to €60 a day.",
     "Meals during business trips are reimbursed up to €60 a day."),
    ("Bikes from the factory outlet can be exchanged within 60 days.",
     "Bikes bought from the factory outlet can be exchanged within 60 days."),
])
def test_kept_restrictions_and_plain_subjects_do_not_fire(claim, passage):
    result = run(claim, passage)
    assert not result.fired, result


@pytest.mark.parametrize("claim, passage", [
    # an adverb, not a condition: after an auxiliary, or counting times
    ("He admitted two counts of fraud.", "The broker, who was once named best in the region, admitted two counts of fraud."),
    ("It is the fourth time they have appeared on screen.",
     "It is the fourth time they have appeared on screen, once for a profile and again for an interview."),
    # a year dates a fact and grants nothing; a bare answer states no predicate to drop a condition from
    ("The couple fell in love in 2002.", "If asked, Kris says the couple fell in love in 2002."),
    ("1875.", "The Adelaide Steamship Company was formed by a group of businessmen in 1875."),
    ("April 2, 2011.", "His only loss to date occurred on April 2, 2011 against the champion."),
])
def test_narrative_facts_and_adverbs_are_not_dropped_conditions(claim, passage):
    assert not run(claim, passage).fired, run(claim, passage).detail


def test_once_still_opens_a_condition_mid_sentence_and_at_the_start():
    assert run("Members get 10 guest passes a year.",
               "Members get 10 guest passes a year once they have completed probation.").fired
    assert run("Members get 10 guest passes a year.", "Once approved, members get 10 guest passes a year.").fired


def test_a_counted_group_is_not_a_restricted_one():
    """"from 150 students to 180" counts the students; "students in Germany" would restrict them."""
    passage = "Larkfield's sixth form has grown from 150 students to 180 this year."
    assert not run("Larkfield's sixth form is a fifth bigger this year.", passage).fired
    assert run("Employees can apply for a sabbatical of up to 6 months.", GERMANY).fired
