"""Forget: the query that selects a request's or a tenant's verdicts, and the search + bulk
delete used where a server has no _delete_by_query."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest

from groundwatch.export.forget import ForgetRequest, forget


def test_exactly_one_selector():
    with pytest.raises(ValueError):
        ForgetRequest()
    with pytest.raises(ValueError):
        ForgetRequest(request_id="r", tenant="t")


def test_tenant_before_a_date_uses_the_response_time_else_scored_at():
    q = ForgetRequest(tenant="acme", before=datetime(2025, 6, 1, tzinfo=timezone.utc)).query()["bool"]["filter"]
    assert q[0]["bool"]["should"][0] == {"term": {"metadata.tenant": "acme"}}
    assert q[1]["bool"]["should"][0] == {"range": {"timestamp": {"lt": "2025-06-01T00:00:00+00:00"}}}
    assert q[1]["bool"]["should"][1]["bool"]["filter"] == [{"range": {"scored_at": {"lt": "2025-06-01T00:00:00+00:00"}}}]
    assert ForgetRequest(request_id="r-1").query()["bool"]["filter"][0]["bool"]["should"][0] == \
        {"term": {"request_id": "r-1"}}


class _NoDeleteByQuery:
    """Two indices; no _delete_by_query (400 no handler), so ids are searched and bulk-deleted."""

    def __init__(self):
        from opensearchpy.exceptions import RequestError

        self._error = RequestError
        self.docs = {"gw-2025.01": ["a:1", "a:2"], "gw-2025.02": ["a:3"], "gw-2025.03": []}
        self.indices = self
        self.bulks = []

    def get_alias(self, name):
        return {index: {"aliases": {name: {}}} for index in self.docs}

    def delete_by_query(self, index, body, params=None):
        raise self._error(400, "no handler found for uri [/x/_delete_by_query] and method [POST]", {})

    def search(self, index, body):
        return {"hits": {"hits": [{"_index": index, "_id": i} for i in self.docs[index]]}}

    def bulk(self, body, params=None):
        self.bulks.append(body)
        items = []
        for line in body.splitlines():
            ref = json.loads(line)["delete"]
            self.docs[ref["_index"]].remove(ref["_id"])
            items.append({"delete": {"_id": ref["_id"], "status": 200}})
        return {"items": items}

    def count(self, index, body):
        return {"count": len(self.docs[index])}


def test_without_delete_by_query_ids_are_searched_and_bulk_deleted():
    client = _NoDeleteByQuery()
    assert forget(client, "gw", ForgetRequest(request_id="a"), dry_run=True).deleted == \
        {"gw-2025.01": 2, "gw-2025.02": 1}
    report = forget(client, "gw", ForgetRequest(request_id="a"))
    assert report.method == "search_and_bulk" and report.total == 3
    assert report.deleted == {"gw-2025.01": 2, "gw-2025.02": 1}
    assert all(not ids for ids in client.docs.values()) and len(client.bulks) == 2


def test_app_narrows_the_query_and_empty_app_means_none():
    shop = ForgetRequest(request_id="42", app="shop").query()["bool"]["filter"]
    assert shop[1]["bool"]["should"][0] == {"term": {"metadata.app": "shop"}}
    none = ForgetRequest(tenant="acme", app="").query()["bool"]["filter"]
    assert none[1] == {"bool": {"must_not": [{"exists": {"field": "metadata.app"}}]}}
    assert len(ForgetRequest(request_id="42", all_apps=True).query()["bool"]["filter"]) == 1
    with pytest.raises(ValueError, match="not both"):
        ForgetRequest(request_id="42", app="shop", all_apps=True)
    assert ForgetRequest(request_id="42", app="").describe() == "request '42' without an app"
