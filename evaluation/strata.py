"""Strata of a scored response, derived from its text, its hints and its verdicts.

  numeric            the answer states a number, date or percentage
  negation           the answer contains a negation
  multi_hop          the data says the support needs two or more sentences / paragraphs
  gold_absent        a scored claim's top_k evidence holds none of the gold passages (the response
                     names gold_passage_ids): retrieval, not the verifier, left it unsupported
  decorative_heavy   at least half of the answer's claims were skipped as decorative
  long_passages      the passages hold 800 words or more together
  set:NAME           the source data set
plus any other hint the converter gave (begin_generic, qags_xsum, short_answer ...).
"""

from __future__ import annotations

import re

from groundwatch.evaluation.scored import Scored, StoredClaim, Variant, premises
from groundwatch.scorers.english.negation import STRATUM_NEGATIONS
from groundwatch.scorers.english.quantities import quantities

LONG_PASSAGE_WORDS = 800
_NEGATION = re.compile(r"\b(" + "|".join(sorted(STRATUM_NEGATIONS)) + r")\b|n't\b", re.I)


def strata_of(scored: Scored, variant: Variant) -> list[str]:
    response = scored.item.response
    out = {f"set:{scored.item.set_name}"}
    out.update(h for h in scored.item.hints)
    if quantities(response.answer):
        out.add("numeric")
    if _NEGATION.search(response.answer):
        out.add("negation")
    claims = scored.claims
    skipped = sum(1 for c in claims if c.skipped)
    if claims and skipped * 2 >= len(claims):
        out.add("decorative_heavy")
    if sum(len(p.text.split()) for p in response.passages) >= LONG_PASSAGE_WORDS:
        out.add("long_passages")
    gold = set(response.gold_passage_ids or ())
    if gold and any(gold_absent(c, variant, gold) for c in claims if not c.skipped):
        out.add("gold_absent")
    return sorted(out)


def gold_absent(claim: StoredClaim, variant: Variant, gold: set[str]) -> bool:
    """None of `gold` among the passages of the premises the variant's top_k would have scored."""
    try:
        evidence = premises(claim, variant)
    except ValueError:  # records without premise ranks: every stored premise
        evidence = claim.evidence
    return not any(gold & set(e.passage_ids) for e in evidence)
