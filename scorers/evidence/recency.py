"""Retrieved passages that disagree: the newer one decides a contradicted claim.

A context conflict (scorers/evidence/conflicts.py) or a stale-evidence record (scorers/evidence/stale.py)
says two retrieved sources disagree about what a claim concerns. When both carry a
parseable `updated_at`, a CONTRADICTED claim whose every contradicting passage is the
older side, while a newer side entails it alone (and no check failed), is superseded: `finalise`
(scorers/verdicts/decide.py) makes it SUPPORTED with the flag `superseded_contradiction`: the contradiction comes from the text the newer
one replaced ("300 requests per minute" in the 2024 docs, "600" in this year's).

The mirror rule (support only from the older side -> NOT_ENOUGH_INFO) is not applied: the
conflict detector cannot tell two leaflets about different medicines ("do not take more than
8 tablets" / "6 tablets") from two versions of one, and on the examples it withdrew correct
support; a newer passage that entails the claim is itself evidence that both are about it.
Only single-passage premises count: a joined pair holds both sides.
"""

from __future__ import annotations

from groundwatch.scorers.verdicts.decide import SUPERSEDED_CONTRADICTION, judged
from groundwatch.scorers.records import ClaimVerdict, ResponseVerdict, Verdict
from groundwatch.scorers.schema import Response
from groundwatch.scorers.verdicts.thresholds import Thresholds
from groundwatch.scorers.times import parse_time

__all__ = ["SUPERSEDED_CONTRADICTION", "superseded"]


def _older_newer(verdict: ResponseVerdict, when: dict, claim_index: int) -> tuple[set[str], set[str]]:
    """Passage ids on the older and on the newer side of the claim's dated disagreements."""
    pairs = [tuple(c.passage_ids[:2]) for c in verdict.context_conflicts if c.claim_index == claim_index]
    pairs += [(s.passage_id, s.newer_id) for s in verdict.stale_evidence
              if s.claim_index == claim_index and s.source == "retrieved"]
    older, newer = set(), set()
    for a, b in pairs:
        ta, tb = when.get(a), when.get(b)
        if ta is None or tb is None or ta == tb:
            continue
        older.add(a if ta < tb else b)
        newer.add(b if ta < tb else a)
    return older - newer, newer - older


def _passages(claim: ClaimVerdict, holds) -> set[str]:
    return {e.passage_ids[0] for e in claim.evidence if e.kind == "chunk" and holds(e)}


def superseded(verdict: ResponseVerdict, response: Response, thresholds: Thresholds) -> set[int]:
    """Indexes of the contradicted claims whose contradiction is the older side of a dated disagreement."""
    out: set[int] = set()
    when = {p.id: parse_time(p.updated_at) for p in response.passages}
    for claim in verdict.claims:
        if judged(claim) is not Verdict.CONTRADICTED or "contradicted_by_check" in claim.flags \
                or not all(c.passed for c in claim.checks):
            continue
        older, newer = _older_newer(verdict, when, claim.index)
        entailing = _passages(claim, lambda e: e.entailment >= thresholds.entailment(e.retrieval_score))
        contradicting = _passages(claim, lambda e: e.contradiction >= thresholds.contradiction(e.retrieval_score))
        if contradicting and contradicting <= older and entailing & newer and not entailing & older:
            out.add(claim.index)
    return out
