"""`groundwatch report` reading verdicts from OpenSearch (osmem) through the alias."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest
from opensearchpy import OpenSearch

from groundwatch.cli import main
from infra.server import free_port
from tests.integration.verdict_factory import verdict_dict

pytestmark = pytest.mark.integration

KEYWORD_MAPPING = {"properties": {
    "request_id": {"type": "keyword"}, "scorer_version": {"type": "keyword"},
    "timestamp": {"type": "date"}, "scored_at": {"type": "date"},
    "metadata": {"properties": {k: {"type": "keyword"} for k in ("app", "model", "retriever", "tenant")}},
}}
PATTERNS = [["SUPPORTED", "SUPPORTED"], ["SUPPORTED", "CONTRADICTED", "NOT_ENOUGH_INFO"], ["SUPPORTED"],
            ["NOT_ENOUGH_INFO", "SKIPPED"]]


def _docs() -> list[dict]:
    docs = []
    for i in range(20):
        month, day = (1, 2 + i) if i < 12 else (2, i - 10)
        docs.append(verdict_dict(
            f"Req-{i:02d}", PATTERNS[i % 4], timestamp=f"2025-{month:02d}-{day:02d}T09:30:00+00:00",
            scored_at=f"2025-{month:02d}-{day:02d}T09:31:00+00:00", app="help-center" if i % 2 else "Billing-Bot"))
    # No response timestamp: the time it was scored counts.
    docs.append(verdict_dict("Req-untimed", ["CONTRADICTED"], timestamp=None,
                             scored_at="2025-01-20T00:00:00+00:00", app="help-center"))
    # Req-13 rescored by a newer scorer: only the newest verdict may count.
    docs.append(verdict_dict("Req-13", ["CONTRADICTED", "CONTRADICTED"], timestamp="2025-02-03T09:30:00+00:00",
                             scored_at="2025-02-10T00:00:00+00:00", scorer_version="1.1.0", app="help-center"))
    return docs


def _index(url: str, docs: list[dict]) -> str:
    client = OpenSearch(hosts=[url])
    alias = f"gw-report-{uuid.uuid4().hex[:8]}"
    # January with the sink's keyword mapping, February dynamically mapped (text + .keyword).
    client.indices.create(index=f"{alias}-2025.01", body={"mappings": KEYWORD_MAPPING})
    client.indices.create(index=f"{alias}-2025.02")
    for doc in docs:
        month = (doc["timestamp"] or doc["scored_at"])[5:7]
        client.index(index=f"{alias}-2025.{month}", id=f"{doc['request_id']}:{doc['scorer_version']}", body=doc)
    for month in ("01", "02"):
        client.indices.put_alias(index=f"{alias}-2025.{month}", name=alias)
    client.indices.refresh(index=f"{alias}-*")
    return alias


def test_report_filters_time_range_and_app_across_indices(opensearch_url: str, tmp_path: Path, capsys) -> None:
    docs = _docs()
    alias = _index(opensearch_url, docs)
    out = tmp_path / "report.json"

    code = main(["report", "--opensearch-url", opensearch_url, "--alias", alias, "--since", "2025-01-10",
                 "--until", "2025-02-05T00:00:00Z", "--app", "help-center", "--output", str(out),
                 "--html", str(tmp_path / "report.html")])
    assert code == 0, capsys.readouterr().err

    # Expected, by hand: help-center is every odd i; in range are Jan 10+ (i >= 8) and Feb 2-4
    # (i 12..14); Req-13 counts with its newer verdict; Req-untimed is in by scored_at.
    expected = {f"Req-{i:02d}": PATTERNS[i % 4] for i in (9, 11)}
    expected["Req-13"] = ["CONTRADICTED", "CONTRADICTED"]
    expected["Req-untimed"] = ["CONTRADICTED"]
    checked = [[v for v in verdicts if v != "SKIPPED"] for verdicts in expected.values()]
    report = json.loads(out.read_text())
    assert report["responses"] == len(expected)
    faith = report["rates"]["faithfulness"]
    assert (faith["successes"], faith["n"]) == (sum(c.count("SUPPORTED") for c in checked), sum(map(len, checked)))
    contra = report["rates"]["contradiction"]
    assert contra["successes"] == sum(c.count("CONTRADICTED") for c in checked)
    assert report["filters"]["app"] == "help-center"
    assert list(report["apps"]) == ["help-center"] and report["apps"]["help-center"]["responses"] == len(expected)
    # Every response with an unsupported claim is listed, the newest verdict of Req-13 among them.
    unsupported = {rid for rid, verdicts in expected.items() if set(verdicts) - {"SUPPORTED", "SKIPPED"}}
    assert {w["request_id"] for w in report["worst_responses"]} == unsupported
    assert len(next(w for w in report["worst_responses"] if w["request_id"] == "Req-13")["claims"]) == 2


def test_report_breaks_rates_down_per_app(opensearch_url: str, capsys) -> None:
    alias = _index(opensearch_url, _docs())
    assert main(["report", "--opensearch-url", opensearch_url, "--alias", alias, "--json"]) == 0
    apps = json.loads(capsys.readouterr().out)["apps"]
    assert {app: a["responses"] for app, a in apps.items()} == {"help-center": 11, "Billing-Bot": 10}


def test_report_app_filter_is_exact_on_dynamically_mapped_text(opensearch_url: str, tmp_path: Path) -> None:
    alias = _index(opensearch_url, _docs())
    out = tmp_path / "report.json"
    # "billing-bot" (lower case) must not match "Billing-Bot" through the analysed text field.
    assert main(["report", "--opensearch-url", opensearch_url, "--alias", alias, "--app", "billing-bot",
                 "--output", str(out)]) == 2
    assert main(["report", "--opensearch-url", opensearch_url, "--alias", alias, "--app", "Billing-Bot",
                 "--output", str(out)]) == 0
    assert json.loads(out.read_text())["responses"] == 10


def test_report_says_when_opensearch_is_unreachable(capsys) -> None:
    url = f"http://127.0.0.1:{free_port()}"
    assert main(["report", "--opensearch-url", url, "--alias", "gw-none"]) == 2
    assert "unreachable" in capsys.readouterr().err
