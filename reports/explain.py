"""Render a verdict record (dict, as stored) as an explanation a person can read."""

from __future__ import annotations

import textwrap


def _passage_text(record: dict, passage_id: str, offsets) -> str:
    for p in record.get("passages", []):
        if p.get("id") == passage_id:
            text = p.get("text", "")
            return text[offsets[0]:offsets[1]] if offsets else text
    return "(passage text not stored)"


def render(record: dict) -> str:
    r = record["response"]
    lines = [f"request {record['request_id']}  (scorer {record['scorer_version']}, model {record['model']})",
             f"all claims supported: {'yes' if r['all_supported'] else 'NO'}; "
             f"response score (min entailment) {r['score']:.2f}; "
             f"high-severity unsupported claims: {r['high_severity_unsupported']}"]
    n_passages = len(record.get("passage_ids", []))
    for c in record["claims"]:
        lines.append("")
        head = f"claim {c['index'] + 1} ({c['severity']}): {c['text']!r}"
        if c["verdict"] == "SKIPPED":
            lines.append(f"{head}\n  SKIPPED: decorative ({c['reason']}); it cannot veto the answer")
            continue
        lines.append(head)
        lines.append(f"  {c['verdict']}: best entailment {c['entailment']:.2f}, best contradiction "
                     f"{c['contradiction']:.2f}, over {len(c['evidence'])} premises from {n_passages} retrieved passages")
        for check in c.get("checks", []):
            mark = "ok  " if check["passed"] else "FAIL"
            lines.append(f"  check {check['name']:<8} {mark} {check['detail']}")
        if c.get("flags"):
            lines.append(f"  flags: {', '.join(c['flags'])}")
        shown = c["evidence"] if c["verdict"] != "SUPPORTED" else c["evidence"][:1]
        for e in shown:
            ids = " + ".join(e["passage_ids"])
            lines.append(f"  - [{ids}] entail {e['entailment']:.2f} / neutral {e['neutral']:.2f} / "
                         f"contradict {e['contradiction']:.2f} (retrieval {e['retrieval_score']:.2f}, {e['kind']})")
            for pid, off in zip(e["passage_ids"], e["offsets"]):
                body = textwrap.shorten(_passage_text(record, pid, off), 300)
                lines.append(textwrap.indent(textwrap.fill(body, 96), "      "))
    for conflict in record.get("context_conflicts", []):
        lines.append("")
        lines.append(f"context conflict between {' and '.join(conflict['passage_ids'])} "
                     f"(contradiction {conflict['contradiction']:.2f}, about claim {conflict['claim_index'] + 1}):")
        for s in conflict["sentences"]:
            lines.append(f"    {textwrap.shorten(s, 200)!r}")
    return "\n".join(lines)
