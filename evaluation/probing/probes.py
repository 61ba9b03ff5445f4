"""Failure probes built from supported dev-set answers with the training recipes.

Each edit family takes a supported answer and changes it so its passages no
longer support it (label unsupported): a negation flip, a changed number /
date / unit, a dropped condition, two entities swapped. The unedited answers
are the `original` control (label supported). `split_support` conjoins two
supported answers of different examples into one given claim and hands over
both examples' passages, so only the two passages together support it.
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from typing import Callable

from groundwatch.training.synthetic import drop_condition, edit_number, negate, swap_entities

from groundwatch.evaluation.labels import SUPPORTED, UNSUPPORTED

Recipe = Callable[[str, random.Random], "str | None"]

# Between two swapped names, only more names and list glue: "A, B and C" means the same in any order.
_LIST_ONLY = re.compile(r"^(?:\s*(?:,|and|or|&)\s*|[A-Z][\w!.'-]*(?: [A-Z][\w!.'-]*)*)*$")


def swap_changing_meaning(text: str, rng: random.Random) -> str | None:
    """swap_entities, except where the two names are items of one list (order carries no meaning)."""
    swapped = swap_entities(text, rng)
    if swapped is None:
        return None
    first = next(i for i, (x, y) in enumerate(zip(text, swapped)) if x != y)
    last = len(text) - next(i for i, (x, y) in enumerate(zip(reversed(text), reversed(swapped))) if x != y)
    between = text[first:last]
    return None if _LIST_ONLY.match(between) else swapped


EDITS: dict[str, Recipe] = {
    "negation": negate,
    "number": edit_number,
    "condition": drop_condition,
    "swap": swap_changing_meaning,
}
FAMILIES = ("original", *EDITS, "split_support")
SPLIT_MAX_PASSAGE_WORDS = 80  # both premises must fit one model window when joined
SPLIT_MAX_ANSWER_WORDS = 25
# Answers that are bare names or titles ("The Truth According to Wikipedia") state nothing to edit.
_STATEMENT = re.compile(r"\b(is|are|was|were|be|been|has|have|had|will|would|can|could|did|does|do|may|might|must|"
                        r"should)\b|\b[a-z]{3,}(?:ed|es)\b", re.I)


def interleave(records: list[dict], seed: int) -> list[dict]:
    """Shuffle within each set, then take the sets in turn, so every family mixes all sets."""
    rng = random.Random(seed)
    by_set: dict[str, list[dict]] = defaultdict(list)
    for r in records:
        by_set[r.get("set", "unknown")].append(r)
    queues = []
    for name in sorted(by_set):
        items = list(by_set[name])
        rng.shuffle(items)
        queues.append(items)
    out = []
    while any(queues):
        for q in queues:
            if q:
                out.append(q.pop(0))
    return out


def _probe(record: dict, family: str, answer: str, label: str, **extra) -> dict:
    probe = {k: v for k, v in record.items() if k not in ("label_3way", "claims")}
    probe.update(request_id=f"probe-{family}-{record['request_id']}", answer=answer, label=label, probe=family,
                 source_request_id=record["request_id"], **extra)
    return probe


def edit_probes(pool: list[dict], per_family: int, seed: int) -> list[dict]:
    """Edited answers, plus the unedited original of every answer edited (and of the first per_family)."""
    out = []
    for family, recipe in EDITS.items():
        rng = random.Random(f"{seed}:{family}")
        made = 0
        for r in pool:
            if made >= per_family:
                break
            edited = recipe(r["answer"], rng)
            edited = edited.strip().lstrip(",;: ") if edited else None  # a dropped leading condition leaves ", ..."
            if edited and edited != r["answer"].strip():
                out.append(_probe(r, family, edited, UNSUPPORTED))
                made += 1
    sources = {p["source_request_id"] for p in out} | {r["request_id"] for r in pool[:per_family]}
    return [_probe(r, "original", r["answer"], SUPPORTED) for r in pool if r["request_id"] in sources] + out


def _short(record: dict) -> bool:
    words = sum(len(p["text"].split()) for p in record["passages"])
    return words <= SPLIT_MAX_PASSAGE_WORDS and 4 <= len(record["answer"].split()) <= SPLIT_MAX_ANSWER_WORDS


def conjoin(first: str, second: str) -> str:
    second = second.strip()
    return first.strip().rstrip(" .!?") + ", and " + second[:1].lower() + second[1:]


def split_support_probes(pool: list[dict], n: int, seed: int) -> list[dict]:
    rng = random.Random(f"{seed}:split")
    short = [r for r in pool if _short(r)]
    out = []
    for a, b in zip(short[0::2], short[1::2]):
        if len(out) >= n:
            break
        if {p["text"] for p in a["passages"]} & {p["text"] for p in b["passages"]}:
            continue  # the same knowledge would support both halves alone
        if rng.random() < 0.5:
            a, b = b, a
        claim = conjoin(a["answer"], b["answer"])
        passages = [{"id": "a", "text": " ".join(p["text"] for p in a["passages"])},
                    {"id": "b", "text": " ".join(p["text"] for p in b["passages"])}]
        probe = _probe(a, "split_support", claim, SUPPORTED, claims=[claim], passages=passages,
                       second_request_id=b["request_id"])
        probe.pop("question", None)  # two different questions: neither applies
        probe.pop("gold_passage_ids", None)
        out.append(probe)
    return out


def is_statement(answer: str) -> bool:
    return len(answer.split()) >= 4 and bool(_STATEMENT.search(answer))


def build_probes(supported: list[dict], per_family: int = 100, seed: int = 0) -> list[dict]:
    """All families from the supported records of the dev sets (label must be `supported`)."""
    pool = interleave([r for r in supported if r["label"] == SUPPORTED and is_statement(r["answer"])], seed)
    return edit_probes(pool, per_family, seed) + split_support_probes(pool, per_family, seed)
