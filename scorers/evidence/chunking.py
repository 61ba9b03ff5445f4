"""Chunk passages into windows of whole sentences with overlap, keeping offsets.

A window holds a fixed number of sentences, or (with `words`) as many whole sentences as fit in that
many words (a longer sentence is a window of its own). Overlap is counted in sentences.
"""

from __future__ import annotations

from dataclasses import dataclass

from groundwatch.scorers.answer.claims import sentence_spans
from groundwatch.scorers.schema import Passage


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


def _sentence_windows(n: int, sentences: int, overlap: int):
    step = max(1, sentences - overlap)
    for first in range(0, n, step):
        yield first, min(n, first + sentences)
        if first + sentences >= n:
            break


def _word_windows(lengths: list[int], words: int, overlap: int):
    first = 0
    while True:
        last, total = first, lengths[first]
        while last + 1 < len(lengths) and total + lengths[last + 1] <= words:
            last += 1
            total += lengths[last]
        yield first, last + 1
        if last + 1 >= len(lengths):
            break
        first = max(first + 1, last + 1 - overlap)


def chunk_passage(passage: Passage, rank: int, sentences: int = 4, overlap: int = 1,
                  words: int | None = None) -> list[Chunk]:
    spans = sentence_spans(passage.text)
    if not spans:
        return []
    if words:
        windows = _word_windows([len(passage.text[s:e].split()) for s, e in spans], words, overlap)
    else:
        windows = _sentence_windows(len(spans), sentences, overlap)
    chunks = []
    for first, stop in windows:
        start, end = spans[first][0], spans[stop - 1][1]
        chunks.append(Chunk(passage.id, passage.text[start:end], start, end, rank))
    return chunks


def chunk_passages(passages: list[Passage], sentences: int = 4, overlap: int = 1,
                   words: int | None = None) -> list[Chunk]:
    out: list[Chunk] = []
    seen: set[str] = set()
    for rank, passage in enumerate(passages):
        for chunk in chunk_passage(passage, rank, sentences, overlap, words):
            if chunk.text not in seen:  # duplicated passages add nothing
                seen.add(chunk.text)
                out.append(chunk)
    return out
