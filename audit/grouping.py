"""Which statement pairs are worth checking: same fact key, or embedding neighbours.

Documents stream in chunks: their statements go to the on-disk store and
their sentence embeddings to the vector file, so only ids and vectors (in
the index) stay in memory. Candidates come from both groupings, once each.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from groundwatch.audit.documents import Document
from groundwatch.audit.neighbours import NeighbourIndex
from groundwatch.audit.statements import Statement, statements_of
from groundwatch.audit.store import StatementStore


@dataclass
class CandidatePair:
    a: int                     # statement ids, a < b
    b: int
    reasons: set[str] = field(default_factory=set)  # "key", "neighbour"
    similarity: float | None = None


class Grouping:
    def __init__(self, workdir: str | Path, embedder=None, exact_limit: int = 20_000):
        workdir = Path(workdir)
        self.store = StatementStore(workdir / "statements.sqlite")
        self.embedder = embedder
        self.index = NeighbourIndex(workdir / "vectors.f32", exact_limit=exact_limit) if embedder else None

    def add(self, documents: list[Document]) -> list[Statement]:
        """One chunk of documents: statements stored and embedded; returned for per-document checks."""
        statements = []
        for doc in documents:
            self.store.add_document(doc.doc_id, doc.title, doc.updated_at, doc.source)
            statements.extend(statements_of(doc))
        self.store.add(statements)
        if self.index is not None and statements:
            self.index.add(self.embedder.encode([s.text for s in statements]))
        self.store.commit()
        return statements

    def finish(self) -> None:
        if self.index is not None:
            self.index.finish()

    def close(self) -> None:
        self.store.close()

    def _value_pairs(self, key: str, ids: list[int]) -> list[tuple[int, int]]:
        """Statements sharing a key, bucketed by value: each one meets one representative of every other value.

        Statements that agree need no comparison, so a key stated in thousands
        of documents costs pairs in proportion to them, not to their square.
        """
        statements = self.store.get(ids)
        buckets: dict[tuple, list[int]] = {}
        for sid in ids:
            for fact in statements[sid].facts:
                if fact.key == key:
                    buckets.setdefault((fact.value.unit, fact.value.amounts), []).append(sid)
        representatives = [members[0] for members in buckets.values()]
        pairs = set()
        for members in buckets.values():
            for sid in members:
                pairs.update((min(sid, r), max(sid, r)) for r in representatives if r not in members)
        return sorted(pairs)

    def candidates(self, neighbours: int = 8, min_similarity: float = 0.6, max_key_group: int = 5000
                   ) -> dict[tuple[int, int], CandidatePair]:
        found: dict[tuple[int, int], CandidatePair] = {}

        def note(a: int, b: int, reason: str, similarity: float | None = None) -> None:
            pair = found.setdefault((a, b), CandidatePair(a, b))
            pair.reasons.add(reason)
            if similarity is not None:
                pair.similarity = similarity

        for key, ids in self.store.key_groups(max_key_group):
            for a, b in self._value_pairs(key, ids):
                note(a, b, "key")
        if self.index is not None:
            for a, b, sim in self.index.pairs(neighbours, min_similarity):
                note(a, b, "neighbour", round(sim, 4))
        return found
