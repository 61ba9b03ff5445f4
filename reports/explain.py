"""Render a verdict record (dict, as stored) as an explanation a person can read.

For every checked claim it shows the verdict, the checks (failed ones first, with the
sentence a guard looked at), the evidence sentences when the record has them, every
premise with its scores, and the evidence regions: the whole chunk each deciding
premise's offsets point to. A long chunk is elided around the evidence sentences,
never over them; without evidence sentences the chunk is shown whole. Highlighting is
ANSI bold when `color` is on (the command turns it on for a terminal without NO_COLOR),
else the evidence is marked »like this«.
"""

from __future__ import annotations

import textwrap

from groundwatch.reports.signals import corpus_lines, relevance_lines, stale_lines
from groundwatch.scorers.english.sentences import sentence_spans

WIDTH = 100
REGION_CHARS = 700   # a chunk up to this long is always shown whole
CONTEXT = 1          # sentences kept on each side of an evidence sentence when a chunk is elided
ELLIPSIS = "[…]"
# Passed checks that found nothing to check (the guards' words in scorers/guards/): not shown, so every
# check listed is one that applied to the claim. tests/unit/test_explain_agrees.py keeps them in step.
NOT_APPLIED = ("no condition on the claim's key content", "no comparable clause", "the claim states no number",
               "no evidence sentence shares content with the claim", "no evidence sentence carries the claim's ",
               "every claim number is in the passages")
_ON, _OFF = "\ue000", "\ue001"  # highlight markers while wrapping; one character each


def render(record: dict, color: bool = False) -> str:
    r = record["response"]
    lines = [f"request {record['request_id']}  (scorer {record['scorer_version']}, model {record['model']})",
             *_headline(record)]
    lines += action_lines(record)
    lines += relevance_lines(record)
    passages = {p.get("id"): p for p in record.get("passages", [])}
    n_passages = len(record.get("passage_ids", []))
    for c in record["claims"]:
        lines.append("")
        lines += _claim(c, passages, n_passages)
    for conflict in record.get("context_conflicts", []):
        lines.append("")
        lines.append(f"context conflict between {' and '.join(conflict['passage_ids'])} "
                     f"(contradiction {conflict['contradiction']:.2f}, about claim {conflict['claim_index'] + 1}):")
        for s in conflict["sentences"]:
            lines.append(f"    {textwrap.shorten(s, 200)!r}")
    lines += stale_lines(record)
    return _paint("\n".join(lines), color)


def _headline(record: dict) -> list[str]:
    """Whether every claim is supported, naming the ones that are not, and the response score with what it
    is: the model's lowest entailment over the checked claims, before any check capped a verdict."""
    r = record["response"]
    checked = [c for c in record["claims"] if c["verdict"] != "SKIPPED"]
    unsupported = [c["index"] + 1 for c in checked if c["verdict"] != "SUPPORTED"]
    named = f" ({'claims' if len(unsupported) > 1 else 'claim'} {_numbers(unsupported)} not supported)"
    verdict = "yes" if r["all_supported"] else "NO" + (named if unsupported else "")
    lines = [f"all claims supported: {verdict}; high-severity unsupported claims: {r['high_severity_unsupported']}"]
    if checked:
        weakest = min(checked, key=lambda c: c["entailment"])
        lines.append(f"response score {r['score']:.2f}: the lowest model entailment of its claims (claim "
                     f"{weakest['index'] + 1}), before the checks")
    return lines


def _numbers(numbers: list[int]) -> str:
    return ", ".join(map(str, numbers))


def action_lines(record: dict) -> list[str]:
    """What the policy did with the answer and which rule chose it (verdicts scored with a policy)."""
    decision = record.get("action")
    if not isinstance(decision, dict) or not decision.get("action"):
        return []
    line = f"action: {decision['action']} (rule {decision.get('rule') or '?'})"
    if decision.get("reason"):
        line += f": {decision['reason']}"
    if decision.get("stripped"):
        line += f"; stripped claims {', '.join(str(i + 1) for i in decision['stripped'])}"
    return [textwrap.fill(line, WIDTH, subsequent_indent="  ")]


