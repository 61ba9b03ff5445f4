"""Per-claim retrieval from the knowledge base: a retrieval miss told apart from a hallucination.

Optional (settings `corpus.enabled`, off by default). For each claim the logged passages
leave NOT_ENOUGH_INFO (at most `max_claims` per response), the corpus is searched with
the claim as the query (`CorpusSearch`: BM25, plus k-NN with the claim's embedding where
the server has it, fused by RRF; recall_probe/corpus.py), the top `top_hits` documents
are chunked and ranked like logged passages, and the top chunks are scored by the NLI
model. `decide` with the scorer's thresholds then says whether the corpus supports the
claim: `retrieval_miss` (it does; the application's retriever did not return it) or
`unsupported_by_corpus` (a generation problem). The claim's verdict is not changed.

Cost is bounded: only those claims, only the top hits, and one deadline for the whole
batch (`corpus.deadline_s`, never past the batch's own), checked before every search and
while waiting for model results; claims not reached get outcome `skipped` with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, Sequence

from groundwatch.scorers.evidence.chunking import chunk_passages
from groundwatch.scorers.deadline import Deadline
from groundwatch.scorers.verdicts.decide import decide, judged
from groundwatch.scorers.errors import DeadlineExceeded
from groundwatch.scorers.records import ClaimVerdict, Evidence, ResponseVerdict, Verdict
from groundwatch.scorers.evidence.retrieval import EvidenceIndex
from groundwatch.scorers.schema import Passage

OUTCOMES = ("retrieval_miss", "unsupported_by_corpus")


class CorpusUnavailable(RuntimeError):
    """The knowledge base could not be searched."""


@dataclass(frozen=True)
class CorpusDoc:
    id: str
    text: str
    updated_at: str | None = None


class CorpusSearch(Protocol):
    name: str

    def search(self, text: str, k: int, vector=None) -> list[CorpusDoc]: ...


@dataclass
class _Lookup:
    verdict: ResponseVerdict
    claim: ClaimVerdict
    docs: list[CorpusDoc] = field(default_factory=list)
    candidates: list = field(default_factory=list)
    futures: list = field(default_factory=list)
    skipped: str | None = None


class CorpusChecker:
    def __init__(self, search: CorpusSearch, settings, pairs, thresholds, embedder=None, config=None):
        self.search, self.settings = search, settings
        self.pairs, self.thresholds, self.embedder = pairs, thresholds, embedder
        self.chunk_sentences = getattr(config, "chunk_sentences", 4)
        self.chunk_overlap = getattr(config, "chunk_overlap", 1)
        self.rrf_k = getattr(config, "rrf_k", 60)

    def deadline(self, batch: Deadline | None) -> Deadline:
        remaining = batch.remaining() if batch is not None else None
        seconds = self.settings.deadline_s if remaining is None else min(self.settings.deadline_s, remaining)
        return Deadline(seconds, batch.future_s if batch is not None else None)

    def check(self, verdicts: Sequence[ResponseVerdict], batch_deadline: Deadline | None = None
              ) -> dict[int, list[CorpusDoc]]:
        """Record `corpus` on every looked-up claim; the documents found, by id(verdict)."""
        deadline = self.deadline(batch_deadline)
        lookups = [_Lookup(v, c) for v in verdicts
                   for c in [c for c in v.claims if judged(c) is Verdict.NOT_ENOUGH_INFO][: self.settings.max_claims]]
        for lookup in lookups:
            self._search(lookup, deadline)
        for lookup in lookups:
            self._record(lookup, deadline)
        found: dict[int, list[CorpusDoc]] = {}
        for lookup in lookups:
            found.setdefault(id(lookup.verdict), []).extend(lookup.docs)
        for v in verdicts:
            for outcome in OUTCOMES:
                if any(outcome in c.flags for c in v.claims) and outcome not in v.flags:
                    v.flags.append(outcome)
        return found

    def _search(self, lookup: _Lookup, deadline: Deadline) -> None:
        if deadline.expired():
            lookup.skipped = "deadline"
            return
        text = lookup.claim.text
        vector = self.embedder.encode([text])[0] if self.embedder is not None else None
        try:
            lookup.docs = self.search.search(text, self.settings.top_hits, vector)
        except CorpusUnavailable:
            lookup.skipped = "unavailable"
            return
        passages = [Passage(id=d.id, text=d.text, updated_at=d.updated_at) for d in lookup.docs if d.text.strip()]
        chunks = chunk_passages(passages, self.chunk_sentences, self.chunk_overlap)
        index = EvidenceIndex(chunks, self.embedder)
        lookup.candidates = index.candidates(text, self.settings.top_hits, 0, self.rrf_k)
        if lookup.candidates:
            lookup.futures = self.pairs.submit([(cand.text, text) for cand in lookup.candidates])

    def _record(self, lookup: _Lookup, deadline: Deadline) -> None:
        claim = lookup.claim
        if lookup.skipped is None and lookup.futures:
            try:
                scores = [deadline.result(f) for f in lookup.futures]
            except DeadlineExceeded:
                lookup.skipped = "deadline"
        if lookup.skipped is not None:
            claim.corpus = {"outcome": "skipped", "reason": lookup.skipped, "evidence_ids": [],
                            "index": self.search.name}
            return
        evidence = [Evidence([ch.passage_id for ch in cand.chunks], [ch.offsets for ch in cand.chunks],
                             round(s.entailment, 4), round(s.neutral, 4), round(s.contradiction, 4),
                             round(cand.retrieval_score, 4), cand.kind)
                    for cand, s in zip(lookup.candidates, scores)] if lookup.futures else []
        verdict, _ = decide(evidence, [], self.thresholds) if evidence else (Verdict.NOT_ENOUGH_INFO, [])
        outcome = "retrieval_miss" if verdict is Verdict.SUPPORTED else "unsupported_by_corpus"
        best = max(evidence, key=lambda e: e.entailment) if evidence else None
        claim.corpus = {
            "outcome": outcome, "reason": verdict.value, "index": self.search.name,
            "evidence_ids": list(dict.fromkeys(pid for e in sorted(evidence, key=lambda e: -e.entailment)
                                               for pid in e.passage_ids)),
            "entailment": best.entailment if best else 0.0,
            "contradiction": max((e.contradiction for e in evidence), default=0.0),
        }
        if outcome not in claim.flags:
            claim.flags.append(outcome)
