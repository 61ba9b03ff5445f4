"""groundwatch label: a stratified, least-confident-first sample; reviewed labels back as labelled JSONL."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from groundwatch.evaluation.dataset import read_labelled
from groundwatch.cli import main
from groundwatch.reports.review import confidence, sample, to_labelled
from groundwatch.reports.review_form import render_form


def _record(rid: str, app: str, claims: list[tuple[str, str, float, float]]) -> dict:
    return {"request_id": rid, "scorer_version": "0.1.0+abc", "model": "onnx@x", "scored_at": "2026-01-01T00:00:00+00:00",
            "timestamp": "2026-01-01T00:00:00+00:00", "metadata": {"app": app},
            "passages": [{"id": "p1", "text": "Refunds are accepted within 30 days. Shipping is free."}],
            "claims": [{"index": i, "text": f"{rid} claim {i}", "verdict": v, "severity": sev, "entailment": e,
                        "contradiction": c,
                        "evidence_sentences": [{"passage_id": "p1", "start": 0, "end": 36,
                                                "text": "Refunds are accepted within 30 days."}]}
                       for i, (v, sev, e, c) in enumerate(claims)]}


def _records() -> list[dict]:
    out = [_record(f"s{i}", "shop", [("SUPPORTED", "normal", 0.5 + i / 100, 0.01)]) for i in range(40)]
    out.append(_record("c0", "shop", [("CONTRADICTED", "high", 0.0, 0.95)]))
    out.append(_record("n0", "help", [("NOT_ENOUGH_INFO", "normal", 0.4, 0.1), ("SKIPPED", "normal", 0, 0)]))
    return out


def test_sample_reaches_every_stratum_and_takes_the_least_confident_first():
    items = sample(_records(), 5)
    strata = Counter((i["stratum"]["verdict"], i["stratum"]["severity"], i["stratum"]["app"]) for i in items)
    assert strata == {("SUPPORTED", "normal", "shop"): 3, ("CONTRADICTED", "high", "shop"): 1,
                      ("NOT_ENOUGH_INFO", "normal", "help"): 1}
    supported = [i["confidence"] for i in items if i["verdict"] == "SUPPORTED"]
    assert supported == [0.5, 0.51, 0.52]  # lowest entailment first
    assert all(i["verdict"] != "SKIPPED" for i in sample(_records(), 100))
    item = items[0]
    assert item["evidence_sentences"][0]["text"] == "Refunds are accepted within 30 days."
    assert item["passages"][0]["id"] == "p1" and item["label"] is None


def test_confidence_follows_the_verdict():
    assert confidence({"verdict": "SUPPORTED", "entailment": 0.8, "contradiction": 0.1}) == 0.8
    assert confidence({"verdict": "CONTRADICTED", "entailment": 0.1, "contradiction": 0.7}) == 0.7
    assert confidence({"verdict": "NOT_ENOUGH_INFO", "entailment": 0.6, "contradiction": 0.1}) == pytest.approx(0.4)


def test_reviewed_items_become_labelled_records_evaluation_reads(tmp_path):
    items = sample(_records(), 4)
    for item, label in zip(items, ["supported", "contradicted", "skip", None]):
        item["label"] = label
    imported = to_labelled(items)
    assert (len(imported.labelled), imported.skipped, imported.unlabelled) == (2, 1, 1)
    path = tmp_path / "labelled.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in imported.labelled))
    labelled = read_labelled(path)
    assert [x.unsupported for x in labelled] == [False, True]
    assert labelled[1].label_3way == "contradicted" and labelled[0].set_name == "review"
    assert labelled[0].response.answer == items[0]["claim"] and labelled[0].response.passages[0].id == "p1"
    with pytest.raises(ValueError, match="label 'maybe'"):
        to_labelled([dict(items[0], label="maybe")])


def test_form_escapes_text_and_embeds_the_items():
    items = sample([_record("x</script><b>", "shop", [("SUPPORTED", "normal", 0.9, 0.0)])], 1)
    page = render_form(items)
    assert "</script><b>" not in page.split('<script type="application/json"')[0]
    assert page.count("</script>") == 2  # the data block cannot close itself early
    assert 'name="label-0" value="not_enough_info"' in page and "<mark>Refunds are accepted within 30 days.</mark>" in page


def test_cli_export_then_import(tmp_path, capsys):
    verdicts = tmp_path / "verdicts.jsonl"
    verdicts.write_text("".join(json.dumps(r) + "\n" for r in _records()))
    review = tmp_path / "review" / "sample.jsonl"
    assert main(["label", "export", "--verdicts", str(verdicts), "--size", "6", "--app", "shop", "--out", str(review)]) == 0
    assert "6 claims from 41 verdicts in 2 strata" in capsys.readouterr().out
    assert review.with_suffix(".html").read_text().startswith("<!doctype html>")
    lines = [json.loads(x) for x in review.read_text().splitlines()]
    reviewed = tmp_path / "reviewed.jsonl"
    reviewed.write_text("".join(json.dumps(dict(x, label="supported")) + "\n" for x in lines))
    out = tmp_path / "labelled.jsonl"
    assert main(["label", "import", str(reviewed), "--out", str(out)]) == 0
    assert len(read_labelled(out)) == 6
    assert main(["label", "import", str(review), "--out", str(out)]) == 2  # nothing labelled yet
