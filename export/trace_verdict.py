"""A verdict as the trace sinks write it: the judged span, a label, a score and a text-free explanation.

Shared by the OTLP verdict span (export/otlp_sink.py) and the Phoenix annotation
(export/phoenix_sink.py). Only verdicts of responses read from spans name a judged span:
consumer/otlp/assemble.py keeps its trace and span ids in the response's metadata.
The explanation never quotes the answer, the question or a passage: claims are named by
number, severity and verdict, evidence by passage id.
"""

from __future__ import annotations

from dataclasses import dataclass

from groundwatch.scorers.records import ResponseVerdict, Verdict

MAX_EXPLAINED_CLAIMS = 10
MAX_EVIDENCE_IDS = 3
MAX_EXPLANATION_CHARS = 2000


@dataclass(frozen=True)
class TraceVerdict:
    trace_id: str  # 32 hex digits
    span_id: str   # 16 hex digits: the judged LLM span
    doc_id: str    # the verdict's deterministic id: the same on every replay
    label: str     # SUPPORTED | CONTRADICTED | NOT_ENOUGH_INFO
    score: float
    explanation: str
    scorer_version: str
    scored_at: str | None  # ISO time of scoring: the verdict span's time


def judged_span(verdict: ResponseVerdict) -> tuple[str, str] | None:
    """The judged span's (trace id, span id) in hex, or None for a response not read from spans."""
    meta = verdict.metadata or {}
    trace_id, span_id = meta.get("trace_id"), meta.get("span_id")
    if not (_hex(trace_id, 32) and _hex(span_id, 16)):
        return None
    return trace_id.lower(), span_id.lower()


def trace_verdict(verdict: ResponseVerdict) -> TraceVerdict | None:
    span = judged_span(verdict)
    if span is None:
        return None
    return TraceVerdict(span[0], span[1], verdict.doc_id, response_label(verdict), round(verdict.response.score, 6),
                        explanation(verdict), verdict.scorer_version, verdict.scored_at)


def response_label(verdict: ResponseVerdict) -> str:
    """One label for the response: any contradicted claim decides, then any claim left unsupported."""
    verdicts = [c.verdict for c in verdict.claims]
    if Verdict.CONTRADICTED in verdicts:
        return Verdict.CONTRADICTED.value
    if verdict.response.all_supported:
        return Verdict.SUPPORTED.value
    return Verdict.NOT_ENOUGH_INFO.value


def explanation(verdict: ResponseVerdict) -> str:
    judged = [c for c in verdict.claims if c.verdict != Verdict.SKIPPED]
    unsupported = [c for c in judged if c.verdict != Verdict.SUPPORTED]
    parts = [f"{len(judged) - len(unsupported)} of {len(judged)} claims supported"]
    for claim in unsupported[:MAX_EXPLAINED_CLAIMS]:
        ids = _evidence_ids(claim)
        parts.append(f"claim {claim.index} ({claim.severity}) {claim.verdict.value}"
                     + (f", evidence {', '.join(ids)}" if ids else ", no evidence"))
    if len(unsupported) > MAX_EXPLAINED_CLAIMS:
        parts.append(f"and {len(unsupported) - MAX_EXPLAINED_CLAIMS} more unsupported claims")
    if verdict.flags:
        parts.append("flags " + ", ".join(sorted(verdict.flags)))
    return "; ".join(parts)[:MAX_EXPLANATION_CHARS]


def _evidence_ids(claim) -> list[str]:
    ids: list[str] = []
    for evidence in claim.evidence:
        for pid in evidence.passage_ids:
            if pid not in ids:
                ids.append(str(pid))
    return ids[:MAX_EVIDENCE_IDS]


def _hex(value, length: int) -> bool:
    if not isinstance(value, str) or len(value) != length:
        return False
    try:
        return int(value, 16) != 0
    except ValueError:
        return False
