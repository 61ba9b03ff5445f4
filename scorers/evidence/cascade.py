"""The evidence cascade: each claim's single premises first, its joined pairs only where they leave it open.

A joined pair (two of the top chunks as one premise, scorers/evidence/retrieval.py) is the longest input a claim
has, and it earns its cost where support is split across two chunks: where no single chunk and no
sentence premise decides the claim. So the pipeline scores the single chunks and the sentence premise
first (`single_premises`), and the joined pairs only of the claims that evidence leaves open (`settled`).

A claim is settled, and its pairs are not scored, when its single premises agree on it:
- a failed check carries a verified mismatch: decide() makes it CONTRADICTED whatever any premise says;
- the model contradicts it on a single premise (contradiction first, as in decide()) and no premise
  entails it above its threshold;
- a premise entails it and none reads contradiction as its most likely label.
Anywhere the single premises disagree, a joined pair can tip the verdict either way (a chunk's 0.76
contradiction becomes 0.99 when read beside its neighbour; an entailment of 0.97 on the joined text
outweighs a chunk's 0.967 contradiction), so those claims get their pairs, as do the claims no single
premise decides (NOT_ENOUGH_INFO). Their verdict is then the one the full set of premises gives.
"""

from __future__ import annotations

from groundwatch.scorers.verdicts.decide import decide
from groundwatch.scorers.guards.mismatch import verified
from groundwatch.scorers.records import Check, Evidence, Verdict
from groundwatch.scorers.evidence.retrieval import Candidate
from groundwatch.scorers.verdicts.thresholds import Thresholds


def single_premises(candidates: list[Candidate]) -> list[int]:
    """Positions of the candidates scored first: every premise but the joined pairs."""
    return [i for i, cand in enumerate(candidates) if cand.kind != "pair"]


def settled(evidence: list[Evidence], checks: list[Check], thresholds: Thresholds) -> bool:
    """Whether the joined pairs can be left unscored: the single premises' `evidence` (and the claim's
    checks) agree on the verdict."""
    if any(not c.passed and verified(c.found) for c in checks):
        return True
    if not evidence:
        return False
    verdict, _ = decide(evidence, [], thresholds)
    if verdict is Verdict.CONTRADICTED:
        return not any(e.entailment >= thresholds.entailment(e.retrieval_score) for e in evidence)
    if verdict is Verdict.SUPPORTED:
        return not any(e.contradiction > max(e.entailment, e.neutral) for e in evidence)
    return False
