"""Templated pairs for three errors the labelled mix barely shows: swapped roles (who did what to whom), an
exception stated as the general rule, and "some" read as "all", each beside its faithful rewording.

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


RECIPES = (roles, exception, some_all)


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