def _claim(c: dict, passages: dict, n_passages: int) -> list[str]:
    head = f"claim {c['index'] + 1} ({c['severity']}): {c['text']!r}"
    if c["verdict"] == "SKIPPED":
        return [f"{head}\n  SKIPPED: decorative ({c['reason']}); it cannot veto the answer"]
    evidence = c.get("evidence", [])
    lines = [head, f"  {c['verdict']}: best entailment {c['entailment']:.2f}, best contradiction "
                   f"{c['contradiction']:.2f}, over {len(evidence)} premises from {n_passages} retrieved passages"]
    checks = [k for k in c.get("checks", []) if not k["passed"] or not _not_applied(k)]
    width = max((len(k["name"]) for k in checks), default=0)
    for check in [k for k in checks if not k["passed"]] + [k for k in checks if k["passed"]]:
        lines.append(_check(check, width))
    if c.get("flags"):
        lines.append(f"  flags: {', '.join(c['flags'])}")
    lines += corpus_lines(c)
    sentences = _evidence_sentences(c, _decider(c, evidence))
    if sentences:
        lines.append("  evidence sentences:")
        for s in sentences:
            lines.append(textwrap.fill(f"{_ref(s)} {s['text']!r}", WIDTH, initial_indent="    ",
                                       subsequent_indent="      "))
    failed = c["verdict"] != "SUPPORTED"
    # A supported claim: the premise that entails it and, when another, the one behind the headline's best
    # contradiction, so every score in the headline is on a listed premise.
    shown = evidence if failed else _deciding(evidence)[:2]
    marks = _marks(evidence) if failed or len(shown) > 1 else {}
    for i, e in enumerate(shown):
        lines.append(f"  - [{' + '.join(e['passage_ids'])}] entail {e['entailment']:.2f} / neutral "
                     f"{e['neutral']:.2f} / contradict {e['contradiction']:.2f} (retrieval "
                     f"{e['retrieval_score']:.2f}, {e['kind']}){marks.get(id(e), '')}")
    regions = _regions(_deciding(evidence) if failed else shown[:1], sentences)
    if regions:
        lines.append("  evidence regions" + (" (the chunks of these premises, deciding ones first):" if failed
                                             else " (the premise that entails it):"))
        for pid, start, end in regions:
            lines += _region(passages.get(pid), pid, start, end, sentences)
    return lines


def _not_applied(check: dict) -> bool:
    detail = check.get("detail") or ""
    return any(detail.startswith(words) for words in NOT_APPLIED)


def _check(check: dict, width: int) -> str:
    mark = "ok  " if check["passed"] else "FAIL"
    line = f"  check {check['name']:<{width}} {mark} {check.get('detail', '')}".rstrip()
    if not check["passed"] and check.get("verdict"):
        line += f" -> {check['verdict']}"
    sentence = check.get("evidence") or check.get("sentence")
    if isinstance(sentence, dict):  # the sentence a guard compared the claim with
        line += f" (on {_ref(sentence)})"
    return line


def _decider(c: dict, evidence: list[dict]) -> dict | None:
    """The premise the model's verdict rests on: the best entailment of a SUPPORTED claim, the best
    contradiction of a CONTRADICTED one; None for NOT_ENOUGH_INFO (no premise settled it)."""
    if not evidence or c["verdict"] not in ("SUPPORTED", "CONTRADICTED"):
        return None
    score = "entailment" if c["verdict"] == "SUPPORTED" else "contradiction"
    return max(evidence, key=lambda e: e[score])


def _inside(s: dict, premise: dict) -> bool:
    offsets = premise.get("offsets") or [None] * len(premise["passage_ids"])
    return any(pid == s.get("passage_id") and (off is None or (off[0] <= s["start"] and s["end"] <= off[1]))
               for pid, off in zip(premise["passage_ids"], offsets))


def _evidence_sentences(c: dict, decider: dict | None = None) -> list[dict]:
    """The claim's evidence sentences (of a supported or contradicted claim, only those in the premise
    that decided it: a sentence elsewhere did not), then any sentence a failed check points to; each once."""
    out, seen = [], set()
    candidates = [s for s in c.get("evidence_sentences") or [] if decider is None or _inside(s, decider)]
    for check in c.get("checks", []):
        sentence = check.get("evidence") or check.get("sentence")
        if not check["passed"] and isinstance(sentence, dict):
            candidates.append(sentence)
    for s in candidates:
        key = (s.get("passage_id"), s.get("start"), s.get("end"))
        if None not in key and key not in seen:
            seen.add(key)
            out.append(s)
    return out


def _ref(s: dict) -> str:
    return f"{s['passage_id']}[{s['start']}:{s['end']}]"


