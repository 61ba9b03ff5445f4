"""Load the constructed corpora and match audit findings against their ground truth."""

from __future__ import annotations

import json
from pathlib import Path

from groundwatch.audit.documents import read_jsonl
from groundwatch.scorers.nli.factory import DEFAULT_MODEL_DIR

CORPORA = Path(__file__).resolve().parents[1] / "data" / "corpora"
SHIPPED = DEFAULT_MODEL_DIR


def documents(name: str):
    return read_jsonl(CORPORA / f"{name}.jsonl")


def truth(name: str) -> dict:
    return json.loads((CORPORA / f"{name}.truth.json").read_text())


def matching_conflict(conflicts, expected: dict):
    """The conflict that involves every expected document with its expected sentence, if any."""
    for c in conflicts:
        sentences = {(s["doc_id"], s["text"]) for s in c.statements}
        if all((doc_id, text) in sentences for doc_id, text in expected["sentences"].items()):
            return c
    return None


def issue_found(issues, expected: dict) -> bool:
    doc_ids = expected.get("doc_ids") or [expected["doc_id"]]
    return any(i.kind == expected["kind"] and i.doc_ids == sorted(doc_ids)
               and i.scope == expected.get("scope", i.scope) for i in issues)
