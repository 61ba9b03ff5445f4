"""An audit report as JSON-ready data and as text a person reads top to bottom."""

from __future__ import annotations

import textwrap
from dataclasses import asdict

from groundwatch.audit.audit import AuditReport

REPORT_SCHEMA = "groundwatch.corpus-audit.v1"


def to_dict(report: AuditReport) -> dict:
    return {"schema": REPORT_SCHEMA} | asdict(report)


def _where(ref: dict) -> str:
    date = f", updated {ref['updated_at']}" if ref.get("updated_at") else ""
    return f"{ref['doc_id']} sentence {ref['sentence'] + 1} [{ref['offsets'][0]}:{ref['offsets'][1]}]{date}"


def _conflict_lines(number: int, conflict: dict) -> list[str]:
    head = f"{number}. {', '.join(conflict['doc_ids'])}  ({' + '.join(conflict['signals'])})"
    if conflict["keys"]:
        head += f"  about: {'; '.join(conflict['keys'])}"
    lines = [head]
    if conflict.get("superseded"):
        lines.append(f"   older version(s): {', '.join(conflict['superseded'])}")
    for ref in conflict["statements"]:
        lines.append(f"   - {_where(ref)}")
        lines.append(textwrap.indent(textwrap.fill(repr(ref["text"]), 92), "       "))
    for pair in conflict["pairs"]:
        a, b = pair["statements"]
        nli = f", contradiction {pair['contradiction']:.2f}" if pair["contradiction"] is not None else ""
        values = "; ".join(f"{m['key']}: {m['values'][0]} vs {m['values'][1]}" for m in pair["mismatch"])
        lines.append(f"   statement {a + 1} vs {b + 1}: {' + '.join(pair['signals'])}{nli}"
                     + (f" ({values})" if values else ""))
    return lines


def to_text(data: dict) -> str:
    s, corpus = data["score"], data["corpus"]
    lines = [f"corpus consistency {s['score']:.3f}  (intra-document {s['parts']['intra']:.3f} x "
             f"{s['weights']['intra']:.2f} + inter-document {s['parts']['inter']:.3f} x {s['weights']['inter']:.2f})",
             f"{corpus['documents']} documents, {corpus['statements']} statements, {corpus['candidate_pairs']} "
             f"candidate pairs, {corpus['nli_pairs_scored']} NLI pairs scored"
             + (f" ({corpus['nli']})" if corpus.get("nli") else " (NLI off: value mismatches only)")]
    if s["lowered_by"]:
        lines += ["", "what lowered it:"]
        for item in s["lowered_by"]:
            docs = ", ".join(item["documents"][:6]) + (" ..." if len(item["documents"]) > 6 else "")
            lines.append(f"  -{item['lost_score']:.3f}  {item['part']:<5} {item['reason']:<26} {docs}")
    for title, key in (("conflicts across documents", "conflicts"),
                       ("contradictions inside a document", "internal_contradictions")):
        lines += ["", f"{title}: {len(data[key])}"]
        for n, conflict in enumerate(data[key], start=1):
            lines += _conflict_lines(n, conflict)
    lines += ["", f"version families: {len(data['versions'])}"]
    for n, family in enumerate(data["versions"], start=1):
        docs = ", ".join(f"{d['doc_id']} ({d['updated_at'] or 'undated'})" for d in family["documents"])
        newest = family["current"] or "undecidable (dates missing or equal)"
        lines.append(f"{n}. {docs}; newest: {newest}; overlap {family['overlap']:.2f} ({', '.join(family['reasons'])})")
        for change in family["changed_values"]:
            values = ", ".join(f"{d}: {v}" for d, v in change["values"].items())
            lines.append(f"   {change['key']}: {values}")
    lines += ["", f"quality issues: {len(data['issues'])}"]
    for issue in data["issues"]:
        lines.append(f"  {issue['kind']:<20} {issue['scope']:<5} {', '.join(issue['doc_ids'])}: {issue['detail']}")
        for w in issue["where"][:4]:
            lines.append(f"      {w['doc_id']} {w['offsets']}: {w['text']!r}")
    return "\n".join(lines)
