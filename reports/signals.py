"""Counts of the response signals in stored verdicts, for the report: off-topic answers, stale
evidence, and the outcomes of per-claim lookups in the knowledge base."""

from __future__ import annotations

from html import escape
from typing import Iterable

SIGNALS = ("off_topic", "stale_evidence", "retrieval_miss", "unsupported_by_corpus")
TITLES = {
    "off_topic": ("Off-topic answers", "responses with a question whose answer is far from it"),
    "stale_evidence": ("Stale evidence", "responses with a claim supported by a passage a newer source contradicts"),
    "retrieval_miss": ("Retrieval misses", "claims the knowledge base supports but the retriever did not return"),
    "unsupported_by_corpus": ("Unsupported by the corpus", "claims the knowledge base does not support either"),
}


def signal_counts(records: Iterable[dict]) -> dict[str, dict]:
    """{signal: {"count", "of"}}: responses for off_topic / stale_evidence (of those with a question /
    of all), claims for the lookup outcomes (of the claims looked up)."""
    records = list(records)
    asked = [r for r in records if r.get("relevance")]
    looked_up = [c.get("corpus") for r in records for c in r.get("claims", []) if c.get("corpus")]
    return {
        "off_topic": {"count": sum(bool(r["relevance"].get("off_topic")) for r in asked), "of": len(asked)},
        "stale_evidence": {"count": sum(bool(r.get("stale_evidence")) for r in records), "of": len(records)},
        "retrieval_miss": {"count": sum(c.get("outcome") == "retrieval_miss" for c in looked_up),
                           "of": len(looked_up)},
        "unsupported_by_corpus": {"count": sum(c.get("outcome") == "unsupported_by_corpus" for c in looked_up),
                                  "of": len(looked_up)},
    }


def signals_html(counts: dict[str, dict]) -> str:
    rows = "".join(
        f'<tr data-signal="{name}"><td>{escape(TITLES[name][0])}</td><td>{counts[name]["count"]} / '
        f'{counts[name]["of"]}</td><td>{escape(TITLES[name][1])}</td></tr>'
        for name in SIGNALS if name in counts)
    return f'<table id="signals"><tr><th>signal</th><th>count</th><th>what it counts</th></tr>{rows}</table>'


# -- lines for `explain` / `trace` -------------------------------------------------------

def relevance_lines(record: dict) -> list[str]:
    rel = record.get("relevance")
    if not rel:
        return []
    verdict = "OFF TOPIC: the answer does not address the question" if rel.get("off_topic") else "on topic"
    return [f"answer relevance to the question {rel['similarity']:.2f} (threshold {rel['threshold']:.2f}): {verdict}"]


def corpus_lines(claim: dict) -> list[str]:
    corpus = claim.get("corpus")
    if not corpus:
        return []
    where = f"knowledge base {corpus.get('index')!r}"
    outcome = corpus.get("outcome")
    ids = ", ".join(corpus.get("evidence_ids") or []) or "nothing found"
    if outcome == "retrieval_miss":
        return [f"  {where}: RETRIEVAL MISS - supported by {ids} (entail {corpus.get('entailment', 0):.2f}); "
                f"the retriever did not return it"]
    if outcome == "unsupported_by_corpus":
        return [f"  {where}: not supported there either (best entail {corpus.get('entailment', 0):.2f}; "
                f"looked at {ids}): a generation problem"]
    return [f"  {where}: not looked up ({corpus.get('reason')})"]


def stale_lines(record: dict) -> list[str]:
    out = []
    for s in record.get("stale_evidence", []):
        out += ["", f"stale evidence for claim {s['claim_index'] + 1}: supported by {s['passage_id']} "
                    f"(updated {s['updated_at']}: {s['value']!r}), but {s['newer_id']} "
                    f"({'knowledge base' if s.get('source') == 'corpus' else 'retrieved'}, updated "
                    f"{s['newer_updated_at']}) says {s['newer_value']!r} about {s['key']!r}"]
    return out
