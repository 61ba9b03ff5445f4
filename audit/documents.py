"""Corpus documents, read lazily from JSONL or an OpenSearch index (scroll)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timezone
from itertools import islice
from pathlib import Path
from typing import Iterable, Iterator


class CorpusError(ValueError):
    """A corpus record is unusable; the message names the line or document."""


@dataclass(frozen=True)
class Document:
    doc_id: str
    title: str
    text: str
    updated_at: str | None = None
    source: str | None = None

    @property
    def updated(self) -> datetime | None:
        return parse_date(self.updated_at)


def parse_date(value: str | None) -> datetime | None:
    """ISO dates and date-times; naive ones are taken as UTC so all compare."""
    if not value:
        return None
    try:
        parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=timezone.utc)


def from_record(record: dict, where: str) -> Document:
    if not isinstance(record, dict):
        raise CorpusError(f"{where}: expected a JSON object")
    doc_id, text = record.get("doc_id"), record.get("text")
    if doc_id is None or str(doc_id).strip() == "":
        raise CorpusError(f"{where}: doc_id is missing")
    if text is not None and not isinstance(text, str):
        raise CorpusError(f"{where}: text must be a string")
    return Document(str(doc_id), str(record.get("title") or ""), text or "",
                    record.get("updated_at"), record.get("source"))


def read_jsonl(path: str | Path) -> Iterator[Document]:
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise CorpusError(f"{path} line {number}: not JSON: {exc.msg}") from None
            yield from_record(record, f"{path} line {number}")


def read_opensearch(client, index: str, page_size: int = 500, scroll: str = "5m") -> Iterator[Document]:
    """Every document of an index through a scroll; doc_id falls back to the hit's _id."""
    from opensearchpy.helpers import scan

    hits = scan(client, index=index, query={"query": {"match_all": {}}}, size=page_size, scroll=scroll,
                preserve_order=False)
    for hit in hits:
        source = dict(hit.get("_source") or {})
        source.setdefault("doc_id", hit["_id"])
        yield from_record(source, f"{index}/{hit['_id']}")


def batches(items: Iterable, size: int) -> Iterator[list]:
    iterator = iter(items)
    while batch := list(islice(iterator, size)):
        yield batch
