"""Reading verdict documents back from OpenSearch through the alias.

The alias spans every time-based index, so a request scored months ago is found by
a search on request_id; get-by-id would need the index name, which is unknown then.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Iterator

from groundwatch.scorers.identity import app_of
from groundwatch.scorers.times import parse_time


class VerdictStoreError(RuntimeError):
    """OpenSearch is unreachable, refused the request, or the alias does not exist."""


@dataclass(frozen=True)
class VerdictFilter:
    """Which verdicts a report covers; `since` inclusive, `until` exclusive."""

    since: datetime | None = None
    until: datetime | None = None
    app: str | None = None
    model: str | None = None
    tenant: str | None = None

    def metadata(self) -> dict[str, str]:
        return {k: v for k, v in (("app", self.app), ("model", self.model), ("tenant", self.tenant)) if v}


def scored_at(doc: dict) -> datetime:
    """For newest-first ordering; a missing or malformed value sorts oldest."""
    return parse_time(doc.get("scored_at")) or datetime.min.replace(tzinfo=timezone.utc)


def _exact(field: str, value: str) -> dict:
    # The sink's template maps these fields as keyword; an index created by dynamic
    # mapping has text + .keyword instead. Either must match the exact value only.
    return {"bool": {"should": [{"term": {field: value}}, {"term": {f"{field}.keyword": value}}],
                     "minimum_should_match": 1}}


def _call(description: str, fn):
    from groundwatch.config.unreachable import reason
    from opensearchpy.exceptions import ConnectionError, NotFoundError, TransportError

    try:
        return fn()
    except NotFoundError as exc:
        raise VerdictStoreError(f"{description}: index or alias not found ({exc.error})") from None
    except ConnectionError as exc:
        raise VerdictStoreError(f"{description}: OpenSearch unreachable ({reason(exc)})") from None
    except TransportError as exc:
        raise VerdictStoreError(f"{description}: OpenSearch answered {exc.status_code} {exc.error}") from None


def find_by_request_id(client, alias: str, request_id: str, app: str | None = None) -> list[dict]:
    """Every stored verdict of one request (one per app, tenant and scorer version), newest first;
    `app` keeps that app's only ("" for verdicts that name no app)."""
    clauses = [_exact("request_id", request_id)]
    if app:
        clauses.append(_exact("metadata.app", app))
    body = {"size": 100, "query": {"bool": {"filter": clauses}}}
    answer = _call(f"search {alias}", lambda: client.search(index=alias, body=body))
    docs = [hit["_source"] for hit in answer["hits"]["hits"]
            if hit["_source"].get("request_id") == request_id and (app is None or app_of(hit["_source"]) == app)]
    return sorted(docs, key=scored_at, reverse=True)


def _newest(client, alias: str, query: dict, limit: int) -> list[dict]:
    body = {"size": limit, "query": query, "sort": [{"scored_at": {"order": "desc"}}]}
    answer = _call(f"search {alias}", lambda: client.search(index=alias, body=body))
    return sorted((hit["_source"] for hit in answer["hits"]["hits"]), key=scored_at, reverse=True)


def find_by_claim_text(client, alias: str, text: str, limit: int = 10) -> list[dict]:
    """Verdicts with a claim containing `text` as a phrase (claims.text is analysed text), newest first."""
    query = {"nested": {"path": "claims", "query": {"match_phrase": {"claims.text": text}}}}
    return _newest(client, alias, query, limit)


def find_by_passage_id(client, alias: str, passage_id: str, limit: int = 10) -> list[dict]:
    """Verdicts whose retrieved passages, claim evidence or corpus evidence name `passage_id`, newest first."""
    query = {"bool": {"should": [
        _exact("passage_ids", passage_id),
        {"nested": {"path": "claims", "query": {"bool": {"should": [
            _exact("claims.evidence.passage_ids", passage_id),
            _exact("claims.corpus.evidence_ids", passage_id)], "minimum_should_match": 1}}}},
    ], "minimum_should_match": 1}}
    return _newest(client, alias, query, limit)


def _time_range(f: VerdictFilter) -> dict:
    bounds = {}
    if f.since:
        bounds["gte"] = f.since.isoformat()
    if f.until:
        bounds["lt"] = f.until.isoformat()
    # The response's own timestamp when logged, else the time it was scored.
    return {"bool": {"should": [
        {"range": {"timestamp": bounds}},
        {"bool": {"must_not": [{"exists": {"field": "timestamp"}}],
                  "filter": [{"range": {"scored_at": bounds}}]}},
    ], "minimum_should_match": 1}}


def query_for(f: VerdictFilter) -> dict:
    clauses = [_exact(f"metadata.{key}", value) for key, value in f.metadata().items()]
    if f.since or f.until:
        clauses.append(_time_range(f))
    return {"bool": {"filter": clauses}} if clauses else {"match_all": {}}


def search(client, alias: str, f: VerdictFilter, page_size: int = 500) -> Iterator[dict]:
    """Every verdict document under the alias that the filter selects (unordered)."""
    from opensearchpy import helpers

    hits = helpers.scan(client, index=alias, query={"query": query_for(f)}, size=page_size)
    iterator = iter(hits)
    while True:
        hit = _call(f"search {alias}", lambda: next(iterator, None))
        if hit is None:
            return
        yield hit["_source"]
