"""Documents under the old `request_id:scorer_version` id move to the per-app id, in their index;
a newer document already under the new id is kept."""

from __future__ import annotations

import uuid

import pytest
from opensearchpy import OpenSearch

from groundwatch.config.settings import OpenSearchSettings
from groundwatch.export.migrate_ids import main, migrate, new_id
from groundwatch.export.opensearch_sink import OpenSearchSink
from tests.integration.verdict_factory import verdict_dict

pytestmark = pytest.mark.integration


def test_old_ids_move_to_the_per_app_id(opensearch_url: str, capsys) -> None:
    name = f"gw-migrate-{uuid.uuid4().hex[:8]}"
    sink = OpenSearchSink(OpenSearchSettings(url=opensearch_url, alias=name, index_prefix=name, number_of_replicas=0))
    for index in (f"{name}-2025.01", f"{name}-2025.02"):
        sink.ensure_index(index)
    client = OpenSearch(hosts=[opensearch_url])
    old = [(f"{name}-2025.01", verdict_dict("42", ["SUPPORTED"], timestamp="2025-01-10T00:00:00Z", app="shop")),
           (f"{name}-2025.01", verdict_dict("43", ["SUPPORTED"], timestamp="2025-01-11T00:00:00Z", app="shop")),
           (f"{name}-2025.02", verdict_dict("42", ["SUPPORTED"], timestamp="2025-02-10T00:00:00Z", app="help"))]
    for index, doc in old:  # as the previous version stored them
        client.index(index=index, id=f"{doc['request_id']}:{doc['scorer_version']}", body=doc)
    newer = dict(old[1][1], scored_at="2026-01-01T00:00:00+00:00")  # rescored since the upgrade
    client.index(index=old[1][0], id=new_id(newer), body=newer, refresh=True)

    assert main(["--opensearch-url", opensearch_url, "--alias", name, "--dry-run"]) == 0
    assert "would move 3 documents" in capsys.readouterr().out
    report = migrate(client, name)
    assert (report.moved, report.replaced, report.current) == \
        ({f"{name}-2025.01": 1, f"{name}-2025.02": 1}, {f"{name}-2025.01": 1}, 1)
    hits = client.search(index=name, body={"size": 10, "query": {"match_all": {}}})["hits"]["hits"]
    assert sorted((h["_index"][-7:], h["_id"] == new_id(h["_source"])) for h in hits) == \
        [("2025.01", True), ("2025.01", True), ("2025.02", True)]
    kept = next(h for h in hits if h["_source"]["request_id"] == "43")
    assert kept["_source"]["scored_at"].startswith("2026"), "the newer document wins"
    assert migrate(client, name).total == 0  # idempotent
    assert sorted(h["_source"]["metadata"]["app"] for h in hits if h["_source"]["request_id"] == "42") == \
        ["help", "shop"]  # two apps, two documents
    sink.close()
