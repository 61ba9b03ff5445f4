"""Retrieved-context conflicts: chunks of one response that contradict each other.

Three signals, all bounded per response:
- value mismatch, model-free and run first: sentences of a claim's top single
  chunks (all top_k), from different passages, giving the same entity and
  attribute a different number or date ("Refunds ... within 30 days" vs
  "... within 14 days"). A mismatch flags the response by itself.
- polarity, model-free: two such sentences, about what the claim concerns,
  that disagree on negation of the same predicate (scorers.guards.polarity:
  "Visitors must sign in" vs "Visitors do not need to sign in"). Flags by itself.
- obligation, model-free: where polarity is silent, a requirement and an exemption
  for the same thing (scorers.evidence.obligation: "Employees are required to complete
  security training" vs "Annual security training is optional for employees").
  Flags by itself.
- NLI both ways on the top `per_claim` single chunks from different passages:
  chunk A vs the most claim-relevant sentence of B, and the reverse; for a
  mismatched or polar pair, the two sentences, so the score is on record.
  A direction counts only when its hypothesis and the sentence of the premise
  closest to it talk about the same thing (a shared entity-attribute key or
  close wording, scorers.guards.sameness): "Investments ... are not covered"
  against "Interest is calculated daily ..." is no contradiction.
At most `max_pairs` chunk pairs per response reach the model, mismatches
first, then polarity and obligation. A chunk pair repeated across claims is submitted once, and the
PairScorer's cache answers pairs that earlier responses already scored.
Each conflict keeps the claim<->chunk similarity statistics of its claim
(top, mean, variance), so a conflict between barely relevant chunks shows.
"""

from __future__ import annotations

import statistics
from concurrent.futures import Future
from dataclasses import dataclass
from itertools import combinations

from groundwatch.scorers.evidence.chunking import Chunk
from groundwatch.scorers.answer.claims import sentence_spans
from groundwatch.scorers.english.facts import Fact, disagree, text_facts
from groundwatch.scorers.guards.polarity import contradicts, polar
from groundwatch.scorers.guards.sameness import partner, same_thing
from groundwatch.scorers.nli.pair_scorer import PairScorer
from groundwatch.scorers.evidence.obligation import duty_conflict
from groundwatch.scorers.records import ContextConflict
from groundwatch.scorers.english.text import content_words
from groundwatch.scorers.verdicts.thresholds import Thresholds


def focus_sentence(chunk: Chunk, claim: str) -> str:
    """The sentence of a chunk that shares most content words with the claim."""
    words = content_words(claim)
    sentences = [chunk.text[s:e] for s, e in sentence_spans(chunk.text)] or [chunk.text]
    return max(sentences, key=lambda s: len(words & content_words(s)))


def similarity_stats(similarities: list[float]) -> dict[str, float | None]:
    """top / mean / variance of claim<->chunk cosines; None when the ranking had no embeddings (all 0)."""
    if not similarities or not any(similarities):
        return {"top": None, "mean": None, "variance": None, "n": len(similarities)}
    return {"top": round(max(similarities), 4), "mean": round(statistics.fmean(similarities), 4),
            "variance": round(statistics.pvariance(similarities), 6), "n": len(similarities)}


def value_mismatch(a: Chunk, b: Chunk) -> tuple[str, Fact, str, Fact] | None:
    """The first (sentence of a, fact, sentence of b, fact) whose values disagree."""
    for sa, fa in text_facts(a.text):
        for sb, fb in text_facts(b.text):
            if disagree(fa, fb):
                return sa, fa, sb, fb
    return None


def _about(chunk: Chunk, claim: str) -> list[str]:
    """The sentences of a chunk that share a content word with the claim."""
    words = content_words(claim)
    return [chunk.text[s:e] for s, e in sentence_spans(chunk.text) if words & content_words(chunk.text[s:e])]


def polarity_conflict(a: Chunk, b: Chunk, claim: str) -> tuple[str, str] | None:
    """The first (sentence of a, sentence of b) about the claim's content that disagree in polarity."""
    right = _about(b, claim)
    for sa in _about(a, claim):
        for sb in right:
            if (polar(sa) or polar(sb)) and contradicts(sa, sb):
                return sa, sb
    return None


def obligation_conflict(a: Chunk, b: Chunk, claim: str) -> tuple[str, str] | None:
    """The first (sentence of a, sentence of b) about the claim's content where one requires what the other exempts."""
    right = _about(b, claim)
    for sa in _about(a, claim):
        for sb in right:
            if duty_conflict(sa, sb):
                return sa, sb
    return None


