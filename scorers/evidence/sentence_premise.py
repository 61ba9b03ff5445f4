"""One more premise per claim: its best-aligned sentence among the top chunks, alone.

A small NLI model reads a claim against a four-sentence window worse than against the
one sentence that carries it: "The reset link stays valid for 60 minutes" gets entailment
0.62 from its chunk and 0.85 from "Reset links expire after 60 minutes." Entailment by a
sentence of a passage is entailment by the passage, so the sentence premise may support a
claim; it never contradicts one on its own (scorers/verdicts/decide.py), because a sentence read
without its neighbours loses what its pronouns and headings refer to.
"""

from __future__ import annotations

from groundwatch.scorers.evidence.chunking import Chunk
from groundwatch.scorers.guards.evidence import align, chunk_sentences
from groundwatch.scorers.evidence.retrieval import Candidate


def sentence_candidate(claim: str, candidates: list[Candidate]) -> Candidate | None:
    """The best-aligned sentence of the claim's top chunks as a premise, or None (no shared content,
    or the chunk is that one sentence already)."""
    chunks = [c for c in candidates if c.kind == "chunk"]
    ranked = align(claim, chunk_sentences(c.chunks[0] for c in chunks))
    if not ranked:
        return None
    best = ranked[0]
    source = next(c for c in chunks
                  if c.chunks[0].passage_id == best.passage_id and c.chunks[0].start <= best.start < c.chunks[0].end)
    chunk = source.chunks[0]
    if best.text.strip() == chunk.text.strip():
        return None
    return Candidate((Chunk(best.passage_id, best.text, best.start, best.end, chunk.rank),),
                     source.retrieval_score, sentence=True)
