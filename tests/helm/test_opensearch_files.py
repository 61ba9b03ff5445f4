"""OpenSearch files shipped in the chart. The ISM policy is checked for shape only:
osmem-server (the test server) has no ISM plugin, so it cannot be applied in tests."""

from __future__ import annotations

import json

from tests.helm.conftest import CHART

FILES = CHART / "files"


def test_dashboards_saved_objects_parse_as_ndjson() -> None:
    lines = (FILES / "opensearch-dashboards.ndjson").read_text().splitlines()
    objects = {obj["type"]: obj for obj in map(json.loads, lines)}

    assert len(lines) == len(objects) == 3
    pattern = objects["index-pattern"]
    assert pattern["attributes"] == {"title": "groundwatch-verdicts*", "timeFieldName": "scored_at"}
    for kind in ("search", "visualization"):
        obj = objects[kind]
        source = json.loads(obj["attributes"]["kibanaSavedObjectMeta"]["searchSourceJSON"])
        ref = next(r for r in obj["references"] if r["name"] == source["indexRefName"])
        assert ref == {"name": source["indexRefName"], "type": "index-pattern", "id": pattern["id"]}
    search = json.loads(objects["search"]["attributes"]["kibanaSavedObjectMeta"]["searchSourceJSON"])
    assert "CONTRADICTED" in search["query"]["query"]
    json.loads(objects["visualization"]["attributes"]["visState"])


def test_ism_policy_deletes_verdict_indices_after_retention() -> None:
    policy = json.loads((FILES / "ism-policy.json").read_text())["policy"]
    states = {state["name"]: state for state in policy["states"]}

    assert policy["default_state"] == "hot"
    assert states["hot"]["transitions"] == [
        {"state_name": "delete", "conditions": {"min_index_age": "434d"}}]
    assert states["delete"]["actions"] == [{"delete": {}}]
    assert policy["ism_template"][0]["index_patterns"] == ["groundwatch-verdicts-*"]


def test_shipped_ism_policy_is_the_one_the_job_installs() -> None:
    from groundwatch.config.settings import OpenSearchSettings
    from groundwatch.export.retention import ism_policy

    shipped = json.loads((FILES / "ism-policy.json").read_text())["policy"]
    installed = ism_policy(OpenSearchSettings())["policy"]
    assert {k: v for k, v in shipped.items() if k != "description"} == \
        {k: v for k, v in installed.items() if k != "description"}
