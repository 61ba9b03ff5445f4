"""Evidence per claim: hybrid BM25 + sentence-embedding ranking fused by RRF.

The query is the claim itself, not the question. The top k chunks are kept,
plus the pairwise concatenations of the top three so that a claim whose
support is split across two passages can still be entailed.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np
from rank_bm25 import BM25Okapi

from groundwatch.scorers.evidence.chunking import Chunk
from groundwatch.scorers.evidence.embedder import Embedder
from groundwatch.scorers.schema import Passage
from groundwatch.scorers.english.text import tokens


@dataclass(frozen=True)
class Candidate:
    """A premise for NLI: one chunk, two chunks joined (kind == 'pair') or one sentence of a chunk."""

    chunks: tuple[Chunk, ...]
    retrieval_score: float  # cosine similarity of claim and evidence, in [0, 1]
    sentence: bool = False  # the claim's best-aligned sentence of a top chunk (scorers/evidence/sentence_premise.py)

    @property
    def text(self) -> str:
        return " ".join(c.text for c in self.chunks)

    @property
    def kind(self) -> str:
        return "sentence" if self.sentence else "pair" if len(self.chunks) > 1 else "chunk"


def rrf(rankings: list[list[int]], k: int = 60) -> dict[int, float]:
    """Reciprocal rank fusion: score(d) = sum over rankings of 1 / (k + rank(d))."""
    scores: dict[int, float] = {}
    for ranking in rankings:
        for rank, doc in enumerate(ranking, start=1):
            scores[doc] = scores.get(doc, 0.0) + 1.0 / (k + rank)
    return scores


class EvidenceIndex:
    """The chunks of one response, indexed for BM25 and embedding search."""

    def __init__(self, chunks: list[Chunk], embedder: Embedder | None):
        self.chunks = chunks
        self._bm25 = BM25Okapi([tokens(c.text) or ["\x00"] for c in chunks]) if chunks else None
        self._embedder = embedder
        self._vectors = embedder.encode([c.text for c in chunks]) if embedder and chunks else None

    def similarities(self, claim: str) -> np.ndarray:
        if self._vectors is None:
            return np.zeros(len(self.chunks))
        query = self._embedder.encode([claim])[0]
        return np.clip(self._vectors @ query, 0.0, 1.0)

    def candidates(self, claim: str, top_k: int = 4, pair_top: int = 3, rrf_k: int = 60) -> list[Candidate]:
        if not self.chunks:
            return []
        sims = self.similarities(claim)
        bm25 = self._bm25.get_scores(tokens(claim) or ["\x00"])
        order = range(len(self.chunks))
        rankings = [sorted(order, key=lambda i: (-bm25[i], self.chunks[i].rank))]
        if self._vectors is not None:
            rankings.append(sorted(order, key=lambda i: (-sims[i], self.chunks[i].rank)))
        fused = rrf(rankings, rrf_k)
        top = sorted(fused, key=lambda i: (-fused[i], self.chunks[i].rank))[:top_k]
        return self._with_pairs(top, sims, pair_top, lambda i: (self.chunks[i].rank, self.chunks[i].start))

    def retriever_order_candidates(self, passages: list[Passage], claim: str, top_k: int = 4,
                                   pair_top: int = 3) -> list[Candidate]:
        """The top chunks in the retriever's passage order (by score), the same for every claim."""
        if not self.chunks:
            return []
        position = {p.id: (-(p.score if p.score is not None else 0.0), i) for i, p in enumerate(passages)}
        key = lambda i: (position[self.chunks[i].passage_id], self.chunks[i].start)  # noqa: E731
        top = sorted(range(len(self.chunks)), key=key)[:top_k]
        return self._with_pairs(top, self.similarities(claim), pair_top, key)

    def _with_pairs(self, top: list[int], sims: np.ndarray, pair_top: int, order) -> list[Candidate]:
        """The top chunks, then each pair of the first `pair_top` joined in `order`.

        A pair scores as its better-retrieved chunk: it holds that chunk's text, and split support (the
        reason pairs exist) has one chunk carry a detail the claim barely mentions; scored as the weaker
        chunk, the pair was held to a stricter threshold than either of its parts."""
        out = [Candidate((self.chunks[i],), float(sims[i])) for i in top]
        for a, b in combinations(top[:pair_top], 2):
            first, second = sorted((a, b), key=order)
            out.append(Candidate((self.chunks[first], self.chunks[second]), float(max(sims[a], sims[b]))))
        return out
