"""Conflicting duplicates: two different responses stored under one request id.

A verdict's document id includes a hash of what it judged (scorers/identity.py), so a
replay overwrites its own document while a different answer under a request id already
used (a client bug, a regenerated retry, two apps sharing ids) is stored beside it. This
finds such pairs before a write so both documents carry the store flag
`conflicting_duplicate`: the new one as it is written, the stored one by a partial update.

Stored documents are found by one terms query on request_id per bulk write. A search sees
documents a refresh (about a second) after they are written, so this process also remembers
what it wrote recently; two consumers writing the two conflicting records within one refresh
of each other may miss the pair (records keyed by request id go to one partition, so one
consumer sees both). A document stored before content hashes existed has none and is
never called a conflict.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from groundwatch.scorers.identity import identity_value

CONFLICTING_DUPLICATE = "conflicting_duplicate"  # a store_flags value
RECENT_KEYS = 10_000  # request keys remembered from this process's own writes
SEARCH_CAP = 10_000


@dataclass(frozen=True)
class StoredCopy:
    """One stored (or about to be stored) document of a request."""

    key: tuple[str, str, str]  # request_key: (app, tenant, request_id)
    doc_id: str
    index: str
    content_hash: str | None
    store_flags: tuple[str, ...] = ()

    @property
    def flagged(self) -> bool:
        return CONFLICTING_DUPLICATE in self.store_flags


def request_key(app, tenant, request_id) -> tuple[str, str, str]:
    return identity_value(app), identity_value(tenant), str(request_id)


def key_of_source(source: dict) -> tuple[str, str, str]:
    meta = source.get("metadata") or {}
    return request_key(meta.get("app"), meta.get("tenant"), source.get("request_id"))


@dataclass
class Conflicts:
    new: set[str]             # doc ids about to be written that must carry the flag
    stored: list[StoredCopy]  # stored documents that must be updated to carry it


class DuplicateFinder:
    def __init__(self, remember: int = RECENT_KEYS):
        self._recent: OrderedDict[tuple, dict[str, StoredCopy]] = OrderedDict()
        self._remember = remember

    def find(self, stored: list[StoredCopy], pending: list[StoredCopy]) -> Conflicts:
        """`stored`: copies found in the store; `pending`: copies about to be written."""
        keys = {c.key for c in pending}
        copies: dict[tuple, dict[str, StoredCopy]] = {}
        recent = [c for key in keys for c in self._recent.get(key, {}).values()]
        for copy in recent + stored + pending:  # later wins: the store over memory, the write over both
            copies.setdefault(copy.key, {})[copy.doc_id] = copy
        written = {c.doc_id for c in pending}
        out = Conflicts(set(), [])
        for key in keys:
            group = [c for c in copies[key].values() if c.content_hash]
            if len({c.content_hash for c in group}) < 2:
                continue
            out.new.update(c.doc_id for c in group if c.doc_id in written)
            out.stored.extend(c for c in group if c.doc_id not in written and not c.flagged)
        return out

    def remember(self, written: list[StoredCopy]) -> None:
        """Documents this process stored (flags as stored), for the searches that cannot see them yet."""
        for copy in written:
            self._recent.setdefault(copy.key, {})[copy.doc_id] = copy
            self._recent.move_to_end(copy.key)
        while len(self._recent) > self._remember:
            self._recent.popitem(last=False)


def stored_query(request_ids: list[str]) -> dict:
    """The search body for the stored documents of these request ids (only what the check reads)."""
    return {"size": min(SEARCH_CAP, 20 * len(request_ids) + 100),
            "_source": ["request_id", "metadata.app", "metadata.tenant", "content_hash", "store_flags"],
            "query": {"terms": {"request_id": sorted(set(request_ids))}}}


def stored_copies(answer: dict, keys: set[tuple]) -> list[StoredCopy]:
    """The hits whose request key is one of `keys` (the terms query matches the request id only)."""
    out = []
    for hit in answer.get("hits", {}).get("hits", []):
        source = hit.get("_source") or {}
        key = key_of_source(source)
        if key in keys:
            out.append(StoredCopy(key, hit["_id"], hit["_index"], source.get("content_hash"),
                                  tuple(source.get("store_flags") or ())))
    return out
