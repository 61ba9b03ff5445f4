"""The audit report as one self-contained HTML page (inline style, no scripts, nothing fetched)."""

from __future__ import annotations

from html import escape

_STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:60em;color:#222}
h1{font-size:1.5em}h2{font-size:1.15em;margin-top:2em;border-bottom:1px solid #ddd}
.score{font-size:2.2em;font-weight:600}.part{color:#555}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #eee;padding:.3em .5em;text-align:left;
vertical-align:top}th{background:#f6f6f6}.sig{display:inline-block;padding:0 .4em;border-radius:3px;
background:#fde2e1;color:#8a1c12;font-size:.85em;margin-right:.3em}.old{color:#8a5a00}
blockquote{margin:.2em 0 .6em 1em;padding-left:.6em;border-left:3px solid #ccc;color:#333}
.meta{color:#666;font-size:.9em}
"""


def _e(value) -> str:
    return escape(str(value))


def _conflicts(title: str, conflicts: list[dict]) -> str:
    parts = [f"<h2>{_e(title)} ({len(conflicts)})</h2>"]
    for n, c in enumerate(conflicts, start=1):
        signals = "".join(f'<span class="sig">{_e(s)}</span>' for s in c["signals"])
        about = f" — {_e('; '.join(c['keys']))}" if c["keys"] else ""
        parts.append(f"<h3>{n}. {_e(', '.join(c['doc_ids']))} {signals}{about}</h3>")
        if c.get("superseded"):
            parts.append(f'<p class="old">older version(s): {_e(", ".join(c["superseded"]))}</p>')
        for i, ref in enumerate(c["statements"], start=1):
            date = f", updated {_e(ref['updated_at'])}" if ref.get("updated_at") else ""
            parts.append(f'<div class="meta">[{i}] {_e(ref["doc_id"])} — {_e(ref.get("title") or "")}, sentence '
                         f'{ref["sentence"] + 1}, characters {ref["offsets"][0]}–{ref["offsets"][1]}{date}</div>'
                         f"<blockquote>{_e(ref['text'])}</blockquote>")
        rows = []
        for p in c["pairs"]:
            a, b = p["statements"]
            nli = f"{p['contradiction']:.2f}" if p["contradiction"] is not None else "—"
            values = "; ".join(f"{m['key']}: {m['values'][0]} vs {m['values'][1]}" for m in p["mismatch"])
            rows.append(f"<tr><td>[{a + 1}] vs [{b + 1}]</td><td>{_e(' + '.join(p['signals']))}</td>"
                        f"<td>{nli}</td><td>{_e(values)}</td></tr>")
        parts.append("<table><tr><th>pair</th><th>signals</th><th>NLI contradiction</th><th>values</th></tr>"
                     + "".join(rows) + "</table>")
    return "\n".join(parts)


def render_html(data: dict) -> str:
    s, corpus = data["score"], data["corpus"]
    body = [f"<h1>Corpus audit</h1><div class=\"score\">{s['score']:.3f}</div>",
            f"<p class=\"part\">intra-document {s['parts']['intra']:.3f} × {s['weights']['intra']:.2f} + "
            f"inter-document {s['parts']['inter']:.3f} × {s['weights']['inter']:.2f}</p>",
            f"<p class=\"meta\">{corpus['documents']} documents, {corpus['statements']} statements, "
            f"{corpus['candidate_pairs']} candidate pairs, {corpus['nli_pairs_scored']} NLI pairs scored; "
            f"model {_e(corpus.get('nli') or 'none (value mismatches only)')}</p>"]
    if s["lowered_by"]:
        rows = "".join(f"<tr><td>{_e(i['part'])}</td><td>{_e(i['reason'])}</td><td>−{i['lost_score']:.3f}</td>"
                       f"<td>{_e(', '.join(i['documents']))}</td></tr>" for i in s["lowered_by"])
        body.append("<h2>What lowered the score</h2><table><tr><th>part</th><th>reason</th><th>score lost</th>"
                    f"<th>documents</th></tr>{rows}</table>")
    body.append(_conflicts("Conflicts across documents", data["conflicts"]))
    body.append(_conflicts("Contradictions inside a document", data["internal_contradictions"]))
    rows = []
    for f in data["versions"]:
        docs = "<br>".join(f"{_e(d['doc_id'])} ({_e(d['updated_at'] or 'undated')})" for d in f["documents"])
        changes = "<br>".join(_e(f"{c['key']}: " + ", ".join(f"{d}: {v}" for d, v in c["values"].items()))
                              for c in f["changed_values"])
        rows.append(f"<tr><td>{docs}</td><td>{_e(f['current'] or 'undecidable')}</td>"
                    f"<td>{_e(', '.join(f['superseded']))}</td><td>{f['overlap']:.2f}</td><td>{changes}</td></tr>")
    body.append(f"<h2>Superseded versions ({len(data['versions'])})</h2><table><tr><th>documents</th><th>newest</th>"
                f"<th>superseded</th><th>overlap</th><th>changed values</th></tr>{''.join(rows)}</table>")
    rows = []
    for i in data["issues"]:
        where = "<br>".join(_e(f"{w['doc_id']} {w['offsets']}: {w['text']}") for w in i["where"])
        rows.append(f"<tr><td>{_e(i['kind'])}</td><td>{_e(i['scope'])}</td><td>{_e(', '.join(i['doc_ids']))}</td>"
                    f"<td>{_e(i['detail'])}</td><td>{where}</td></tr>")
    body.append(f"<h2>Quality issues ({len(data['issues'])})</h2><table><tr><th>kind</th><th>scope</th>"
                f"<th>documents</th><th>detail</th><th>where</th></tr>{''.join(rows)}</table>")
    return ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Corpus audit</title>"
            f"<style>{_STYLE}</style></head><body>{''.join(body)}</body></html>\n")
