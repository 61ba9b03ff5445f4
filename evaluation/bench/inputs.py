"""The benchmark's inputs: logged responses (a file, or synthetic ones) and the pairs made from them."""

from __future__ import annotations

import random
from pathlib import Path

from groundwatch.scorers.answer.claims import decompose
from groundwatch.scorers.answer.decorative import decorative_reason
from groundwatch.scorers.jsonl import read_jsonl

PREMISE_WORDS = 150  # keeps every pair inside one 256-token window, so all paths score the same text

_SUBJECTS = ["Refunds", "Data exports", "API keys", "Contract renewals", "Overtime payments", "Warranty claims",
             "Travel reimbursements", "Account deletions", "Support escalations", "Hardware replacements"]
_VERBS = ["are available", "can be requested", "are processed", "are granted", "may be approved"]
_CONDITIONS = ["for Enterprise customers", "subject to manager approval", "only if the invoice is paid",
               "unless the order was customised", "with written approval from finance"]
_FILLER = ["The policy was last reviewed by the operations team.", "Requests are tracked in the service portal.",
           "Regional offices follow the same rules.", "Exceptions are recorded in the quarterly audit.",
           "The help centre lists the forms to use."]


def synthetic_responses(n: int, seed: int = 0) -> list[dict]:
    """Policy-style responses with numbers and conditions, the shape of RAG traffic."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        subject, verb, cond = rng.choice(_SUBJECTS), rng.choice(_VERBS), rng.choice(_CONDITIONS)
        days, other = rng.sample([7, 10, 14, 30, 45, 60, 90], 2)
        passages = [
            {"id": "p1", "text": f"{subject} {verb} within {days} days {cond}. " + " ".join(rng.sample(_FILLER, 3)),
             "score": 0.9},
            {"id": "p2", "text": f"Standard requests are handled within {other} days. "
             + " ".join(rng.sample(_FILLER, 2)), "score": 0.7},
            {"id": "p3", "text": f"Case {i}: the reference number is {1000 + i}. " + rng.choice(_FILLER), "score": 0.4},
        ]
        answer = (f"{subject} {verb} within {rng.choice([days, other])} days {cond}. "
                  f"Standard requests take {other} days, and the reference number is {1000 + i}. Hope this helps!")
        out.append({"request_id": f"bench-{i}", "question": f"How long do {subject.lower()} take?",
                    "answer": answer, "passages": passages})
    return out


def load_responses(path: Path | None, n: int, seed: int = 0) -> tuple[list[dict], str]:
    """Up to n records from the file, or n synthetic ones; plus a description of the source."""
    if path and path.exists():
        records = [record for _, record in read_jsonl(path)][:n]
        return records, str(path)
    return synthetic_responses(n, seed), "synthetic policy responses"


def _trim(text: str) -> str:
    words = text.split()
    return text if len(words) <= PREMISE_WORDS else " ".join(words[:PREMISE_WORDS])


def pairs_of(responses: list[dict], n: int) -> list[tuple[str, str]]:
    """Unique (passage, claim) pairs, every checked claim against every passage, in record order."""
    seen, out = set(), []
    for r in responses:
        claims = [c.text for c in decompose(r["answer"]) if decorative_reason(c.text) is None]
        for claim in claims:
            for p in r["passages"]:
                pair = (_trim(p["text"]), claim)
                if pair not in seen:
                    seen.add(pair)
                    out.append(pair)
                if len(out) >= n:
                    return out
    return out