@dataclass
class _Job:
    claim_index: int
    a: Chunk
    b: Chunk
    sentences: tuple[str, str]
    mismatch: tuple[Fact, Fact] | None
    similarities: list[float]
    stats: dict
    futures: list[Future]
    polarity: bool = False
    obligation: bool = False
    counted: tuple[bool, bool] = (True, True)  # which NLI directions may call it a contradiction


class ConflictFinder:
    def __init__(self, pairs: PairScorer, thresholds: Thresholds, per_claim: int = 3, max_pairs: int = 12):
        self.pairs = pairs
        self.thresholds = thresholds
        self.per_claim = per_claim
        self.max_pairs = max_pairs

    def _plan(self, claims) -> list[tuple]:
        """(claim, a, b, sentences, mismatch or "polarity" or "obligation" or None) per chunk pair to check:
        mismatches first, then polarity and obligation, then top chunks whose sentences talk about the same thing."""
        mismatched, polarity, nli_only = [], [], []
        for c in claims:
            singles = [cand.chunks[0] for cand in c.candidates if cand.kind == "chunk"]
            for a, b in combinations(singles, 2):
                if a.passage_id == b.passage_id:
                    continue
                found = value_mismatch(a, b)
                if found:
                    sa, fa, sb, fb = found
                    mismatched.append((c, a, b, (sa, sb), (fa, fb)))
                    continue
                polar_pair = polarity_conflict(a, b, c.claim.text)
                if polar_pair:
                    polarity.append((c, a, b, polar_pair, "polarity"))
                    continue
                duty_pair = obligation_conflict(a, b, c.claim.text)
                if duty_pair:
                    polarity.append((c, a, b, duty_pair, "obligation"))
            for a, b in combinations(singles[: self.per_claim], 2):
                if a.passage_id != b.passage_id:
                    nli_only.append((c, a, b, (focus_sentence(a, c.claim.text), focus_sentence(b, c.claim.text)),
                                     None))
        plan, seen = [], set()
        for item in mismatched + polarity + nli_only:
            _, a, b, _, _ = item
            key = tuple(sorted(((a.passage_id, a.start), (b.passage_id, b.start))))
            if key not in seen and len(plan) < self.max_pairs:
                seen.add(key)
                plan.append(item)
        return plan

    def submit(self, claims) -> list[_Job]:
        jobs = []
        for c, a, b, (sa, sb), found in self._plan(claims):
            chunk_sims = {cand.chunks[0]: cand.retrieval_score for cand in c.candidates if cand.kind == "chunk"}
            if found:  # a value mismatch, a polarity or an obligation conflict: the two sentences, both ways
                premise_hypotheses, counted = [(sa, sb), (sb, sa)], (True, True)
            else:      # chunk vs sentence, counted only where the premise has a sentence about the same thing
                counted = (same_thing(partner(sb, a.text), sb), same_thing(partner(sa, b.text), sa))
                if not any(counted):
                    continue
                premise_hypotheses = [(a.text, sb), (b.text, sa)]
            mismatch = found if isinstance(found, tuple) else None
            jobs.append(_Job(c.index, a, b, (sa, sb), mismatch, [round(chunk_sims[a], 4), round(chunk_sims[b], 4)],
                             similarity_stats(list(chunk_sims.values())), self.pairs.submit(premise_hypotheses),
                             polarity=found == "polarity", obligation=found == "obligation", counted=counted))
        return jobs

    def collect(self, jobs: list[_Job]) -> list[ContextConflict]:
        out = []
        tau = self.thresholds.tau_contradiction
        for job in jobs:
            forward, backward = (f.result() for f in job.futures)
            score = round(max(r.contradiction for r, counted in zip((forward, backward), job.counted) if counted), 4)
            signals = (["value_mismatch"] if job.mismatch else []) + (["polarity"] if job.polarity else []) + (
                ["obligation"] if job.obligation else []) + (["nli"] if score >= tau else [])
            if not signals:
                continue
            key = job.mismatch[0].key if job.mismatch else None
            values = [f.value.text for f in job.mismatch] if job.mismatch else []
            out.append(ContextConflict([job.a.passage_id, job.b.passage_id], list(job.sentences), score,
                                       job.claim_index, signals, key, values, job.similarities, job.stats))
        return out
