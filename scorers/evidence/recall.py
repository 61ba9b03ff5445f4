"""Retrieval quality against labelled gold passages: recall@k and reciprocal rank.

Used offline by the recall probe (a frozen labelled query set) and online by the
consumer for responses that arrive with `gold_passage_ids`: there the order of the
response's `passages` list is the retriever's ranking.
"""

from __future__ import annotations

from collections import deque
from typing import Iterable, Sequence

# The cut-offs the streaming job exports as groundwatch_recall_at_k{source="online"}, and the
# number of recent responses with gold passages it averages over.
ONLINE_KS = (1, 3, 5)
ONLINE_WINDOW = 1000


def recall_at_k(ranked_ids: Sequence[str], gold_ids: Iterable[str], k: int) -> float | None:
    """Share of the gold passages found in the first k ranked ids; None without gold ids."""
    if k < 1:
        raise ValueError(f"k must be at least 1, got {k}")
    gold = set(gold_ids)
    if not gold:
        return None
    return len(gold.intersection(ranked_ids[:k])) / len(gold)


def reciprocal_rank(ranked_ids: Sequence[str], gold_ids: Iterable[str]) -> float | None:
    """1 / rank of the first gold passage in the ranking, 0.0 when none was retrieved."""
    gold = set(gold_ids)
    if not gold:
        return None
    for rank, passage_id in enumerate(ranked_ids, start=1):
        if passage_id in gold:
            return 1.0 / rank
    return 0.0


def mrr(rankings: Iterable[tuple[Sequence[str], Iterable[str]]]) -> float | None:
    """Mean reciprocal rank over (ranked_ids, gold_ids) pairs; pairs without gold are left out."""
    ranks = [r for r in (reciprocal_rank(ranked, gold) for ranked, gold in rankings) if r is not None]
    return sum(ranks) / len(ranks) if ranks else None


def mean_recall_at_k(rankings: Iterable[tuple[Sequence[str], Iterable[str]]], k: int) -> float | None:
    """Macro average of recall@k: every query weighs the same, whatever its number of gold ids."""
    values = [r for r in (recall_at_k(ranked, gold, k) for ranked, gold in rankings) if r is not None]
    return sum(values) / len(values) if values else None


def online_recall(record: dict, ks: Sequence[int] = ONLINE_KS) -> dict[int, float] | None:
    """recall@k for one stored verdict dict that carries gold_passage_ids, else None."""
    gold = record.get("gold_passage_ids")
    if not gold:
        return None
    ranked = record.get("passage_ids") or [p.get("id") for p in record.get("passages", [])]
    return {k: recall_at_k(ranked, gold, k) for k in ks}


class OnlineRecall:
    """recall@k averaged over the last `window` responses that arrived with gold passage ids.

    A response's passage order is the retriever's ranking. The streaming job's metrics feed
    every verdict through `add` and export the means.
    """

    def __init__(self, ks: Sequence[int] = ONLINE_KS, window: int = ONLINE_WINDOW):
        self._windows = {k: deque(maxlen=window) for k in ks}

    def add(self, ranked_ids: Sequence[str], gold_ids: Iterable[str] | None) -> dict[int, float] | None:
        """The means per k after this response; None (and nothing counted) without gold ids."""
        gold = list(gold_ids or ())
        if not gold:
            return None
        for k, window in self._windows.items():
            window.append(recall_at_k(ranked_ids, gold, k))
        return {k: sum(window) / len(window) for k, window in self._windows.items()}