def _deciding(evidence: list[dict]) -> list[dict]:
    """Premises in the order that decided the verdict: best entailment, best contradiction, then the rest."""
    if not evidence:
        return []
    best_e = max(evidence, key=lambda e: e["entailment"])
    best_c = max(evidence, key=lambda e: e["contradiction"])
    first = [best_e] + ([best_c] if best_c is not best_e else [])
    return first + [e for e in evidence if all(e is not f for f in first)]


def _marks(evidence: list[dict]) -> dict[int, str]:
    if not evidence:
        return {}
    best_e = max(evidence, key=lambda e: e["entailment"])
    best_c = max(evidence, key=lambda e: e["contradiction"])
    if best_e is best_c:
        return {id(best_e): "  <- best entailment and best contradiction"}
    return {id(best_e): "  <- best entailment", id(best_c): "  <- best contradiction"}


def _regions(premises: list[dict], sentences: list[dict]) -> list[tuple[str, int | None, int | None]]:
    """(passage id, start, end) of every chunk of these premises, each once, in order; then the
    passage of any evidence sentence no chunk covers (a guard may look beyond the premises)."""
    out: list[tuple[str, int | None, int | None]] = []
    for e in premises:
        offsets = e.get("offsets") or [None] * len(e["passage_ids"])
        for pid, off in zip(e["passage_ids"], offsets):
            region = (pid, off[0], off[1]) if off else (pid, None, None)
            if not any(_within(region, shown) for shown in out):  # a sentence inside a chunk already shown
                out.append(region)
    for s in sentences:
        if not any(pid == s["passage_id"] and (a is None or (a <= s["start"] and s["end"] <= b))
                   for pid, a, b in out):
            out.append((s["passage_id"], None, None))
    return out


def _within(region: tuple, shown: tuple) -> bool:
    (pid, a, b), (spid, sa, sb) = region, shown
    if pid != spid:
        return False
    return sa is None or (a is not None and sa <= a and b <= sb)


def _region(passage: dict | None, pid: str, start: int | None, end: int | None, sentences: list[dict]) -> list[str]:
    if passage is None or "text" not in passage:
        return [f"    {pid}: (passage text not stored)"]
    text = passage["text"]
    start = 0 if start is None else max(0, min(start, len(text)))
    end = len(text) if end is None else max(start, min(end, len(text)))
    about = ", ".join(x for x in (passage.get("doc_id"), repr(passage["title"]) if passage.get("title") else None)
                      if x)
    head = f"    {pid}[{start}:{end}] of {len(text)} characters" + (f" ({about})" if about else "")
    keep = sorted((max(s["start"], start) - start, min(s["end"], end) - start) for s in sentences
                  if s["passage_id"] == pid and s["start"] < end and s["end"] > start)
    body = _elide(text[start:end], keep)
    return [head, textwrap.fill(body, WIDTH, initial_indent="      ", subsequent_indent="      ",
                                break_long_words=False, break_on_hyphens=False)]


def _elide(chunk: str, keep: list[tuple[int, int]]) -> str:
    """The chunk with the kept spans marked; when it is long, sentences far from every kept span
    become […]. A kept span is never cut: every sentence it touches stays whole."""
    if not keep:
        return " ".join(chunk.split())
    spans = sentence_spans(chunk) or [(0, len(chunk))]
    near = set()
    for a, b in keep:
        touched = [i for i, (s, e) in enumerate(spans) if s < b and e > a]
        for i in touched:
            near.update(range(i - CONTEXT, i + CONTEXT + 1))
    whole = len(chunk) <= REGION_CHARS
    parts, dropped = [], False
    for i, (s, e) in enumerate(spans):
        if whole or i in near:
            if dropped:
                parts.append(ELLIPSIS)
                dropped = False
            parts.append(_mark(chunk, s, e, keep))
        else:
            dropped = True
    if dropped:
        parts.append(ELLIPSIS)
    return " ".join(" ".join(p.split()) for p in parts)


def _mark(chunk: str, s: int, e: int, keep: list[tuple[int, int]]) -> str:
    """chunk[s:e] with the kept spans inside it wrapped in highlight markers."""
    out, pos = [], s
    for a, b in keep:
        a, b = max(a, s), min(b, e)
        if a >= b or a < pos:
            continue
        out += [chunk[pos:a], _ON, chunk[a:b], _OFF]
        pos = b
    out.append(chunk[pos:e])
    return "".join(out)


def _paint(text: str, color: bool) -> str:
    on, off = ("\x1b[1;33m", "\x1b[0m") if color else ("»", "«")
    return text.replace(_ON, on).replace(_OFF, off)
