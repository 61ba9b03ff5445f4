"""Shared shape of a labelled record: the traffic schema plus label, set and stratum hints."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

from groundwatch.scorers import jsonl


def read_jsonl(path: Path) -> list[dict]:
    return [record for _, record in jsonl.read_jsonl(path)]


def labelled(request_id: str, answer: str, passages: list[dict], label: str, *, set_name: str,
             source_label: str, question: str | None = None, stratum: list[str] | None = None,
             gold_passage_ids: list[str] | None = None, label_3way: str | None = None) -> dict:
    """One line of labelled JSONL; `parse_response` ignores the extra keys."""
    record = {"request_id": request_id}
    if question:
        record["question"] = question
    record["answer"] = answer
    record["passages"] = passages
    if gold_passage_ids:
        record["gold_passage_ids"] = gold_passage_ids
    record["label"] = label
    if label_3way:
        record["label_3way"] = label_3way
    record["source_label"] = source_label
    record["set"] = set_name
    record["stratum"] = sorted(set(stratum or []))
    return record


def nonempty(records: Iterator[dict]) -> Iterator[dict]:
    """Drop records the schema would reject (no answer text or no passage)."""
    for r in records:
        if r["answer"].strip() and r["passages"]:
            yield r
