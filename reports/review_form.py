"""The review form: one self-contained HTML file (no network) for labelling a review sample.

Each item shows the claim with the checker's verdict and scores, the evidence sentences it chose
(marked inside their passage) and every stored passage. The reviewer picks supported /
contradicted / not enough info / skip per claim, may add a note, and downloads the reviewed JSONL
(the same items with `label` and `note` filled) for `groundwatch label import`. Choices are also
kept in the browser's localStorage, so closing the tab loses nothing.

Opening the file with `#selftest` labels the items supported, contradicted, not enough info in turn and writes the JSONL the
download button would give into <pre id="export"> (tests read it from headless Chromium).
"""

from __future__ import annotations

import html
import json

from groundwatch.reports.review import LABELS, SKIP

_CSS = """
body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:60rem;padding:1rem;color:#222}
.item{border:1px solid #ccc;border-radius:6px;padding:.8rem 1rem;margin:1rem 0}
.claim{font-size:1.1rem;font-weight:600}.meta{color:#666;font-size:.85rem}
.ev{background:#fff7cc;border-left:3px solid #e0b000;padding:.2rem .5rem;margin:.3rem 0}
mark{background:#ffe066}.passage{white-space:pre-wrap;font-size:.9rem;color:#333;margin:.3rem 0 .6rem}
fieldset{border:0;padding:0;margin:.5rem 0}label{margin-right:1rem}textarea{width:100%;height:2.2rem}
#bar{position:sticky;top:0;background:#fff;padding:.5rem 0;border-bottom:1px solid #ddd}
"""

_JS = r"""
const items = JSON.parse(document.getElementById('items').textContent);
const key = 'groundwatch-review:' + document.title;
const saved = JSON.parse(localStorage.getItem(key) || '{}');
function choice(i) {
  const picked = document.querySelector('input[name="label-' + i + '"]:checked');
  return picked ? picked.value : null;
}
function reviewed() {
  return items.map((item, i) => Object.assign({}, item, {
    label: choice(i), note: document.getElementById('note-' + i).value }));
}
function save() {
  const state = {};
  reviewed().forEach((r) => { state[r.review_id] = {label: r.label, note: r.note}; });
  localStorage.setItem(key, JSON.stringify(state));
  const done = reviewed().filter((r) => r.label).length;
  document.getElementById('progress').textContent = done + ' of ' + items.length + ' labelled';
}
function jsonl() { return reviewed().map((r) => JSON.stringify(r)).join('\n') + '\n'; }
function download() {
  const blob = new Blob([jsonl()], {type: 'application/x-ndjson'});
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = 'reviewed.jsonl';
  a.click();
}
items.forEach((item, i) => {
  const state = saved[item.review_id];
  if (state && state.label) {
    const input = document.querySelector('input[name="label-' + i + '"][value="' + state.label + '"]');
    if (input) input.checked = true;
  }
  if (state && state.note) document.getElementById('note-' + i).value = state.note;
});
document.querySelectorAll('input,textarea').forEach((el) => el.addEventListener('change', save));
document.getElementById('download').addEventListener('click', download);
save();
if (location.hash === '#selftest') {
  items.forEach((item, i) => { document.querySelectorAll('input[name="label-' + i + '"]')[i % 3].checked = true; });
  save();
  document.getElementById('export').textContent = jsonl();
}
"""

_CHOICES = [(label, label.replace("_", " ")) for label in LABELS] + [(SKIP, "skip (cannot tell)")]


def _marked(text: str, spans: list[tuple[int, int]]) -> str:
    out, at = [], 0
    for start, end in sorted(spans):
        if start < at or end > len(text) or start >= end:
            continue
        out += [html.escape(text[at:start]), "<mark>", html.escape(text[start:end]), "</mark>"]
        at = end
    out.append(html.escape(text[at:]))
    return "".join(out)


def _item(i: int, item: dict) -> str:
    e = item.get("entailment")
    c = item.get("contradiction")
    scores = f"entailment {e:.2f}, contradiction {c:.2f}" if isinstance(e, float) and isinstance(c, float) else ""
    s = item.get("stratum") or {}
    meta = (f"{html.escape(str(item.get('verdict')))} &middot; severity {html.escape(str(s.get('severity')))} "
            f"&middot; app {html.escape(str(s.get('app')))} &middot; {scores} &middot; request "
            f"{html.escape(str(item.get('request_id')))} &middot; scorer {html.escape(str(item.get('scorer_version')))}")
    sentences = "".join(f'<div class="ev">{html.escape(x.get("text") or "")} '
                        f'<span class="meta">[{html.escape(str(x.get("passage_id")))}]</span></div>'
                        for x in item.get("evidence_sentences") or []) or '<div class="meta">no evidence sentence chosen</div>'
    spans: dict[str, list[tuple[int, int]]] = {}
    for x in item.get("evidence_sentences") or []:
        if isinstance(x.get("start"), int) and isinstance(x.get("end"), int):
            spans.setdefault(str(x.get("passage_id")), []).append((x["start"], x["end"]))
    passages = "".join(f'<div class="meta">passage {html.escape(str(p.get("id")))}</div>'
                       f'<div class="passage">{_marked(p.get("text") or "", spans.get(str(p.get("id")), []))}</div>'
                       for p in item.get("passages") or []) or '<div class="meta">no passages stored</div>'
    radios = "".join(f'<label><input type="radio" name="label-{i}" value="{value}"> {text}</label>'
                     for value, text in _CHOICES)
    return (f'<section class="item" id="item-{i}"><div class="claim">{html.escape(item.get("claim") or "")}</div>'
            f'<div class="meta">{meta}</div><h4>Evidence sentences</h4>{sentences}'
            f'<details open><summary>Passages</summary>{passages}</details>'
            f'<fieldset>{radios}</fieldset><textarea id="note-{i}" placeholder="note (optional)"></textarea></section>')


def render_form(items: list[dict], title: str = "groundwatch review") -> str:
    data = json.dumps(items, ensure_ascii=False).replace("</", "<\\/")
    body = "".join(_item(i, item) for i, item in enumerate(items))
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
            f'<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; style-src \'unsafe-inline\'; '
            f'script-src \'unsafe-inline\'; img-src blob: data:">'
            f'<style>{_CSS}</style></head><body><div id="bar"><strong>{html.escape(title)}</strong> &middot; '
            f'{len(items)} claims &middot; <span id="progress"></span> '
            f'<button id="download" type="button">Download reviewed JSONL</button></div>{body}'
            f'<pre id="export" hidden></pre>'
            f'<script type="application/json" id="items">{data}</script><script>{_JS}</script></body></html>')
