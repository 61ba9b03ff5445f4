"""Chunk passages into windows of a few sentences with overlap, keeping offsets."""

from __future__ import annotations

from dataclasses import dataclass

from scorers.claims import sentence_spans
from scorers.schema import Passage


@dataclass(frozen=True)
class Chunk:
    passage_id: str
    text: str
    start: int  # character offsets in the passage text
    end: int
    rank: int   # position of the passage in the retriever's order

    @property
    def offsets(self) -> tuple[int, int]:
        return self.start, self.end


def chunk_passage(passage: Passage, rank: int, sentences: int = 4, overlap: int = 1) -> list[Chunk]:
    spans = sentence_spans(passage.text)
    if not spans:
        return []
    step = max(1, sentences - overlap)
    chunks = []
    for first in range(0, len(spans), step):
        window = spans[first:first + sentences]
        start, end = window[0][0], window[-1][1]
        chunks.append(Chunk(passage.id, passage.text[start:end], start, end, rank))
        if first + sentences >= len(spans):
            break
    return chunks


def chunk_passages(passages: list[Passage], sentences: int = 4, overlap: int = 1) -> list[Chunk]:
    out: list[Chunk] = []
    seen: set[str] = set()
    for rank, passage in enumerate(passages):
        for chunk in chunk_passage(passage, rank, sentences, overlap):
            if chunk.text not in seen:  # duplicated passages add nothing
                seen.add(chunk.text)
                out.append(chunk)
    return out
