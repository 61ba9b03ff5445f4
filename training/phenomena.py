"""Templated pairs for three errors the labelled mix barely shows: swapped roles (who did what to whom, and who
does which of two duties), an exception stated as the general rule, and "some" read as "all", each beside its
faithful rewording.

The controls (examples/controls) test the same phenomena and are never trained on: these templates have their
own organisations, people, roles, relations and properties (tests/unit/test_phenomena.py checks that none
of them, and no generated sentence, appears in the controls).
"""

from __future__ import annotations

import random

from groundwatch.scorers.english.units import NUMBER_WORDS
from groundwatch.training.labels import LABEL2ID
from groundwatch.training.nli_data import Pair

ENT, NEU, CON = LABEL2ID["entailment"], LABEL2ID["neutral"], LABEL2ID["contradiction"]

ORGS = ["Brackenfield Logistics", "Corvane Systems", "Ellery & Moss", "Halden Foods", "Norwick Clinic",
        "Quillon Press", "Stavely Engineering", "Westbury Credit Union", "Ambleside Bakeries", "Torrin Labs"]
PEOPLE = ["Priya Nair", "Tomasz Wojcik", "Amara Okafor", "Lena Fischer", "Diego Alvarez", "Hana Sato",
          "Ruth Abernethy", "Kwame Mensah", "Sofia Marchetti", "Owen Pritchard", "Ines Duarte", "Farid Haddad"]
ROLES = ["the night manager", "the payroll clerk", "the site foreman", "the chief pilot", "the quality inspector",
         "the sous chef", "the lab technician", "the shift supervisor", "the branch auditor", "the lead designer",
         "the junior analyst", "the warehouse planner"]
# (active, passive): relations that do not hold both ways, so exchanging the two parties makes the sentence false.
RELATIONS = [("instructs", "is instructed by"), ("supervises", "is supervised by"), ("sponsors", "is sponsored by"),
             ("interviews", "is interviewed by"), ("briefs", "is briefed by"), ("hired", "was hired by"),
             ("replaced", "was replaced by"), ("outranks", "is outranked by"), ("invoices", "is invoiced by"),
             ("coaches", "is coached by"), ("overrules", "is overruled by"), ("employs", "is employed by")]
# (active, passive with {x}): two duties split between two people; the other person doing one is unsupported.
DUTIES = [("logs the returns", "The returns are logged by {x}"), ("orders the stock", "The stock is ordered by {x}"),
          ("locks the loading bay", "The loading bay is locked by {x}"),
          ("approves the rota", "The rota is approved by {x}"),
          ("files the incident forms", "The incident forms are filed by {x}"),
          ("calibrates the scales", "The scales are calibrated by {x}"),
          ("answers the helpline", "The helpline is answered by {x}"),
          ("books the couriers", "The couriers are booked by {x}"), ("counts the till", "The till is counted by {x}"),
          ("restocks the first-aid kits", "The first-aid kits are restocked by {x}")]
# (a to b, b from a): one hand-over told from either side; the reverse direction is a different event.
CONVERSES = [("lends the van to {b}", "{b} borrows the van from {a}"),
             ("passes the night log to {b}", "{b} receives the night log from {a}"),
             ("sells spare parts to {b}", "{b} buys spare parts from {a}"),
             ("sends the weekly figures to {b}", "{b} is sent the weekly figures by {a}"),
             ("teaches first aid to {b}", "{b} learns first aid from {a}")]
WHEN = ["", " every Monday", " each quarter", " before each shift", " in the first week", " after every audit"]
FILLERS = ["The building opens at 8 am.", "Visitors sign in at the front desk.", "The canteen closes at 3 pm.",
           "Staff badges are renewed every year.", "The car share scheme started in 2021.", ""]

# (thing, predicate with {n}, values, site): a rule with one exception.
RULES = [("A day pass", "costs £{n}", (4, 6, 9, 12), "branch"),
         ("Delivery", "takes {n} working days", (2, 3, 5, 7), "depot"),
         ("The morning shift", "starts at {n} am", (6, 7, 8, 9), "warehouse"),
         ("The late bus", "leaves at {n} pm", (9, 10, 11), "campus"),
         ("A repair", "is guaranteed for {n} months", (3, 6, 12, 18), "workshop"),
         ("Entry", "is limited to {n} people", (20, 40, 60, 80), "hall")]
PLACES = ["north", "harbour", "old town", "airport", "riverside", "hillside", "station", "market"]

# (plural predicate, singular predicate, site): what only some of an organisation's sites have.
PROPERTIES = [("have a cafe", "has a cafe"), ("open on Sundays", "opens on Sundays"),
              ("accept cash", "accepts cash"), ("run a night shift", "runs a night shift"),
              ("have step-free access", "has step-free access"), ("offer bike storage", "offers bike storage"),
              ("stock spare parts", "stocks spare parts"), ("have a first-aid room", "has a first-aid room")]
SITES = ["depot", "store", "clinic", "warehouse", "office", "workshop"]
COUNT_WORDS = {value: word for word, value in NUMBER_WORDS.items()}  # 2 -> "two"


def _sentence(text: str) -> str:
    return text[0].upper() + text[1:]


