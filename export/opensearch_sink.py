"""Verdicts into OpenSearch: time-based indices behind one alias, bulk writes by id.

`_id` is the verdict's deterministic doc_id, so a replayed message overwrites
its document instead of adding a second one; the index is chosen from a time
the replay reproduces (the response's timestamp within a window around the
Kafka message's, else the message's), so the overwrite lands in the same index.

An index the server refuses to create for good (a 4xx such as an invalid name
or the cluster's shard limit) refuses the documents bound for it, each as an
ItemFailure of type `index_refused`: the consumer dead-letters them (reason
index_refused, counted) and stores the rest, instead of retrying the batch forever.
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import datetime
from typing import Sequence

from groundwatch.config.logs import get_logger
from groundwatch.config.settings import OpenSearchSettings
from groundwatch.export.base import PERMANENT_STATUSES, ItemFailure, SinkError, SinkUnavailable
from groundwatch.export.duplicates import (CONFLICTING_DUPLICATE, Conflicts, DuplicateFinder, StoredCopy, request_key,
                                           stored_copies, stored_query)
from groundwatch.export.opensearch_client import connect
from groundwatch.export.opensearch_mapping import StoreLayout, index_name, index_template, to_document
from groundwatch.scorers.records import ResponseVerdict

log = get_logger(__name__)

SINK = "opensearch"
INDEX_REFUSED = "index_refused"  # ItemFailure.error_type of a document whose index could not be created
MAX_LISTED_FAILURES = 10


class OpenSearchSink:
    name = SINK

    def __init__(self, settings: OpenSearchSettings, client=None, redactor=None, on_conflict=None):
        self.settings = settings
        # called with the number of new documents stored as conflicting duplicates (a metric)
        self.on_conflict = on_conflict or (lambda n: None)
        self.duplicates = DuplicateFinder()
        # scorers.redaction.Redactor (None: off): masks personal data in every text field before storage
        self.redactor = redactor
        self.client = client if client is not None else connect(settings)
        self.template_name = settings.index_prefix
        self.layout = StoreLayout.from_settings(settings)
        self._ready_indices: set[str] = set()
        self._template_ready = False

    # -- set-up ---------------------------------------------------------------

    def ensure_template(self) -> None:
        body = index_template(self.settings.index_prefix, self.settings.alias,
                              self.settings.number_of_shards, self.settings.number_of_replicas)
        self._call("put index template", lambda: self.client.indices.put_index_template(
            name=self.template_name, body=body))
        self._template_ready = True

    def ensure_index(self, index: str) -> None:
        """Create `index` with the alias (the template adds mappings); an existing index is fine."""
        from opensearchpy.exceptions import RequestError

        if index in self._ready_indices:
            return
        if not self._template_ready:
            self.ensure_template()
        try:
            self._call(f"create index {index}", lambda: self.client.indices.create(
                index=index, body={"aliases": {self.settings.alias: {}}}))
        except SinkError as exc:
            cause = exc.__cause__
            if not (isinstance(cause, RequestError) and cause.error == "resource_already_exists_exception"):
                raise
        self._ready_indices.add(index)

    # -- writes ---------------------------------------------------------------

    def write(self, verdicts: Sequence[ResponseVerdict],
              event_times: Sequence[datetime | None] | None = None) -> None:
        """Bulk-index every verdict; raises SinkError naming refused documents.

        `event_times` (by position: the Kafka message timestamps) pick the index of a verdict
        whose response has no timestamp (export/opensearch_mapping.py index_name)."""
        if not verdicts:
            return
        try:
            self._write(verdicts, event_times or [None] * len(verdicts))
        except SinkUnavailable:
            # The server may have come back empty (or been replaced): set up again next time.
            self._ready_indices.clear()
            self._template_ready = False
            raise

    def _write(self, verdicts: Sequence[ResponseVerdict], event_times: Sequence[datetime | None]) -> None:
        rows, failures, refused_indices = [], [], {}
        for verdict, event_time in zip(verdicts, event_times, strict=True):
            index = index_name(verdict, self.settings.index_prefix, self.settings.index_period, event_time,
                               self.layout)
            refusal = refused_indices.get(index) or self._create(index)
            if refusal is not None:
                refused_indices[index] = refusal
                failures.append(ItemFailure(verdict.doc_id, refusal.status or 400, INDEX_REFUSED, str(refusal)[:300]))
                continue
            rows.append((verdict, index, self.document(verdict, event_time)))
        for index, refusal in refused_indices.items():
            log.error("index_refused", index=index, status=refusal.status, reason=refusal.reason)
        conflicts = self._conflicts(rows) if rows else None
        entries = [(verdict.doc_id, json.dumps({"index": {"_index": index, "_id": verdict.doc_id}}) + "\n"
                    + json.dumps(doc) + "\n") for verdict, index, doc in rows]
        failures += self._bulk(entries) if entries else []
        if conflicts is not None:
            self._flag_stored(conflicts, rows, failures)
        if failures:
            listed = "; ".join(f"{f.doc_id}: {f.status} {f.error_type}" for f in failures[:MAX_LISTED_FAILURES])
            more = f" (and {len(failures) - MAX_LISTED_FAILURES} more)" if len(failures) > MAX_LISTED_FAILURES else ""
            reason = ("index_refused" if all(f.error_type == INDEX_REFUSED for f in failures)
                      else "rejected" if all(f.permanent for f in failures) else "item_error")
            raise SinkError(SINK, f"bulk refused {len(failures)} of {len(verdicts)} documents: {listed}{more}",
                            reason=reason, failures=failures)

    def _create(self, index: str) -> SinkError | None:
        """Ensure `index`; the error when the server refuses it for good (transient ones raise)."""
        try:
            self.ensure_index(index)
        except SinkError as exc:
            if isinstance(exc, SinkUnavailable) or exc.status not in PERMANENT_STATUSES:
                raise
            return exc
        return None

    # -- conflicting duplicates (export/duplicates.py) ----------------------------

    def _conflicts(self, rows: list[tuple[ResponseVerdict, str, dict]]) -> Conflicts:
        """Find stored documents of these requests with other content; flag the new documents in place."""
        pending = [_copy(verdict, index, doc) for verdict, index, doc in rows]
        keys = {c.key for c in pending}
        try:
            answer = self._call("search for duplicates", lambda: self.client.search(
                index=self.settings.alias, body=stored_query([key[2] for key in keys])))
        except SinkError as exc:
            if isinstance(exc, SinkUnavailable) or exc.status not in PERMANENT_STATUSES | {404}:
                raise
            if exc.status != 404:  # 404: no index behind the alias yet, nothing stored
                # The index cannot be searched by these ids (a mapping that is not ours): the bulk write
                # still stores what it can and refuses the rest by document, so this must not hold it up.
                log.warning("duplicate_search_refused", status=exc.status, reason=exc.reason)
            answer = {}
        conflicts = self.duplicates.find(stored_copies(answer, keys), pending)
        for verdict, _, doc in rows:
            if verdict.doc_id in conflicts.new:
                doc["store_flags"] = [*doc.get("store_flags", []), CONFLICTING_DUPLICATE]
        if conflicts.new:
            log.warning("conflicting_duplicates", documents=len(conflicts.new), stored=len(conflicts.stored))
            self.on_conflict(len(conflicts.new))
        return conflicts

    def _flag_stored(self, conflicts: Conflicts, rows: list, failures: list[ItemFailure]) -> None:
        """Flag the stored copies too (a partial update), once the new documents are stored."""
        failed = {f.doc_id for f in failures}
        self.duplicates.remember([_copy(v, index, doc) for v, index, doc in rows if v.doc_id not in failed])
        if not conflicts.stored:
            return
        body = "".join(json.dumps({"update": {"_index": c.index, "_id": c.doc_id}}) + "\n"
                       + json.dumps({"doc": {"store_flags": [*c.store_flags, CONFLICTING_DUPLICATE]}}) + "\n"
                       for c in conflicts.stored)
        # A transient failure raises, and the batch written again finds the pair again.
        refused = bulk_failures(self._call("flag duplicates", lambda: self.client.bulk(body=body)))
        for f in refused:  # gone since the search (forgotten, deleted for age): nothing left to flag
            log.warning("duplicate_flag_refused", status=f.status, error_type=f.error_type)
        gone = {f.doc_id for f in refused}
        self.duplicates.remember([replace(c, store_flags=(*c.store_flags, CONFLICTING_DUPLICATE))
                                  for c in conflicts.stored if c.doc_id not in gone])

    def document(self, verdict: ResponseVerdict, event_time: datetime | None = None) -> dict:
        """The stored document: the verdict record in the bounded layout, redacted when redaction is on."""
        doc = to_document(verdict, event_time, self.layout)
        return self.redactor.document(doc) if self.redactor is not None else doc

    def _bulk(self, entries: list[tuple[str, str]]) -> list[ItemFailure]:
        """One bulk request; refused items. A request refused as a whole for what it carries
        (400, 413: one document too large or unparsable) is split in halves down to the one
        document at fault, which is then refused alone."""
        try:
            answer = self._call("bulk", lambda: self.client.bulk(body="".join(line for _, line in entries)))
        except SinkError as exc:
            if isinstance(exc, SinkUnavailable) or exc.status not in PERMANENT_STATUSES:
                raise
            if len(entries) == 1:
                return [ItemFailure(entries[0][0], exc.status, f"http_{exc.status}", str(exc)[:300])]
            half = len(entries) // 2
            return self._bulk(entries[:half]) + self._bulk(entries[half:])
        return bulk_failures(answer)

    def _call(self, what: str, fn):
        from opensearchpy.exceptions import ConnectionError, TransportError

        try:
            return fn()
        except ConnectionError as exc:  # includes timeouts
            raise SinkUnavailable(SINK, f"{what}: OpenSearch unreachable ({type(exc).__name__})") from exc
        except TransportError as exc:
            status = exc.status_code if isinstance(exc.status_code, int) else 0
            if status == 429 or status >= 500 or status == 0:
                raise SinkUnavailable(SINK, f"{what}: OpenSearch answered {exc.status_code} {exc.error}",
                                      reason=f"http_{status}" if status else "unavailable") from exc
            raise SinkError(SINK, f"{what}: OpenSearch answered {status} {exc.error}",
                            reason=f"http_{status}", status=status) from exc

    def reachable(self, timeout_s: float | None = None) -> bool:
        """The server answers (readiness, HEAD /), within `timeout_s` when given; never raises."""
        try:
            params = {"request_timeout": timeout_s} if timeout_s is not None else {}
            return bool(self.client.ping(params=params))
        except Exception:  # noqa: BLE001 - a probe reports, never raises
            return False

    def close(self) -> None:
        self.client.close()


def _copy(verdict: ResponseVerdict, index: str, doc: dict) -> StoredCopy:
    meta = verdict.metadata or {}
    return StoredCopy(request_key(meta.get("app"), meta.get("tenant"), verdict.request_id), verdict.doc_id, index,
                      verdict.content_hash, tuple(doc.get("store_flags", ())))


def bulk_failures(answer: dict) -> list[ItemFailure]:
    """The items of a bulk answer that were not stored (an empty list when all were)."""
    if not answer.get("errors"):
        return []
    failures = []
    for item in answer.get("items", []):
        result = next(iter(item.values()))
        error = result.get("error")
        if not error and result.get("status", 200) < 300:
            continue
        error = error if isinstance(error, dict) else {"type": str(error), "reason": ""}
        failures.append(ItemFailure(doc_id=str(result.get("_id")), status=int(result.get("status", 0)),
                                    error_type=str(error.get("type", "unknown")),
                                    reason=str(error.get("reason", ""))[:300]))
    return failures
