"""Replay a labelled probe set against a retriever and measure recall@k and MRR.

Every probe is retrieved once, to the largest k; recall@k cuts that ranking at each k
and MRR is taken over the whole retrieved list (so it is MRR@max(k)).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Sequence

from groundwatch.recall_probe.probe_set import Probe
from groundwatch.recall_probe.retrievers import Retriever
from groundwatch.scorers.evidence.recall import mean_recall_at_k, mrr, recall_at_k, reciprocal_rank


@dataclass
class ProbeResult:
    ks: list[int]
    description: dict
    rankings: list[tuple[Probe, list[str]]] = field(default_factory=list)

    def recall(self, k: int) -> float:
        return mean_recall_at_k([(ranked, p.gold_ids) for p, ranked in self.rankings], k)

    @property
    def mrr(self) -> float:
        return mrr([(ranked, p.gold_ids) for p, ranked in self.rankings])

    def misses(self, k: int) -> list[int]:
        """Probe lines with no gold passage in the top k."""
        return [p.line for p, ranked in self.rankings if recall_at_k(ranked, p.gold_ids, k) == 0.0]

    def to_dict(self) -> dict:
        # Per-query rankings carry ids only: queries stay in the probe file.
        return {
            **self.description,
            "queries": len(self.rankings),
            "recall_at_k": {str(k): self.recall(k) for k in self.ks},
            "mrr": self.mrr,
            "per_query": [{"line": p.line, "gold_passage_ids": list(p.gold_ids), "ranked_ids": ranked,
                           "recall_at_k": {str(k): recall_at_k(ranked, p.gold_ids, k) for k in self.ks},
                           "reciprocal_rank": reciprocal_rank(ranked, p.gold_ids)}
                          for p, ranked in self.rankings],
        }

    def table(self) -> str:
        head = ", ".join(f"{k} {v}" for k, v in self.description.items())
        rows = [f"recall probe: {len(self.rankings)} queries ({head})", f"{'k':>6}  recall@k  misses"]
        for k in self.ks:
            missed = self.misses(k)
            lines = ", ".join(map(str, missed[:10])) + (" ..." if len(missed) > 10 else "")
            rows.append(f"{k:>6}  {self.recall(k):8.3f}  {len(missed)}" + (f" (lines {lines})" if missed else ""))
        rows.append(f"{'MRR':>6}  {self.mrr:8.3f}")
        return "\n".join(rows)


def run_probe(probes: Sequence[Probe], retriever: Retriever, ks: Sequence[int],
              description: dict | None = None, progress: bool = False) -> ProbeResult:
    from tqdm import tqdm

    ks = sorted(set(ks))
    if not ks or ks[0] < 1:
        raise ValueError("k values must be positive integers")
    result = ProbeResult(ks, description or {})
    depth = ks[-1]
    for probe in tqdm(probes, desc="queries", unit="query", disable=not progress, file=sys.stderr):
        result.rankings.append((probe, retriever.ranked_ids(probe, depth)[:depth]))
    return result
