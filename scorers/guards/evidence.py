"""Evidence sentences: the sentences of a claim's evidence that align best with it.

Alignment counts shared content lemmas (synonyms mapped together, an antonym
counted as its opposite, numbers normalised: "sixty" = "60" = "60.0"), so
"Glasses are not covered" aligns with "Glasses are covered" as well as with
"Glasses are excluded". Offsets are characters in the passage, so a sentence
can be shown, highlighted or traced without the chunk it came from.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Protocol

from groundwatch.scorers.byte_cache import MB, byte_cached
from groundwatch.scorers.english.lemmas import Analysed, analyse, matched
from groundwatch.scorers.english.sentences import sentence_spans


class ChunkLike(Protocol):
    passage_id: str
    text: str
    start: int


@dataclass(frozen=True)
class EvidenceSentence:
    passage_id: str
    start: int          # character offsets in the passage text
    end: int
    text: str
    shared: int = 0     # content lemmas shared with the claim
    coverage: float = 0.0  # shared / the claim's content lemmas

    @property
    def analysed(self) -> Analysed:
        return analyse(self.text)

    def to_record(self) -> dict:
        return {"passage_id": self.passage_id, "start": self.start, "end": self.end, "text": self.text,
                "shared": self.shared, "coverage": round(self.coverage, 3)}

    def ref(self) -> str:
        return f"{self.passage_id}[{self.start}:{self.end}]"


@byte_cached(8 * MB)
def _spans(text: str) -> tuple[tuple[int, int], ...]:
    return tuple(sentence_spans(text))


def chunk_sentences(chunks: Iterable[ChunkLike]) -> list[EvidenceSentence]:
    """Every sentence of the chunks once (overlapping chunks share sentences), in chunk order."""
    out, seen = [], set()
    for chunk in chunks:
        for s, e in _spans(chunk.text):
            key = (chunk.passage_id, chunk.start + s)
            if key not in seen:
                seen.add(key)
                out.append(EvidenceSentence(chunk.passage_id, chunk.start + s, chunk.start + e, chunk.text[s:e]))
    return out


def overlap(claim: Analysed, sentence: Analysed) -> int:
    return len(matched(claim.antonym_aware, sentence.antonym_aware))


def score(claim: str, sentence: EvidenceSentence) -> EvidenceSentence:
    a = analyse(claim)
    shared = overlap(a, sentence.analysed)
    return EvidenceSentence(sentence.passage_id, sentence.start, sentence.end, sentence.text, shared,
                            round(shared / max(len(a.antonym_aware), 1), 4))


def align(claim: str, sentences: Iterable[EvidenceSentence]) -> list[EvidenceSentence]:
    """Sentences sharing content with the claim, best first (ties: the more focused sentence, then order)."""
    scored = [(n, score(claim, s)) for n, s in enumerate(sentences)]
    scored = [(n, s) for n, s in scored if s.shared]
    scored.sort(key=lambda x: (-x[1].shared, -x[1].shared / max(len(x[1].analysed.antonym_aware), 1), x[0]))
    return [s for _, s in scored]


def evidence_sentences(claim: str, chunks: Iterable[ChunkLike], limit: int = 2) -> list[EvidenceSentence]:
    """The sentence(s) of the deciding chunk(s) that carry the claim: the best-aligned one, plus a
    second only when it adds claim lemmas the first lacks (support split across two sentences)."""
    ranked = align(claim, chunk_sentences(chunks))
    if not ranked:
        return []
    chosen = [ranked[0]]
    claim_lemmas = analyse(claim).antonym_aware
    covered = set(matched(claim_lemmas, ranked[0].analysed.antonym_aware))
    for s in ranked[1:]:
        if len(chosen) >= limit:
            break
        new = matched(claim_lemmas, s.analysed.antonym_aware) - covered
        if new:
            chosen.append(s)
            covered |= new
    return chosen
