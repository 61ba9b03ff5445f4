"""The verdict store over months: init-store, retention without ISM (the job's own sweep) and
traces of verdicts written months apart, by request id, claim text and passage id."""

from __future__ import annotations

import uuid
from datetime import datetime, timezone

import pytest
from opensearchpy import OpenSearch

from groundwatch.config.settings import OpenSearchSettings
from groundwatch.export.metrics import Metrics
from groundwatch.export.opensearch_sink import OpenSearchSink
from groundwatch.export.retention import RetentionKeeper
from groundwatch.cli import main
from tests.integration.verdict_factory import response_verdict

pytestmark = pytest.mark.integration

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=timezone.utc)


def _settings(url: str) -> OpenSearchSettings:
    name = f"gw-life-{uuid.uuid4().hex[:8]}"
    return OpenSearchSettings(url=url, alias=name, index_prefix=name, number_of_replicas=0)


def _verdict(request_id: str, timestamp: str, claim: str, passage: str):
    v = response_verdict(request_id, ["SUPPORTED", "NOT_ENOUGH_INFO"], timestamp=timestamp,
                         scored_at=timestamp, evidence_ids=[passage, "kb-shared"])
    v.claims[0].text = claim
    return v


def test_init_store_is_idempotent_and_says_the_job_sweeps(opensearch_url: str, capsys) -> None:
    s = _settings(opensearch_url)
    args = ["init-store", "--opensearch-url", opensearch_url, "--alias", s.alias]
    env_prefix = {"GROUNDWATCH_OPENSEARCH__INDEX_PREFIX": s.index_prefix}
    with pytest.MonkeyPatch.context() as mp:
        for k, v in env_prefix.items():
            mp.setenv(k, v)
        assert main(args) == 0
        first = capsys.readouterr().out
        assert main(args + ["--sweep"]) == 0
        second = capsys.readouterr().out
    assert "no ISM API on this server" in first and "13 months" in first
    assert "deleted now: none" in second
    client = OpenSearch(hosts=[opensearch_url])
    assert s.index_prefix in client.indices.get_index_template(name=s.index_prefix)["index_templates"][0]["name"]
    current = f"{s.index_prefix}-{datetime.now(timezone.utc):%Y.%m}"
    assert client.indices.get_alias(name=s.alias) == {current: {"aliases": {s.alias: {}}}}


def test_retention_without_ism_and_traces_months_later(opensearch_url: str, capsys) -> None:
    s = _settings(opensearch_url)
    sink = OpenSearchSink(s)
    sink.write([
        _verdict("Req-old", "2024-06-10T09:00:00+00:00", "The warranty lasts two years.", "kb-warranty-v1"),
        _verdict("Req-jan", "2025-10-03T09:00:00+00:00", "Refunds take 14 days.", "kb-refunds-v2"),
        _verdict("Req-mar", "2026-03-15T09:00:00+00:00", "Refunds take 14 days.", "kb-refunds-v3"),
        _verdict("Req-nov", "2026-11-20T09:00:00+00:00", "Premium support answers within an hour.", "kb-support"),
    ])
    metrics = Metrics()
    keeper = RetentionKeeper(sink.client, s, on_delete=metrics.retention_deletion, clock=lambda: NOW)
    assert keeper.tick() == s.retention_check_interval_s
    assert not keeper.state.ism
    captured = capsys.readouterr()
    assert "retention_index_deleted" in captured.out + captured.err  # stderr once the CLI set logging up
    client = OpenSearch(hosts=[opensearch_url])
    kept = sorted(client.indices.get_alias(name=s.alias))
    assert kept == [f"{s.index_prefix}-{p}" for p in ("2025.10", "2026.03", "2026.11")]
    assert metrics.registry.get_sample_value("groundwatch_retention_deletions_total") == 1.0
    client.indices.refresh(index=f"{s.index_prefix}-*")

    base = ["--opensearch-url", opensearch_url, "--alias", s.alias]
    assert main(["trace", "Req-jan", *base]) == 0
    assert capsys.readouterr().out.startswith("request Req-jan")
    assert main(["trace", "Req-old", *base]) == 2  # past the retention: gone
    capsys.readouterr()

    assert main(["trace", "--claim", "refunds take 14 days", *base]) == 0
    out = capsys.readouterr().out
    assert out.startswith("2 verdicts with a claim matching 'refunds take 14 days', newest first:")
    assert out.index("Req-mar") < out.index("Req-jan") and "Req-nov" not in out

    assert main(["trace", "--passage-id", "kb-refunds-v2", *base]) == 0
    out = capsys.readouterr().out
    assert out.startswith("1 verdict with passage 'kb-refunds-v2'") and "Req-mar" not in out.split("\n\n")[0]
    assert main(["trace", "--passage-id", "kb-shared", *base]) == 0
    assert capsys.readouterr().out.startswith("3 verdicts with passage 'kb-shared'")
    assert main(["trace", "--passage-id", "kb-nowhere", *base]) == 2
    assert "no verdict with passage 'kb-nowhere'" in capsys.readouterr().err
    sink.close()
