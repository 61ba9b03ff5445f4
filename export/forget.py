"""Forgetting: delete one request's or one tenant's verdicts from every verdict index.

`forget` runs one delete-by-query per index behind the alias (so the report can say
which index held what) and refreshes; a server without `_delete_by_query` gets a
search for the ids and a bulk delete instead. Time bounds use the response's own
timestamp, else the time it was scored, like the report's filter.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime

from groundwatch.config.logs import get_logger

log = get_logger(__name__)


class ForgetError(RuntimeError):
    """OpenSearch is unreachable or refused the deletion."""


@dataclass(frozen=True)
class ForgetRequest:
    request_id: str | None = None
    tenant: str | None = None
    before: datetime | None = None  # exclusive

    def __post_init__(self):
        if bool(self.request_id) == bool(self.tenant):
            raise ValueError("forget needs exactly one of request_id and tenant")

    def query(self) -> dict:
        field_name, value = ("request_id", self.request_id) if self.request_id else ("metadata.tenant", self.tenant)
        clauses = [{"bool": {"should": [{"term": {field_name: value}}, {"term": {f"{field_name}.keyword": value}}],
                             "minimum_should_match": 1}}]
        if self.before is not None:
            bound = {"lt": self.before.isoformat()}
            clauses.append({"bool": {"should": [
                {"range": {"timestamp": bound}},
                {"bool": {"must_not": [{"exists": {"field": "timestamp"}}], "filter": [{"range": {"scored_at": bound}}]}},
            ], "minimum_should_match": 1}})
        return {"bool": {"filter": clauses}}

    def describe(self) -> str:
        who = f"request {self.request_id!r}" if self.request_id else f"tenant {self.tenant!r}"
        return who + (f" before {self.before.isoformat()}" if self.before else "")


@dataclass
class ForgetReport:
    deleted: dict[str, int] = field(default_factory=dict)  # index -> documents deleted
    method: str = "delete_by_query"
    dry_run: bool = False

    @property
    def total(self) -> int:
        return sum(self.deleted.values())


def _indices(client, alias: str) -> list[str]:
    from opensearchpy.exceptions import NotFoundError

    try:
        return sorted(client.indices.get_alias(name=alias))
    except NotFoundError:
        return []


def _unsupported(exc) -> bool:
    text = f"{getattr(exc, 'error', '')} {getattr(exc, 'info', '')}"
    return "no handler found" in text or getattr(exc, "status_code", None) == 405


def forget(client, alias: str, request: ForgetRequest, dry_run: bool = False) -> ForgetReport:
    """Delete (or, dry run, count) what `request` selects in every index behind `alias`."""
    from opensearchpy.exceptions import ConnectionError, TransportError

    report = ForgetReport(dry_run=dry_run)
    query = request.query()
    try:
        for index in _indices(client, alias):
            if dry_run:
                n = int(client.count(index=index, body={"query": query})["count"])
            else:
                n = _delete(client, index, query, report)
            if n:
                report.deleted[index] = n
    except ConnectionError as exc:
        raise ForgetError(f"OpenSearch unreachable ({exc.error})") from None
    except TransportError as exc:
        raise ForgetError(f"OpenSearch answered {exc.status_code} {exc.error}") from None
    # Who asked is the operator's record; the log names the selector kind and counts, never the tenant's data.
    log.info("verdicts_forgotten", selector="request_id" if request.request_id else "tenant",
             before=request.before.isoformat() if request.before else None, deleted=report.total,
             indices=len(report.deleted), method=report.method, dry_run=dry_run)
    return report


def _delete(client, index: str, query: dict, report: ForgetReport) -> int:
    from opensearchpy.exceptions import TransportError

    if report.method == "delete_by_query":
        try:
            answer = client.delete_by_query(index=index, body={"query": query}, params={"refresh": "true",
                                                                                          "conflicts": "proceed"})
            return int(answer.get("deleted", 0))
        except TransportError as exc:
            if not _unsupported(exc):
                raise
            report.method = "search_and_bulk"
    return _search_and_bulk_delete(client, index, query)


def _search_and_bulk_delete(client, index: str, query: dict, page: int = 500) -> int:
    """For servers without _delete_by_query: ids page by page, then one bulk delete per page."""
    deleted = 0
    while True:
        hits = client.search(index=index, body={"query": query, "size": page, "_source": False})["hits"]["hits"]
        if not hits:
            return deleted
        body = "".join(json.dumps({"delete": {"_index": hit["_index"], "_id": hit["_id"]}}) + "\n" for hit in hits)
        answer = client.bulk(body=body, params={"refresh": "true"})
        done = sum(1 for item in answer.get("items", []) if item["delete"].get("status") in (200, 404))
        deleted += sum(1 for item in answer.get("items", []) if item["delete"].get("status") == 200)
        if done < len(hits):
            raise ForgetError(f"bulk delete in {index}: {len(hits) - done} of {len(hits)} refused")
