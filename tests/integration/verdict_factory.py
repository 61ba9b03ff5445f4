"""Verdict documents for report and trace tests, built through ResponseVerdict.to_dict()
so they have exactly the stored shape."""

from __future__ import annotations

from groundwatch.scorers.records import (
    Check, ClaimVerdict, Evidence, ResponseSummary, ResponseVerdict, Verdict,
)


def verdict_dict(request_id: str, verdicts: list[str], **kwargs) -> dict:
    return response_verdict(request_id, verdicts, **kwargs).to_dict()


def response_verdict(request_id: str, verdicts: list[str], *, timestamp: str | None,
                 scored_at: str = "2025-03-01T00:00:00+00:00", scorer_version: str = "1.0.0",
                 app: str = "help-center", model: str = "gpt-x", tenant: str = "acme",
                 severities: list[str] | None = None, evidence_ids: list[str] | None = None) -> ResponseVerdict:
    """One response whose claims get `verdicts`; claim i's decisive premise is evidence_ids[i]."""
    severities = severities or ["normal"] * len(verdicts)
    evidence_ids = evidence_ids or [f"p{i}" for i in range(len(verdicts))]
    passages = [{"id": pid, "text": f"Passage {pid} text.", "score": 0.8} for pid in dict.fromkeys(evidence_ids)]
    claims = []
    for i, (v, sev, pid) in enumerate(zip(verdicts, severities, evidence_ids)):
        entail = {"SUPPORTED": 0.93, "CONTRADICTED": 0.02, "NOT_ENOUGH_INFO": 0.31, "SKIPPED": 0.0}[v]
        contra = 0.91 if v == "CONTRADICTED" else 0.03
        evidence = [] if v == "SKIPPED" else [Evidence([pid], [(0, 10)], entail, 1 - entail - contra, contra, 0.7)]
        claims.append(ClaimVerdict(
            index=i, text=f"Claim number {i}.", span=(i * 20, i * 20 + 15), severity=sev, verdict=Verdict(v),
            entailment=entail, contradiction=contra, reason="greeting" if v == "SKIPPED" else "",
            evidence=evidence, checks=[Check("numbers", True, "no numbers")] if v != "SKIPPED" else []))
    counts = {x.value: sum(c.verdict is x for c in claims) for x in Verdict}
    scored = [c for c in claims if c.scored]
    summary = ResponseSummary(
        all_supported=all(c.verdict is Verdict.SUPPORTED for c in scored),
        score=min((c.entailment for c in scored), default=1.0), counts=counts,
        high_severity_unsupported=sum(c.severity == "high" and c.verdict is not Verdict.SUPPORTED for c in scored),
        retrieval={"top": 0.8, "mean": 0.8, "variance": 0.0, "n": len(passages)})
    return ResponseVerdict(
        request_id=request_id, scorer_version=scorer_version, model="groundwatch-nli-int8",
        scored_at=scored_at, timestamp=timestamp,
        metadata={"app": app, "model": model, "retriever": "bm25", "tenant": tenant},
        response=summary, claims=claims, passage_ids=[p["id"] for p in passages], passages=passages,
    )
