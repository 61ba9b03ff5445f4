"""groundwatch label: the review form works in real headless Chromium, and its download goes back
through `label import` into `groundwatch eval --calibrate`."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from groundwatch.cli import main
from tests.integration.test_html_report import _chromium, _chromium_run
from tests.integration.verdict_factory import verdict_dict

pytestmark = pytest.mark.integration


def _verdicts(path: Path) -> None:
    rows = []
    for i in range(16):
        doc = verdict_dict(f"req-{i:02d}", [["SUPPORTED", "NOT_ENOUGH_INFO", "CONTRADICTED"][i % 3]],
                           timestamp="2025-01-10T10:00:00+00:00", app="shop" if i % 2 else "help",
                           severities=["high" if i % 4 == 0 else "normal"])
        doc["passages"] = [{"id": "p0", "text": "Refunds are accepted within 30 days. Shipping is free over $50."}]
        doc["claims"][0]["text"] = "Refunds are accepted within 30 days." if i % 3 == 0 else "Shipping costs $50."
        doc["claims"][0]["evidence_sentences"] = [{"passage_id": "p0", "start": 0, "end": 36,
                                                   "text": "Refunds are accepted within 30 days."}]
        rows.append(json.dumps(doc))
    path.write_text("\n".join(rows) + "\n")


def test_review_form_in_chromium_round_trips_into_calibration(tmp_path: Path, tiny_onnx, capsys) -> None:
    chromium = _chromium()
    verdicts, review = tmp_path / "verdicts.jsonl", tmp_path / "review.jsonl"
    _verdicts(verdicts)
    assert main(["label", "export", "--input", str(verdicts), "--size", "12", "--output", str(review)]) == 0
    items = [json.loads(x) for x in review.read_text().splitlines()]
    assert len(items) == 12

    shown = _chromium_run(chromium, tmp_path / "profile", "--dump-dom", review.with_suffix(".html").as_uri())
    assert shown.returncode == 0, shown.stderr[-2000:]
    assert shown.stdout.count('class="item"') == 12
    assert "<mark>Refunds are accepted within 30 days.</mark>" in shown.stdout
    assert "0 of 12 labelled" in shown.stdout  # the script ran
    # #selftest labels the items with the first three choices in turn and shows the JSONL the download button gives.
    tested = _chromium_run(chromium, tmp_path / "profile", "--dump-dom",
                           review.with_suffix(".html").as_uri() + "#selftest")
    exported = html.unescape(re.search(r'<pre id="export"[^>]*>(.*?)</pre>', tested.stdout, re.S).group(1))
    reviewed = tmp_path / "reviewed.jsonl"
    reviewed.write_text(exported)
    rows = [json.loads(x) for x in exported.splitlines()]
    assert [r["review_id"] for r in rows] == [i["review_id"] for i in items]
    assert [r["label"] for r in rows[:4]] == ["supported", "contradicted", "not_enough_info", "supported"]

    labelled = tmp_path / "labelled.jsonl"
    assert main(["label", "import", str(reviewed), "--output", str(labelled)]) == 0
    config = tmp_path / "settings.json"
    config.write_text(json.dumps({"scorer": {"use_embeddings": False}}))
    calibration = tmp_path / "calibration.json"
    capsys.readouterr()
    code = main(["eval", "--input", str(labelled), "--calibrate", "balanced-accuracy", "--calibration-out",
                 str(calibration), "--model", str(tiny_onnx), "--config", str(config), "--resamples", "50"])
    out = capsys.readouterr()
    assert code == 0, out.err[-2000:]
    assert set(json.loads(calibration.read_text())["scorer"]) >= {"tau_entailment", "tau_contradiction"}
    combiner = tmp_path / "combiner.json"
    code = main(["eval", "--input", str(labelled), "--fit-combiner", str(combiner), "--model", str(tiny_onnx),
                 "--config", str(config), "--resamples", "50"])
    out = capsys.readouterr()
    assert code == 0, out.err[-2000:]
    assert json.loads(combiner.read_text())["kind"] == "logistic_regression"


def test_label_export_reads_the_verdict_store(opensearch_url: str, tmp_path: Path, capsys) -> None:
    import uuid

    from opensearchpy import OpenSearch

    from groundwatch.config.settings import OpenSearchSettings
    from groundwatch.export.opensearch_sink import OpenSearchSink
    from tests.integration.verdict_factory import response_verdict

    name = f"gw-label-{uuid.uuid4().hex[:8]}"
    sink = OpenSearchSink(OpenSearchSettings(url=opensearch_url, alias=name, index_prefix=name, number_of_replicas=0))
    sink.write([response_verdict(f"req-{i}", ["SUPPORTED", "NOT_ENOUGH_INFO"], timestamp="2025-02-01T10:00:00Z",
                                 app="shop" if i % 2 else "help") for i in range(6)])
    OpenSearch(hosts=[opensearch_url]).indices.refresh(index=f"{name}-*")
    out = tmp_path / "review.jsonl"
    assert main(["label", "export", "--opensearch-url", opensearch_url, "--alias", name, "--app", "shop",
                 "--size", "10", "--output", str(out)]) == 0
    items = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(items) == 6 and {i["stratum"]["app"] for i in items} == {"shop"}
    assert {i["verdict"] for i in items} == {"SUPPORTED", "NOT_ENOUGH_INFO"}
    sink.close()
