"""Corpus consistency score in [0, 1]: weighted intra- and inter-document parts.

Each problem charges the documents it involves a penalty (table below); a
document's penalties are capped at 1 in total (scaled down together when
over). A part is 1 - mean penalty over all documents, and the score is the
weighted mean of the parts. Every charge is kept, so the report can say which
problems lowered the score and by how much.
"""

from __future__ import annotations

from dataclasses import dataclass, field

PENALTIES = {
    # intra-document
    "empty": 1.0,
    "very_short": 0.5,
    "truncated": 0.5,
    "duplicate_paragraph:intra": 0.25,
    "internal_contradiction": 0.5,
    # inter-document
    "conflict": 0.5,
    "superseded_version": 0.5,
    "duplicate_paragraph:inter": 0.1,
}
PART_OF = {"empty": "intra", "very_short": "intra", "truncated": "intra", "duplicate_paragraph:intra": "intra",
           "internal_contradiction": "intra", "conflict": "inter", "superseded_version": "inter",
           "duplicate_paragraph:inter": "inter"}
DEFAULT_WEIGHTS = {"intra": 0.5, "inter": 0.5}


def parse_weights(text: str | None) -> dict[str, float]:
    """'intra=0.3,inter=0.7' -> weights summing to 1; a missing part keeps weight 0."""
    if not text:
        return dict(DEFAULT_WEIGHTS)
    weights = {"intra": 0.0, "inter": 0.0}
    for item in text.split(","):
        name, sep, value = item.partition("=")
        name = name.strip()
        if not sep or name not in weights:
            raise ValueError(f"weight {item.strip()!r}: expected intra=NUMBER or inter=NUMBER")
        try:
            weights[name] = float(value)
        except ValueError:
            raise ValueError(f"weight {item.strip()!r}: {value.strip()!r} is not a number") from None
        if weights[name] < 0:
            raise ValueError(f"weight {item.strip()!r}: must not be negative")
    total = sum(weights.values())
    if total <= 0:
        raise ValueError("weights: at least one must be positive")
    return {k: v / total for k, v in weights.items()}


@dataclass
class Charge:
    reason: str          # a key of PENALTIES
    doc_id: str
    amount: float


@dataclass
class ConsistencyScore:
    score: float
    weights: dict[str, float]
    parts: dict[str, float]
    documents: int
    lowered_by: list[dict] = field(default_factory=list)  # part, reason, documents, lost (part), lost_score


def consistency(doc_ids: list[str], charges: list[Charge], weights: dict[str, float] | None = None
                ) -> ConsistencyScore:
    weights = weights or dict(DEFAULT_WEIGHTS)
    n = len(doc_ids)
    per_doc: dict[tuple[str, str], list[Charge]] = {}
    for c in charges:
        per_doc.setdefault((PART_OF[c.reason], c.doc_id), []).append(c)
    lost: dict[tuple[str, str], float] = {}
    docs_by_reason: dict[tuple[str, str], set[str]] = {}
    for (part, doc_id), items in per_doc.items():
        total = sum(c.amount for c in items)
        scale = 1.0 / total if total > 1.0 else 1.0
        for c in items:
            key = (part, c.reason)
            lost[key] = lost.get(key, 0.0) + c.amount * scale / max(n, 1)
            docs_by_reason.setdefault(key, set()).add(doc_id)
    parts = {p: 1.0 - sum(v for (q, _), v in lost.items() if q == p) for p in ("intra", "inter")}
    score = sum(weights.get(p, 0.0) * parts[p] for p in parts)
    lowered = [{"part": p, "reason": r, "documents": sorted(docs_by_reason[(p, r)]), "lost": round(v, 4),
                "lost_score": round(v * weights.get(p, 0.0), 4)} for (p, r), v in lost.items()]
    lowered.sort(key=lambda d: (-d["lost_score"], d["reason"]))
    return ConsistencyScore(round(score, 4), weights, {p: round(v, 4) for p, v in parts.items()}, n, lowered)