def roles(rng: random.Random) -> list[Pair]:
    """One faithful rewording (entailment) and one swap of the two parties (contradiction)."""
    org, (active, passive), when = rng.choice(ORGS), rng.choice(RELATIONS), rng.choice(WHEN)
    a, b = rng.sample(PEOPLE + ROLES, 2)
    premise = f"At {org}, {a} {active} {b}{when}. {rng.choice(FILLERS)}".strip()
    faithful = rng.choice([f"At {org}, {b} {passive} {a}{when}.", _sentence(f"{a} {active} {b}{when} at {org}.")])
    swapped = rng.choice([f"At {org}, {b} {active} {a}{when}.", f"At {org}, {a} {passive} {b}{when}."])
    return [Pair(premise, faithful, ENT, "phenomenon_roles"), Pair(premise, swapped, CON, "phenomenon_roles")]


def duties(rng: random.Random) -> list[Pair]:
    """Two people, two duties (or one hand-over): a faithful rewording of one part (entailment); the other person
    doing a duty, or the hand-over the other way round (not entailment: the same words, other roles)."""
    org, when = rng.choice(ORGS), rng.choice(WHEN)
    a, b = rng.sample(PEOPLE + ROLES, 2)
    if rng.random() < 0.6:
        (act1, passive1), (act2, passive2) = rng.sample(DUTIES, 2)
        premise = rng.choice([f"At {org}, {a} {act1}{when} and {b} {act2}.",
                              f"At {org}, {a} {act1}{when}; after that, {b} {act2}."])
        faithful = rng.choice([passive2.format(x=b) + f" at {org}.", _sentence(f"{b} {act2} at {org}."),
                               passive1.format(x=a) + f" at {org}."])
        swapped = rng.choice([_sentence(f"{b} {act1} at {org}."), passive1.format(x=b) + f" at {org}.",
                              _sentence(f"{a} {act2} at {org}.")])
        label = NEU
    else:
        give, take = rng.choice(CONVERSES)
        premise = f"At {org}, {a} {give.format(b=b)}{when}."
        faithful = _sentence(take.format(a=a, b=b)) + f" at {org}."
        swapped = rng.choice([_sentence(take.format(a=b, b=a)), _sentence(f"{b} {give.format(b=a)}")]) + f" at {org}."
        label = CON
    premise = f"{premise} {rng.choice(FILLERS)}".strip()
    return [Pair(premise, faithful, ENT, "phenomenon_duties"), Pair(premise, swapped, label, "phenomenon_duties")]


def exception(rng: random.Random) -> list[Pair]:
    """The rule with its exception (entailment); the exception as the rule, or the rule without its exception
    (contradiction)."""
    org, (thing, predicate, values, site), place = rng.choice(ORGS), rng.choice(RULES), rng.choice(PLACES)
    usual, special = (predicate.format(n=n) for n in rng.sample(values, 2))
    lower = thing[0].lower() + thing[1:]
    premise = (f"{thing} {usual} at every {org} {site} except the {place} {site}, where {lower} {special}. "
               f"{rng.choice(FILLERS)}").strip()
    faithful = rng.choice([f"Except at the {place} {site}, {lower} {usual} at {org}.",
                           f"At the {place} {site} of {org}, {lower} {special}.",
                           f"{thing} {usual} at {org} {site}s other than the {place} one."])
    wrong = rng.choice([f"{thing} {special} at {org}.", f"{thing} {special} at every {org} {site}.",
                        f"{thing} {usual} at every {org} {site}."])
    return [Pair(premise, faithful, ENT, "phenomenon_exception"), Pair(premise, wrong, CON, "phenomenon_exception")]


def some_all(rng: random.Random) -> list[Pair]:
    """Some sites have a property: "not every" or "some" (entailment); "every" is a contradiction when the
    passage says the others lack it, and unverified when it only says "some"."""
    org, (plural, singular), site = rng.choice(ORGS), rng.choice(PROPERTIES), rng.choice(SITES)
    total = rng.randint(3, 8)
    some = rng.randint(1, total - 1)
    if rng.random() < 0.7:
        them = "one of them" if some == 1 else f"{COUNT_WORDS[some]} of them"
        verb = singular if some == 1 else plural
        premise = f"{org} runs {COUNT_WORDS[total]} {site}s. Only {them} {verb}; the others do not."
        every_label = CON
    else:
        premise = f"Some {org} {site}s {plural}."
        every_label = NEU
    faithful = rng.choice([f"Not every {org} {site} {singular}.", f"Some {org} {site}s {plural}.",
                           f"Not all {org} {site}s {plural}."] if every_label == CON else
                          [f"At least one {org} {site} {singular}.", f"Some {org} {site}s {plural}."])
    every = rng.choice([f"Every {org} {site} {singular}.", f"All {org} {site}s {plural}.",
                        f"Each {org} {site} {singular}."])
    return [Pair(premise, faithful, ENT, "phenomenon_some_all"), Pair(premise, every, every_label,
                                                                      "phenomenon_some_all")]


RECIPES = (roles, exception, some_all, duties)


def build(seed: int, per_phenomenon: int) -> list[Pair]:
    """About `per_phenomenon` pairs of each phenomenon, half faithful, half wrong; no pair twice."""
    rng, out, seen = random.Random(seed), [], set()
    for recipe in RECIPES:
        made, tries = 0, 0
        while made < per_phenomenon and tries < 20 * per_phenomenon:
            tries += 1
            for pair in recipe(rng):
                if (pair.premise, pair.hypothesis) not in seen:
                    seen.add((pair.premise, pair.hypothesis))
                    out.append(pair)
                    made += 1
    return out
