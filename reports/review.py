"""Stored verdicts back to human labels: a stratified review sample, and the reviewed labels as
the labelled JSONL `groundwatch eval --calibrate` and `--fit-combiner` read.

Export (`groundwatch label export`): every scored claim of the verdicts is a candidate, grouped
into strata by (claim verdict, severity, app); within a stratum the least confident claims come
first. The sample takes claims round-robin over the strata (in a fixed order) until it holds
`size`, so rare strata (a high-severity CONTRADICTED claim of a small app) are not drowned by the
common one. One review item per claim: the claim, its verdict and scores, the evidence sentences
the checker chose (`evidence_sentences`) and the response's stored passages.

Import (`groundwatch label import`): each reviewed item with a label becomes one labelled record:
the claim as the answer, the stored passages, `label` (supported | contradicted |
not_enough_info, the evaluation's vocabulary), set `review` and the stratum as hints. Items
without a label, or whose verdict stored no passages, are counted and left out.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from groundwatch.scorers.files import output_path
from groundwatch.scorers.identity import app_prefixed

LABELS = ("supported", "contradicted", "not_enough_info")
SKIP = "skip"  # a reviewer's "cannot tell": left out of the labelled file
SCORED = ("SUPPORTED", "CONTRADICTED", "NOT_ENOUGH_INFO")


def confidence(claim: dict) -> float:
    """How sure the verdict is, 0..1: the score behind it (entailment for SUPPORTED, contradiction for
    CONTRADICTED), or for NOT_ENOUGH_INFO how far the larger of the two stayed from deciding."""
    e, c = float(claim.get("entailment") or 0.0), float(claim.get("contradiction") or 0.0)
    verdict = claim.get("verdict")
    if verdict == "SUPPORTED":
        return e
    if verdict == "CONTRADICTED":
        return c
    return 1.0 - max(e, c)


def stratum_of(record: dict, claim: dict) -> tuple[str, str, str]:
    return (claim.get("verdict", "?"), claim.get("severity", "normal"),
            str((record.get("metadata") or {}).get("app") or "none"))


def review_item(record: dict, claim: dict) -> dict:
    verdict, severity, app = stratum_of(record, claim)
    index = claim.get("index", 0)
    return {
        # The app is part of the id: two apps may reuse a request id.
        "review_id": app_prefixed((record.get("metadata") or {}).get("app"),
                                  f"{record['request_id']}:{record.get('scorer_version', '')}:{index}"),
        "request_id": record["request_id"], "scorer_version": record.get("scorer_version"),
        "model": record.get("model"), "claim_index": index,
        "stratum": {"verdict": verdict, "severity": severity, "app": app},
        "confidence": round(confidence(claim), 4),
        "claim": claim.get("text", ""), "verdict": verdict,
        "entailment": claim.get("entailment"), "contradiction": claim.get("contradiction"),
        "evidence_sentences": [{k: s.get(k) for k in ("passage_id", "start", "end", "text")}
                               for s in claim.get("evidence_sentences") or []],
        "passages": [{"id": p.get("id"), "text": p.get("text", "")} for p in record.get("passages") or []],
        "label": None, "note": "",
    }


def sample(records: Iterable[dict], size: int) -> list[dict]:
    """`size` review items, stratified by (verdict, severity, app), least confident first in each."""
    strata: dict[tuple, list[tuple]] = defaultdict(list)
    for record in records:
        for claim in record.get("claims") or []:
            if claim.get("verdict") not in SCORED:
                continue
            strata[stratum_of(record, claim)].append(
                (confidence(claim), record["request_id"], claim.get("index", 0), record, claim))
    queues = [sorted(strata[key], key=lambda x: x[:3]) for key in sorted(strata)]
    out: list[dict] = []
    depth = 0
    while len(out) < size and any(depth < len(q) for q in queues):
        for queue in queues:
            if depth < len(queue) and len(out) < size:
                _, _, _, record, claim = queue[depth]
                out.append(review_item(record, claim))
        depth += 1
    return out


def write_review(items: list[dict], path: str | Path) -> None:
    output_path(path).write_text("".join(json.dumps(i, ensure_ascii=False) + "\n" for i in items), encoding="utf-8")


@dataclass
class Imported:
    labelled: list[dict] = field(default_factory=list)
    unlabelled: int = 0
    skipped: int = 0        # reviewer chose "skip"
    no_passages: int = 0    # the verdict stored no passages (scorer.store_passages off or redacted)


def to_labelled(items: Iterable[dict]) -> Imported:
    """Reviewed items -> labelled records (raises ValueError on a label outside LABELS + skip)."""
    out = Imported()
    for item in items:
        label = item.get("label")
        if label in (None, ""):
            out.unlabelled += 1
            continue
        if label == SKIP:
            out.skipped += 1
            continue
        if label not in LABELS:
            raise ValueError(f"review item {item.get('review_id')!r}: label {label!r}, expected one of "
                             f"{list(LABELS) + [SKIP]}")
        passages = [p for p in item.get("passages") or [] if p.get("text")]
        if not passages:
            out.no_passages += 1
            continue
        stratum = item.get("stratum") or {}
        out.labelled.append({
            "request_id": item["review_id"], "answer": item["claim"], "passages": passages,
            "label": label, "label_3way": label, "set": "review",
            "stratum": [f"verdict:{stratum.get('verdict')}", f"severity:{stratum.get('severity')}",
                        f"app:{stratum.get('app')}"],
            "metadata": {"app": stratum.get("app")} if stratum.get("app") not in (None, "none") else {},
            "review": {"scorer_version": item.get("scorer_version"), "verdict": item.get("verdict"),
                       "note": item.get("note") or ""},
        })
    return out
