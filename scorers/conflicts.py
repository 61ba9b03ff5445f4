"""Retrieved-context conflicts: chunks of one response that contradict each other.

Bounded: only the top single chunks a claim's evidence ranking brought
together (at most `per_claim` of them), from different passages, checked
with NLI in both directions (chunk A vs. the most claim-relevant sentence of
B, and the reverse). Pairs repeated across claims are scored once (cache).
"""

from __future__ import annotations

from concurrent.futures import Future
from itertools import combinations

from scorers.claims import sentence_spans
from scorers.chunking import Chunk
from scorers.nli.pair_scorer import PairScorer
from scorers.records import ContextConflict
from scorers.text import content_words
from scorers.thresholds import Thresholds


def focus_sentence(chunk: Chunk, claim: str) -> str:
    """The sentence of a chunk that shares most content words with the claim."""
    words = content_words(claim)
    sentences = [chunk.text[s:e] for s, e in sentence_spans(chunk.text)] or [chunk.text]
    return max(sentences, key=lambda s: len(words & content_words(s)))


class ConflictFinder:
    def __init__(self, pairs: PairScorer, thresholds: Thresholds, per_claim: int = 3):
        self.pairs = pairs
        self.thresholds = thresholds
        self.per_claim = per_claim

    def submit(self, claims) -> list[tuple[int, Chunk, Chunk, str, str, list[Future]]]:
        jobs, seen = [], set()
        for c in claims:
            singles = [cand.chunks[0] for cand in c.candidates if cand.kind == "chunk"][: self.per_claim]
            for a, b in combinations(singles, 2):
                if a.passage_id == b.passage_id:
                    continue
                key = tuple(sorted(((a.passage_id, a.start), (b.passage_id, b.start))))
                if key in seen:
                    continue
                seen.add(key)
                sa, sb = focus_sentence(a, c.claim.text), focus_sentence(b, c.claim.text)
                futures = self.pairs.submit([(a.text, sb), (b.text, sa)])
                jobs.append((c.index, a, b, sa, sb, futures))
        return jobs

    def collect(self, jobs) -> list[ContextConflict]:
        out = []
        tau = self.thresholds.tau_contradiction
        for claim_index, a, b, sa, sb, futures in jobs:
            forward, backward = (f.result() for f in futures)
            score = max(forward.contradiction, backward.contradiction)
            if score >= tau:
                out.append(ContextConflict([a.passage_id, b.passage_id], [sa, sb], round(score, 4), claim_index))
        return out
