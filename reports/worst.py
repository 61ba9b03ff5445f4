"""The worst responses of a report: what to open first, with the claims that failed and the passages
the verdict was decided on (titles when the verdict stored them), so a person can act on each one.

Ranked by the policy's action (block first), then high-severity unsupported claims, contradicted claims,
unsupported claims and the lowest response score; responses with every claim supported are never listed.
"""

from __future__ import annotations


def _unsupported(record: dict) -> list[dict]:
    return [c for c in record.get("claims", []) if c.get("verdict") in ("CONTRADICTED", "NOT_ENOUGH_INFO")]


def _rank(record: dict) -> tuple:
    from groundwatch.config.policy import ACTIONS

    failed = _unsupported(record)
    response = record.get("response") or {}
    score = response.get("score")
    action = (record.get("action") or {}).get("action") if isinstance(record.get("action"), dict) else None
    return (-(ACTIONS.index(action) if action in ACTIONS else -1),
            -(response.get("high_severity_unsupported") or 0),
            -sum(c["verdict"] == "CONTRADICTED" for c in failed), -len(failed),
            score if isinstance(score, (int, float)) else 1.0, str(record.get("request_id")))


def _deciding(claim: dict) -> dict | None:
    """The premise that decided an unsupported verdict: best contradiction for CONTRADICTED, else the
    best entailment (the closest the evidence came to supporting it)."""
    evidence = claim.get("evidence") or []
    if not evidence:
        return None
    key = "contradiction" if claim["verdict"] == "CONTRADICTED" else "entailment"
    return max(evidence, key=lambda e: e.get(key) or 0.0)


def _passages(premise: dict | None, stored: dict[str, dict]) -> list[dict]:
    out = []
    for pid in dict.fromkeys((premise or {}).get("passage_ids", [])):
        passage = stored.get(pid, {})
        out.append({"passage_id": pid, "title": passage.get("title"), "doc_id": passage.get("doc_id")})
    return out


def worst_responses(records: list[dict], top: int = 10) -> list[dict]:
    candidates = [r for r in records if _unsupported(r)]
    out = []
    for r in sorted(candidates, key=_rank)[:top]:
        stored = {p.get("id"): p for p in r.get("passages") or [] if isinstance(p, dict)}
        metadata = r.get("metadata") or {}
        decision = r.get("action") if isinstance(r.get("action"), dict) else {}
        claims = []
        for c in _unsupported(r):
            premise = _deciding(c)
            claims.append({"index": c.get("index"), "verdict": c["verdict"], "severity": c.get("severity"),
                           "text": c.get("text"),
                           "entailment": c.get("entailment"), "contradiction": c.get("contradiction"),
                           "passages": _passages(premise, stored)})
        out.append({"request_id": r.get("request_id"), "app": metadata.get("app"), "tenant": metadata.get("tenant"),
                    "timestamp": r.get("timestamp") or r.get("scored_at"),
                    "score": (r.get("response") or {}).get("score"),
                    "action": decision.get("action"), "rule": decision.get("rule"), "claims": claims})
    return out


def worst_lines(worst: list[dict], width: int = 100) -> list[str]:
    """The text form: one header line per response, one line per failed claim and its passages."""
    import textwrap

    lines = []
    for w in worst:
        about = ", ".join(f"{k} {w[k]}" for k in ("app", "tenant") if w.get(k))
        action = f"; action {w['action']} (rule {w['rule']})" if w.get("action") else ""
        score = f"; score {w['score']:.2f}" if isinstance(w.get("score"), (int, float)) else ""
        lines.append(f"{w['request_id']}" + (f"  [{about}]" if about else "") + f"{score}{action}")
        for c in w["claims"]:
            text = textwrap.shorten(c.get("text") or "", width - 30, placeholder=" …")
            lines.append(f"  claim {(c['index'] or 0) + 1} {c['verdict']} ({c.get('severity')}): {text!r}")
            for p in c["passages"]:
                name = f" {p['title']!r}" if p.get("title") else ""
                doc = f" ({p['doc_id']})" if p.get("doc_id") else ""
                lines.append(f"    passage {p['passage_id']}{name}{doc}")
    return lines
