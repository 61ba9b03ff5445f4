"""The bounded store layout against a real server: two apps reusing a request id keep two
documents, a thousand distinct metadata keys add one mapped field, a crafted timestamp lands in
the Kafka message's month, and an index the server refuses is a classified error, not a retry."""

from __future__ import annotations

import uuid
from datetime import datetime, timezone

import pytest
import structlog
from opensearchpy import OpenSearch

from groundwatch.cli import main
from groundwatch.config.settings import OpenSearchSettings
from groundwatch.export.base import SinkError
from groundwatch.export.opensearch_sink import OpenSearchSink
from groundwatch.reports.verdict_store import find_by_request_id
from tests.integration.verdict_factory import response_verdict

pytestmark = pytest.mark.integration

KAFKA = datetime(2026, 3, 10, 12, 0, tzinfo=timezone.utc)


def _sink(url: str, prefix: str | None = None) -> OpenSearchSink:
    name = f"gw-layout-{uuid.uuid4().hex[:8]}"
    return OpenSearchSink(OpenSearchSettings(url=url, alias=name, index_prefix=prefix or name,
                                             number_of_replicas=0))


def _fields(mapping: dict, path: str = "") -> list[str]:
    out = []
    for key, spec in mapping.get("properties", {}).items():
        out.append(path + key)
        out += _fields(spec, f"{path}{key}.")
    return out


def test_two_apps_and_a_thousand_metadata_keys_and_a_crafted_timestamp(opensearch_url: str, capsys) -> None:
    sink = _sink(opensearch_url)
    alias = sink.settings.alias
    client = OpenSearch(hosts=[opensearch_url])
    shared = [response_verdict("42", ["SUPPORTED"], timestamp="2026-03-09T00:00:00Z", app=app)
              for app in ("shop", "help-center")]
    keyed = []
    for i in range(10):  # 100 distinct keys each: 1,000 in all
        v = response_verdict(f"k-{i}", ["SUPPORTED"], timestamp="2026-03-09T00:00:00Z")
        v.metadata.update({f"key_{i}_{j}": j for j in range(100)})
        keyed.append(v)
    crafted = response_verdict("old", ["SUPPORTED"], timestamp="1901-01-01T00:00:00Z")
    verdicts = shared + keyed + [crafted]
    sink.write(verdicts, [KAFKA] * len(verdicts))
    client.indices.refresh(index=f"{alias}-*")

    assert sorted(client.indices.get_alias(name=alias)) == [f"{alias}-2026.03"]  # no index for 1901
    docs = find_by_request_id(client, alias, "42")
    assert sorted(d["metadata"]["app"] for d in docs) == ["help-center", "shop"]
    assert [d["metadata"]["app"] for d in find_by_request_id(client, alias, "42", app="shop")] == ["shop"]
    base = ["--opensearch-url", opensearch_url, "--alias", alias]
    try:
        assert main(["trace", "42", *base]) == 0
        out = capsys.readouterr().out
        assert out.startswith("request 42 is stored for 2 apps or tenants (help-center, shop)")
        assert "== app shop, tenant acme ==" in out and "== app help-center, tenant acme ==" in out
        assert main(["trace", "42", "--app", "shop", *base]) == 0
        assert "== app" not in capsys.readouterr().out
    finally:
        structlog.reset_defaults()  # the CLI bound logging to this test's captured stderr

    mapping = client.indices.get_mapping(index=f"{alias}-2026.03")[f"{alias}-2026.03"]["mappings"]
    fields = _fields(mapping)
    assert "metadata_extra" in fields and not [f for f in fields if "key_" in f]
    hits = client.search(index=alias, body={"query": {"term": {"metadata_extra.key_3_7": "7"}}})["hits"]["hits"]
    assert [h["_source"]["request_id"] for h in hits] == ["k-3"]
    assert all(len(h["_source"].get("metadata_extra", {})) <= 32 for h in
               client.search(index=alias, body={"size": 20, "query": {"match_all": {}}})["hits"]["hits"])

    [old] = client.search(index=alias, body={"query": {"term": {"request_id": "old"}}})["hits"]["hits"]
    assert old["_source"]["store_flags"] == ["timestamp_replaced"]
    assert old["_source"]["timestamp"] == KAFKA.isoformat()
    assert old["_source"]["original_timestamp"] == "1901-01-01T00:00:00Z"
    sink.close()


def test_an_index_the_server_refuses_is_a_classified_permanent_error(opensearch_url: str) -> None:
    sink = _sink(opensearch_url, prefix=f"GW-Upper-{uuid.uuid4().hex[:6]}")  # not a valid index name
    verdicts = [response_verdict(f"r-{i}", ["SUPPORTED"], timestamp="2026-03-09T00:00:00Z") for i in range(3)]
    with pytest.raises(SinkError) as caught:
        sink.write(verdicts, [KAFKA] * 3)
    error = caught.value
    assert error.reason == "index_refused" and error.permanent
    assert sorted(f.doc_id for f in error.refused) == sorted(v.doc_id for v in verdicts)
    assert {(f.status, f.error_type, f.label) for f in error.refused} == {(400, "index_refused", "index_refused")}
    sink.close()
