"""Cut source documents into passage-sized pieces, as a retriever's index would hold them."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from groundwatch.scorers.answer.claims import sentence_spans

PASSAGE_WORDS = 120   # about one retriever chunk
MAX_PASSAGES = 100    # the schema's default limit per response


@dataclass(frozen=True)
class Packed:
    text: str
    sentences: tuple[int, ...]  # indices of the source sentences it holds


def sentences_of(text: str) -> list[str]:
    return [text[s:e] for s, e in sentence_spans(text)]


def pack(sentences: list[str], words: int = PASSAGE_WORDS, max_passages: int = MAX_PASSAGES) -> list[Packed]:
    """Consecutive sentences grouped into passages of about `words` words (larger if needed to fit)."""
    sizes = [len(s.split()) for s in sentences]
    out = _greedy(sentences, sizes, words)
    if len(out) > max_passages:
        # Each passage but the last then holds more than total / (max_passages - 1) words.
        out = _greedy(sentences, sizes, math.ceil(sum(sizes) / (max_passages - 1)) + max(sizes))
    return out


def _greedy(sentences: list[str], sizes: list[int], target: int) -> list[Packed]:
    out: list[Packed] = []
    current: list[int] = []
    count = 0
    for i, size in enumerate(sizes):
        if current and count + size > target:
            out.append(_join(sentences, current))
            current, count = [], 0
        current.append(i)
        count += size
    if current:
        out.append(_join(sentences, current))
    return out


def _join(sentences: list[str], indices: list[int]) -> Packed:
    return Packed(" ".join(sentences[i].strip() for i in indices), tuple(indices))


# HaluEval glues its two knowledge paragraphs together: "...century.First for Women is..."
_GLUED = re.compile(r"(?<=[a-z0-9)\"'][.!?])(?=[\"“]?[A-Z][a-z])")


def unglue(text: str) -> list[str]:
    return [p.strip() for p in _GLUED.split(text) if p.strip()]


def passage_records(texts: list[str]) -> list[dict]:
    return [{"id": f"p{i + 1}", "text": t} for i, t in enumerate(texts)]
