"""Forgetting: delete one request's or one tenant's verdicts from every verdict index.

`forget` runs one delete-by-query per index behind the alias (so the report can say
which index held what) and refreshes; a server without `_delete_by_query` gets a
search for the ids and a bulk delete instead. Time bounds use the response's own
timestamp, else the time it was scored, like the report's filter.

Two apps may reuse a request id: `app` narrows a request (or a tenant) to one app, and
a request id stored for several apps is deleted only for the app named, or for all
of them when asked (`all_apps`), never by surprise. What the store does not hold is
listed, not deleted: the original message in the dead-letter topic and the alerts
(docs/reliability.md says how to purge those).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime

from groundwatch.config.unreachable import reason
from groundwatch.config.logs import get_logger
from groundwatch.scorers.identity import app_of

log = get_logger(__name__)


class ForgetError(RuntimeError):
    """OpenSearch is unreachable or refused the deletion."""


class SharedRequestId(ForgetError):
    """The request id is stored for several apps and the request named none of them."""

    def __init__(self, request_id: str, apps: dict[str, int]):
        listed = ", ".join(f"{app or '(none)'} ({n})" for app, n in sorted(apps.items()))
        super().__init__(f"request_id {request_id!r} is stored for {len(apps)} apps: {listed}; "
                         "give --app APP (\"\" for verdicts without an app) or --all-apps")
        self.apps = apps


@dataclass(frozen=True)
class ForgetRequest:
    request_id: str | None = None
    tenant: str | None = None
    before: datetime | None = None  # exclusive
    app: str | None = None  # None: any app; "": verdicts that name no app
    all_apps: bool = False  # a request id stored for several apps: delete every app's

    def __post_init__(self):
        if bool(self.request_id) == bool(self.tenant):
            raise ValueError("forget needs exactly one of request_id and tenant")
        if self.all_apps and self.app is not None:
            raise ValueError("forget takes an app or all apps, not both")

    def query(self) -> dict:
        field_name, value = ("request_id", self.request_id) if self.request_id else ("metadata.tenant", self.tenant)
        clauses = [_exact(field_name, value)]
        if self.app:
            clauses.append(_exact("metadata.app", self.app))
        elif self.app == "":
            clauses.append({"bool": {"must_not": [{"exists": {"field": "metadata.app"}}]}})
        if self.before is not None:
            bound = {"lt": self.before.isoformat()}
            clauses.append({"bool": {"should": [
                {"range": {"timestamp": bound}},
                {"bool": {"must_not": [{"exists": {"field": "timestamp"}}], "filter": [{"range": {"scored_at": bound}}]}},
            ], "minimum_should_match": 1}})
        return {"bool": {"filter": clauses}}

    def describe(self) -> str:
        who = f"request {self.request_id!r}" if self.request_id else f"tenant {self.tenant!r}"
        if self.app is not None:
            who += f" of app {self.app!r}" if self.app else " without an app"
        return who + (f" before {self.before.isoformat()}" if self.before else "")


def _exact(field_name: str, value: str) -> dict:
    return {"bool": {"should": [{"term": {field_name: value}}, {"term": {f"{field_name}.keyword": value}}],
                     "minimum_should_match": 1}}


@dataclass
class ForgetReport:
    deleted: dict[str, int] = field(default_factory=dict)  # index -> documents deleted
    method: str = "delete_by_query"
    dry_run: bool = False
    apps: dict[str, int] = field(default_factory=dict)  # app ("" none) -> documents selected

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
        indices = _indices(client, alias)
        # A request id's few documents, by app: to refuse a shared one and to report it (not for a tenant's many).
        report.apps = _apps(client, indices, query) if request.request_id else {}
        if request.request_id and request.app is None and not request.all_apps and len(report.apps) > 1 \
                and not dry_run:
            raise SharedRequestId(request.request_id, report.apps)
        for index in indices:
            if dry_run:
                n = int(client.count(index=index, body={"query": query})["count"])
            else:
                n = _delete(client, index, query, report)
            if n:
                report.deleted[index] = n
    except ConnectionError as exc:
        raise ForgetError(f"OpenSearch unreachable ({reason(exc)})") from None
    except TransportError as exc:
        raise ForgetError(f"OpenSearch answered {exc.status_code} {exc.error}") from None
    # Who asked is the operator's record; the log names the selector kind and counts, never the tenant's data.
    log.info("verdicts_forgotten", selector="request_id" if request.request_id else "tenant",
             before=request.before.isoformat() if request.before else None, deleted=report.total,
             indices=len(report.deleted), method=report.method, dry_run=dry_run)
    return report


def _apps(client, indices: list[str], query: dict, page: int = 1000) -> dict[str, int]:
    """Documents the query selects, by app (the first `page` of each index: enough to see sharing)."""
    apps: dict[str, int] = {}
    for index in indices:
        body = {"query": query, "size": page, "_source": ["metadata.app"]}
        for hit in client.search(index=index, body=body)["hits"]["hits"]:
            app = app_of(hit.get("_source") or {})
            apps[app] = apps.get(app, 0) + 1
    return apps


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


def kept_elsewhere(kafka, alerts) -> list[str]:
    """What `forget` cannot delete, for its report: the settings' kafka and alerts sections name where."""
    out = [f"dead letters: topic {kafka.dead_letter_topic!r} keeps the original message (answer, question, "
           "passages) of any response that was dead-lettered, until the topic's retention.ms passes"]
    if alerts.enabled:
        out.append(f"alerts: topic {kafka.alerts_topic!r} keeps alerts (ids, verdicts, scores; no text), keyed by "
                   "app and request id, until its retention.ms passes")
        if alerts.webhook_url is not None:
            out.append("webhook: alerts already posted to alerts.webhook_url are the receiver's to delete")
    return out
