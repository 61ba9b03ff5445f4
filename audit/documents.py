"""Corpus documents, read lazily from JSONL or an OpenSearch index (scroll)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from itertools import islice
from pathlib import Path
from typing import Iterable, Iterator

from groundwatch.scorers import jsonl
from groundwatch.scorers.times import parse_time


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
        return parse_time(self.updated_at)


def from_record(record: dict, where: str) -> Document:
    if not isinstance(record, dict):
        raise CorpusError(f"{where}: expected a JSON object")
    doc_id, text = record.get("doc_id"), record.get("text")
    if doc_id is None:
        doc_id = record.get("id")  # retriever corpora (examples/probes/corpus.jsonl) call it id
    if doc_id is None or str(doc_id).strip() == "":
        raise CorpusError(f"{where}: doc_id is missing (give doc_id or id)")
    if text is not None and not isinstance(text, str):
        raise CorpusError(f"{where}: text must be a string")
    return Document(str(doc_id), str(record.get("title") or ""), text or "",
                    record.get("updated_at"), record.get("source"))


def read_jsonl(path: str | Path) -> Iterator[Document]:
    try:
        for number, record in jsonl.read_jsonl(path):
            yield from_record(record, f"{path} line {number}")
    except jsonl.JsonlError as exc:
        raise CorpusError(f"{path} line {exc.line}: not JSON: {exc.msg}") from None


def count_jsonl(path: str | Path) -> int:
    """Read and check every document once without keeping them: a bad line fails before any model loads."""
    return sum(1 for _ in read_jsonl(path))


def read_opensearch(client, index: str, page_size: int = 500, scroll: str = "5m") -> Iterator[Document]:
    """Every document of an index through a scroll; doc_id falls back to the hit's _id."""
    from opensearchpy.exceptions import ConnectionError, TransportError
    from opensearchpy.helpers import scan

    from groundwatch.config.unreachable import reason

    hits = scan(client, index=index, query={"query": {"match_all": {}}}, size=page_size, scroll=scroll,
                preserve_order=False)
    try:
        for hit in hits:
            source = dict(hit.get("_source") or {})
            source.setdefault("doc_id", hit["_id"])
            yield from_record(source, f"{index}/{hit['_id']}")
    except ConnectionError as exc:
        raise CorpusError(f"index {index}: OpenSearch unreachable ({reason(exc)})") from None
    except TransportError as exc:
        raise CorpusError(f"index {index}: OpenSearch answered {exc.status_code} {exc.error}") from None


def batches(items: Iterable, size: int) -> Iterator[list]:
    iterator = iter(items)
    while batch := list(islice(iterator, size)):
        yield batch
