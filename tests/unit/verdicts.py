"""Verdict records built field by field, for tests of what the sinks make of them."""

from __future__ import annotations

from groundwatch.scorers.records import Check, ClaimVerdict, ContextConflict, Evidence, ResponseSummary, ResponseVerdict, Verdict


def claim(index: int, verdict: Verdict, severity: str = "normal", evidence: list[Evidence] | None = None,
          text: str = "The refund window is 30 days.") -> ClaimVerdict:
    evidence = evidence if evidence is not None else [
        Evidence(["p1"], [(0, 40)], 0.2, 0.1, 0.7, 0.9, "chunk"),
        Evidence(["p1", "p2"], [(0, 40), (0, 30)], 0.6, 0.3, 0.1, 0.8, "pair"),
    ]
    if verdict is Verdict.SKIPPED:
        return ClaimVerdict(index, "Hope this helps!", (50, 66), "normal", verdict, reason="pleasantry")
    return ClaimVerdict(index, text, (0, len(text)), severity, verdict,
                        entailment=max(e.entailment for e in evidence) if evidence else 0.0,
                        contradiction=max(e.contradiction for e in evidence) if evidence else 0.0,
                        evidence=evidence, checks=[Check("numbers", True, "all present: 30")], flags=[])


def verdict(claims: list[ClaimVerdict], request_id: str = "req-1", timestamp: str | None = "2026-03-05T23:30:00+00:00",
            metadata: dict | None = None, conflicts: list[ContextConflict] | None = None,
            gold: list[str] | None = None) -> ResponseVerdict:
    counts = {v.value: sum(c.verdict is v for c in claims) for v in Verdict}
    scored = [c for c in claims if c.scored]
    return ResponseVerdict(
        request_id=request_id, scorer_version="0.1.0", model="onnx@abc123", scored_at="2026-04-01T08:00:00+00:00",
        timestamp=timestamp,
        metadata=metadata if metadata is not None else {"app": "shop", "model": "gen-1", "tenant": "acme",
                                                         "retriever": "bm25"},
        response=ResponseSummary(all(c.verdict is Verdict.SUPPORTED for c in scored),
                                 min((c.entailment for c in scored), default=1.0), counts,
                                 sum(c.severity == "high" and c.verdict is not Verdict.SUPPORTED for c in scored),
                                 {"top": 0.9, "mean": 0.5, "variance": 0.1, "n": 2}),
        claims=claims, context_conflicts=conflicts or [], gold_passage_ids=gold, passage_ids=["p1", "p2"],
        passages=[{"id": "p1", "text": "Refunds are accepted within 30 days of delivery.", "score": 0.9},
                  {"id": "p2", "text": "Shipping is free over $50.", "score": 0.2}],
    )
