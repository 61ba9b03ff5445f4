"""Statements that cannot both hold: value mismatches, polarity conflicts, and NLI contradictions both ways.

Each candidate pair is first related by its facts and wording (model-free):
  mismatch  same key and unit, different value -> a conflict by itself (NLI adds its score)
  agree     same key and value                 -> no NLI needed
  polarity  the same thing, negated on one side ("Visitors must sign in" / "Visitors do not need to
            sign in"; scorers.guards.polarity, as the scorer's guard uses it) -> a conflict by itself
  obligation a requirement and an exemption for the same thing, in any wording ("Employees are required to
            complete security training" / "Annual security training is optional for employees";
            scorers.evidence.obligation)       -> a conflict by itself
  siblings  same attribute or head noun, different entity -> parallel facts ("Basic costs $9" / "Pro costs $49"):
                                                  no NLI, which tends to call such pairs contradictions
  open      nothing to go on                   -> NLI decides
NLI runs premise->hypothesis both ways through the PairScorer (cache, dynamic
batcher); an open pair conflicts when one direction reaches `tau` and the
other `tau_reverse`. Conflicting pairs that share a statement, or a mismatched
key, form one Conflict listing every document and sentence involved. A pair lists
the conditions one side states and the other does not (scorers.guards.conditions),
so a conflict of scope ("... for visitors to the Berlin office") shows as one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from groundwatch.audit.documents import batches
from groundwatch.audit.grouping import CandidatePair
from groundwatch.audit.minhash import normalise
from groundwatch.audit.statements import Statement
from groundwatch.audit.store import StatementStore
from groundwatch.audit.unionfind import UnionFind
from groundwatch.scorers.english.facts import Fact, mismatches
from groundwatch.scorers.guards.conditions import unshared
from groundwatch.scorers.guards.polarity import contradicts
from groundwatch.scorers.evidence.obligation import duty_conflict


@dataclass
class PairFinding:
    a: int
    b: int
    signals: list[str]
    contradiction: float | None = None       # max of the two directions, when scored
    directions: list[float] | None = None    # [a -> b, b -> a]
    mismatched: list[tuple[Fact, Fact]] = field(default_factory=list)
    conditions: list[str] = field(default_factory=list)  # stated on one side only


@dataclass
class Conflict:
    kind: str                     # "inter": across documents; "intra": inside one document
    doc_ids: list[str]
    statements: list[dict]        # provenance: doc_id, title, updated_at, sentence, offsets, text, values
    pairs: list[dict]             # which statements contradict (indexes into statements) and why
    signals: list[str]
    keys: list[str]
    superseded: list[str] = field(default_factory=list)  # older versions among doc_ids


def siblings(a: Fact, b: Fact) -> bool:
    """Different things described alike: same attribute, or kinds of one head noun (free / pro plan)."""
    if a.entity == b.entity:
        return False
    return a.attribute == b.attribute or a.entity.split()[-1:] == b.entity.split()[-1:]


def relate(a: Statement, b: Statement) -> tuple[str, list[tuple[Fact, Fact]]]:
    if normalise(a.text) == normalise(b.text):
        return "same", []
    found = mismatches(list(a.facts), list(b.facts))
    if found:
        return "mismatch", found
    if any(fa.key == fb.key for fa in a.facts for fb in b.facts):
        return "agree", []
    if contradicts(a.text, b.text):
        return "polarity", []
    if duty_conflict(a.text, b.text):
        return "obligation", []
    if any(siblings(fa, fb) for fa in a.facts for fb in b.facts):
        return "siblings", []
    return "open", []


class PairChecker:
    def __init__(self, pairs=None, tau: float = 0.7, tau_reverse: float = 0.5, chunk: int = 256):
        self.pairs = pairs  # PairScorer, or None for the model-free checks only
        self.tau = tau
        self.tau_reverse = tau_reverse
        self.chunk = chunk
        self.scored = 0

    def check(self, store: StatementStore, candidates: list[CandidatePair], bar=None) -> list[PairFinding]:
        findings = []
        for part in batches(candidates, self.chunk):
            statements = store.get(sorted({i for c in part for i in (c.a, c.b)}))
            plans = []
            for cand in part:
                a, b = statements[cand.a], statements[cand.b]
                relation, found = relate(a, b)
                if relation in ("mismatch", "polarity", "obligation", "open"):
                    plans.append((cand, a, b, relation, found))
            futures = []
            if self.pairs is not None and plans:
                both_ways = [p for _, a, b, _, _ in plans for p in ((a.text, b.text), (b.text, a.text))]
                futures = self.pairs.submit(both_ways)
                self.scored += len(futures)
            for n, (cand, a, b, relation, found) in enumerate(plans):
                finding = self._decide(cand, relation, found, futures[2 * n:2 * n + 2])
                if finding and relation != "open":
                    finding.conditions = [c.text for c in unshared(a.text, b.text)]
                if finding:
                    findings.append(finding)
            if bar is not None:
                bar.update(len(part))
        return findings

    def _decide(self, cand: CandidatePair, relation: str, found, futures) -> PairFinding | None:
        signals = {"mismatch": ["value_mismatch"], "polarity": ["polarity"],
                   "obligation": ["obligation"]}.get(relation, [])
        directions = [round(f.result().contradiction, 4) for f in futures] if futures else None
        if directions and max(directions) >= self.tau and min(directions) >= self.tau_reverse:
            signals.append("nli")
        if not signals:
            return None
        return PairFinding(cand.a, cand.b, signals, max(directions) if directions else None, directions, found)


def _components(findings: list[PairFinding], extra: dict[int, set[int]]) -> list[set[int]]:
    sets = UnionFind()
    for f in findings:
        sets.union(f.a, f.b)
        for other in extra.get(f.a, ()):
            sets.union(other, f.a)
    return sets.groups()


def group_conflicts(findings: list[PairFinding], store: StatementStore) -> list[Conflict]:
    """One Conflict per connected group; statements that agree with one side of a mismatch join it."""
    extra: dict[int, set[int]] = {}
    for f in findings:
        for fa, _ in f.mismatched:
            extra.setdefault(f.a, set()).update(store.with_key(fa.key, limit=50))  # listed: at most 50
    conflicts = []
    for ids in _components(findings, extra):
        ordered = sorted(ids)
        statements = store.get(ordered)
        keys = sorted({fa.key for f in findings if f.a in ids for fa, _ in f.mismatched})
        position = {sid: n for n, sid in enumerate(ordered)}
        refs = []
        for sid in ordered:
            s = statements[sid]
            ref = s.ref() | {k: v for k, v in store.document(s.doc_id).items() if k in ("title", "updated_at")}
            values = [f.value.text for f in s.facts if f.key in keys]
            if values:
                ref["values"] = values
            refs.append(ref)
        pairs = [{"statements": [position[f.a], position[f.b]], "signals": f.signals,
                  "contradiction": f.contradiction, "directions": f.directions,
                  "mismatch": [{"key": fa.key, "values": [fa.value.text, fb.value.text]} for fa, fb in f.mismatched],
                  "conditions": f.conditions}
                 for f in findings if f.a in ids]
        doc_ids = sorted({r["doc_id"] for r in refs})
        signals = sorted({s for p in pairs for s in p["signals"]})
        conflicts.append(Conflict("intra" if len(doc_ids) == 1 else "inter", doc_ids, refs, pairs, signals, keys))
    conflicts.sort(key=lambda c: (c.kind, c.doc_ids, c.statements[0]["sentence"]))
    return conflicts
