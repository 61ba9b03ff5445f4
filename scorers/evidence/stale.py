"""Stale evidence: a claim supported by a passage that a newer source contradicts on the same key.

For each SUPPORTED claim, the passages of its deciding evidence are the supporting
passages. Their entity-attribute facts (scorers/english/facts.py, the keys the corpus audit
uses) about what the claim says (in the deciding chunk: facts with the claim's keys or
values, else every fact there) are compared with the facts of the other retrieved passages and of any known
documents (corpus hits): the same key and unit with a different value in a source whose
`updated_at` is later than the supporting passage's flags the claim, naming both.
Sources without a parseable `updated_at` are never compared.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Iterable

from groundwatch.scorers.english.facts import Fact, disagree, sentence_facts, text_facts
from groundwatch.scorers.records import ClaimVerdict, StaleEvidence, Verdict
from groundwatch.scorers.verdicts.decide import judged
from groundwatch.scorers.times import parse_time

FLAG = "stale_evidence"


@dataclass(frozen=True)
class Source:
    """A passage or known document: id, text and when it was last updated."""

    id: str
    text: str
    updated_at: str | None
    kind: str = "retrieved"  # retrieved | corpus

    @property
    def when(self) -> datetime | None:
        return parse_time(self.updated_at)


def _deciding(claim: ClaimVerdict):
    return max(claim.evidence, key=lambda e: e.entailment) if claim.evidence else None


def _claim_facts(claim: ClaimVerdict, source: Source, offsets) -> list[Fact]:
    """The supporting chunk's facts about what the claim says: the claim's own keys or values
    (a paraphrase keys the fact differently but carries the same value), else all of them."""
    chunk = source.text[offsets[0]:offsets[1]] if offsets else source.text
    facts = [f for _, f in text_facts(chunk)]
    own = sentence_facts(claim.text)
    if not own:
        return facts
    keys = {f.key for f in own}
    values = {(f.value.unit, f.value.amounts) for f in own}
    return [f for f in facts if f.key in keys or (f.value.unit, f.value.amounts) in values]


def find_stale(claims: list[ClaimVerdict], sources: Iterable[Source]) -> list[StaleEvidence]:
    """One record per (claim, supporting passage, newer source, key); the claims get the flag."""
    by_id = {s.id: s for s in sources}
    out: list[StaleEvidence] = []
    for claim in claims:
        if judged(claim) is not Verdict.SUPPORTED:  # the judge's answer counts; recency comes after
            continue
        deciding = _deciding(claim)
        if deciding is None:
            continue
        found = False
        for pid, offsets in zip(deciding.passage_ids, deciding.offsets):
            support = by_id.get(pid)
            if support is None or support.when is None:
                continue
            facts = _claim_facts(claim, support, offsets)
            if not facts:
                continue
            for other in by_id.values():
                if other.id == pid or other.when is None or other.when <= support.when:
                    continue
                for fact in facts:
                    newer = next((g for _, g in text_facts(other.text) if disagree(fact, g)), None)
                    if newer is None:
                        continue
                    out.append(StaleEvidence(claim.index, fact.key, pid, support.updated_at, fact.value.text,
                                             other.id, other.updated_at, newer.value.text, other.kind))
                    found = True
                    break
        if found and FLAG not in claim.flags:
            claim.flags.append(FLAG)
    return out
