"""Obligation against exemption in retrieved context: a requirement and an exemption for the same thing conflict,
in either order and whatever the wording; different groups, different things and a matching "unless" do not."""

import pytest

from groundwatch.config.scorer import ScorerConfig
from groundwatch.scorers.evidence.chunking import Chunk
from groundwatch.scorers.evidence.conflicts import obligation_conflict
from groundwatch.scorers.evidence.obligation import EXEMPTION, OBLIGATION, duty, duty_conflict
from groundwatch.scorers.pipeline import Scorer
from groundwatch.scorers.schema import parse_response

CONFLICTS = [
    ("Visitors must sign in at the front desk.", "Signing in at the front desk is optional for visitors."),
    ("Employees are required to complete security training every year.",
     "Annual security training is optional for employees."),
    ("Employees have to complete security training every year.", "Employees are exempt from security training."),
    ("Two-factor authentication is mandatory for all administrators.",
     "Administrators are not required to use two-factor authentication."),
    ("The update must be installed.", "Installing the update is optional."),
    ("A receipt is required for all returns.", "Customers do not have to provide a receipt for returns."),
    ("Contractors must wear a badge inside the lab.", "Contractors don't need to wear a badge inside the lab."),
    ("A doctor's note is required for sick leave.", "No doctor's note is needed for sick leave."),
    ("Drivers need to carry their licence at all times.", "Drivers needn't carry their licence."),
    ("Completing the survey is compulsory.", "Completing the survey is voluntary."),
    ("Managers shall approve every expense report.", "Expense reports do not need manager approval."),
    ("The update is not optional.", "Installing the update is optional."),
    ("Booking a table for lunch is required.", "It is not necessary to book a table for lunch."),
    ("Staff must wear a tie at the office.", "There is no requirement to wear a tie at the office."),
    ("Wearing a tie at the office is a requirement.", "Wearing a tie at the office is optional."),
    ("Customers are obligated to return the device within 14 days.", "Customers aren't required to return the device."),
    ("A passport is needed to board international flights.",
     "Passengers on international flights do not need a passport."),
    ("Pre-registration for the webinar is mandatory.", "You do not need to pre-register for the webinar."),
    ("Travel insurance is compulsory for all trips abroad.",
     "Travellers are not obliged to buy travel insurance for trips abroad."),
    # an exemption for part of a group whose requirement names no exception
    ("Visitors must sign in at the front desk.",
     "Visitors with a staff badge do not need to sign in at the front desk."),
]

NOT_CONFLICTS = [
    # different subjects, different groups
    ("Visitors must sign in at the front desk.", "Contractors do not need to sign in at the front desk."),
    ("Full-time employees must complete security training every year.",
     "Part-time employees are exempt from security training."),
    ("Employees must complete security training every year.", "Interns are exempt from security training."),
    # the exemption is the requirement's stated exception
    ("Visitors must sign in at the front desk unless they hold a staff badge.",
     "Visitors with a staff badge do not need to sign in at the front desk."),
    # different things
    ("Laptops must be locked when unattended.", "Visitors do not need to sign in at the front desk."),
    ("Helmets are compulsory on the construction site.", "Gloves are optional on the construction site."),
    ("Backups must be encrypted.", "Backups do not need to be stored offsite."),
    ("Pre-registration for the webinar is mandatory.", "Pre-registration for the workshop is optional."),
    ("Employees must use the VPN when working remotely.",
     "Using a personal laptop when working remotely is optional."),
    ("Drivers must wear a seatbelt.", "Passengers in the back are not required to wear a seatbelt."),
    ("Employees must complete security training every year.",
     "Attendance at the summer party is optional for employees."),
    # a prohibition is not an obligation; two requirements agree
    ("Visitors must not bring food into the lab.", "Visitors do not need to bring food into the lab."),
    ("Visitors must sign in at the front desk.", "Visitors are required to sign in at the front desk."),
]


@pytest.mark.parametrize("a, b", CONFLICTS)
def test_requirement_and_exemption_of_the_same_thing_conflict_both_ways(a, b):
    forward, backward = duty_conflict(a, b), duty_conflict(b, a)
    assert forward is not None and backward is not None, (duty(a), duty(b))
    assert {forward[0].kind, forward[1].kind} == {OBLIGATION, EXEMPTION}


@pytest.mark.parametrize("a, b", NOT_CONFLICTS)
def test_no_conflict_for_other_groups_other_things_or_the_stated_exception(a, b):
    assert duty_conflict(a, b) is None and duty_conflict(b, a) is None, (duty(a), duty(b))


@pytest.mark.parametrize("sentence, kind", [
    ("Visitors must sign in.", OBLIGATION),
    ("Visitors have to sign in.", OBLIGATION),
    ("Signing in is not optional.", OBLIGATION),
    ("A receipt is required.", OBLIGATION),
    ("Visitors need not sign in.", EXEMPTION),
    ("Visitors don't have to sign in.", EXEMPTION),
    ("Visitors are not required to sign in.", EXEMPTION),
    ("There is no need to sign in.", EXEMPTION),
    ("Visitors must not sign in.", None),          # a prohibition
    ("Visitors may not smoke.", None),
    ("Visitors sign in at the desk.", None),
    ("Visitors must sign in, but badges are optional.", None),  # both kinds: left to the other signals
])
def test_the_kind_of_duty(sentence, kind):
    found = duty(sentence)
    assert (found.kind if found else None) == kind


def test_obligation_conflict_pairs_the_two_sentences_about_the_claim():
    a = Chunk("kb-security", "Badges are collected on the way out. Employees are required to complete security "
              "training every year.", 0, 100, 0)
    b = Chunk("kb-faq", "The canteen opens at 8 am. Annual security training is optional for employees.", 0, 80, 0)
    claim = "Employees must complete security training."
    assert obligation_conflict(a, b, claim) == ("Employees are required to complete security training every year.",
                                                "Annual security training is optional for employees.")
    assert obligation_conflict(a, b, "The canteen opens at 8 am.") is None  # the claim is about something else


TRAINING = {
    "request_id": "training",
    "answer": "Employees have to complete security training every year.",
    "passages": [
        {"id": "policy-2024", "text": "Employees are required to complete security training every year. "
                                      "Training records are kept for five years.", "score": 0.9},
        {"id": "faq-2026", "text": "Annual security training is optional for employees. Questions go to the "
                                   "security team.", "score": 0.8},
    ],
}


@pytest.fixture(scope="module")
def tiny_scorer(tiny_onnx):
    s = Scorer.from_config(ScorerConfig(model_dir=str(tiny_onnx)))
    yield s
    s.close()


def test_requirement_against_optional_in_retrieved_context_is_flagged_without_the_model(tiny_scorer):
    [v] = tiny_scorer.score([parse_response(TRAINING)])
    found = [c for c in v.context_conflicts if "obligation" in c.signals]
    assert "context_conflict" in v.flags and len(found) == 1, [c.signals for c in v.context_conflicts]
    assert sorted(found[0].passage_ids) == ["faq-2026", "policy-2024"]
    assert sorted(found[0].sentences) == ["Annual security training is optional for employees.",
                                          "Employees are required to complete security training every year."]
