"""`groundwatch audit-corpus` end to end (tiny model: plumbing only) and the report renderings."""

import json
import re

import pytest

from groundwatch.audit.audit import AuditConfig, audit_corpus
from groundwatch.audit.html import render_html
from groundwatch.audit.report import REPORT_SCHEMA, to_dict, to_text
from groundwatch.cli import main
from tests.unit.audit_truth import CORPORA, documents, truth


@pytest.fixture(scope="module")
def mixed_report():
    return to_dict(audit_corpus(documents("mixed"), None, AuditConfig(progress=False)))


def test_json_report_is_plain_data(mixed_report):
    data = json.loads(json.dumps(mixed_report))
    assert data["schema"] == REPORT_SCHEMA
    assert set(data) == {"schema", "corpus", "score", "conflicts", "internal_contradictions", "versions", "issues"}
    assert data["corpus"]["nli"] is None and data["corpus"]["nli_pairs_scored"] == 0


def test_text_report_names_documents_sentences_and_score(mixed_report):
    text = to_text(mixed_report)
    assert text.startswith(f"corpus consistency {mixed_report['score']['score']:.3f}")
    assert "refund-policy-2023 sentence 1 [0:49], updated 2023-09-01" in text
    assert "'Refunds are available within 14 days of purchase.'" in text
    assert "newest: refund-policy" in text and "truncated" in text and "getting-started-draft" in text


def test_html_report_is_self_contained_and_escaped(mixed_report):
    page = render_html(mixed_report | {"issues": mixed_report["issues"] + [
        {"kind": "empty", "scope": "intra", "doc_ids": ["<script>x</script>"], "detail": "no text", "where": []}]})
    assert page.startswith("<!doctype html>") and "<style>" in page
    assert not re.search(r"""(?:src|href)\s*=|<script|@import|url\(""", page, re.I)
    assert "&lt;script&gt;x&lt;/script&gt;" in page
    assert "Refunds are available within 14 days of purchase." in page
    assert f"{mixed_report['score']['score']:.3f}" in page


def test_cli_writes_json_and_html_with_the_nli_path(tmp_path, tiny_onnx, capsys):
    out, page = tmp_path / "report.json", tmp_path / "report.html"
    code = main(["audit-corpus", "--input", str(CORPORA / "conflicts.jsonl"), "--output", str(out), "--html", str(page),
                 "--weights", "intra=1,inter=3", "--model", str(tiny_onnx), "--no-progress"])
    assert code == 0
    data = json.loads(out.read_text())
    assert data["corpus"]["nli"] and data["corpus"]["nli_pairs_scored"] > 0  # embeddings -> neighbours -> NLI
    assert data["corpus"]["neighbour_index"] == "exact"
    assert data["score"]["weights"] == {"intra": 0.25, "inter": 0.75}
    found = {tuple(c["doc_ids"]) for c in data["conflicts"]}
    for item in truth("conflicts")["conflicts"]:
        if item["signal"] == "value_mismatch":
            assert any(set(item["doc_ids"]) <= set(ids) for ids in found), item["id"]
    assert page.read_text().startswith("<!doctype html>")
    assert "corpus consistency" in capsys.readouterr().out


def test_cli_model_free_run_needs_no_model(tmp_path, capsys):
    code = main(["audit-corpus", "--input", str(CORPORA / "clean.jsonl"), "--no-nli", "--no-progress",
                 "--model", str(tmp_path / "missing")])
    assert code == 0 and "corpus consistency 1.000" in capsys.readouterr().out


@pytest.mark.parametrize("args, message", [
    (["--input", "x.jsonl", "--weights", "intra=x", "--no-nli"], "not a number"),
    (["--opensearch-url", "http://127.0.0.1:9", "--no-nli"], "needs --index"),
    (["--input", "does-not-exist.jsonl", "--no-nli"], "does-not-exist.jsonl"),
])
def test_cli_errors_are_named(args, message, capsys):
    assert main(["audit-corpus", *args, "--no-progress"]) == 2
    assert message in capsys.readouterr().err


def test_cli_without_a_model_suggests_no_nli(tmp_path, capsys):
    assert main(["audit-corpus", "--input", str(CORPORA / "clean.jsonl"), "--model", str(tmp_path / "none")]) == 2
    assert "--no-nli" in capsys.readouterr().err


def test_faiss_index_finds_the_same_candidates_as_exact_search(tiny_onnx):
    from groundwatch.config.scorer import ScorerConfig
    from groundwatch.scorers.pipeline import Scorer

    scorer = Scorer.from_config(ScorerConfig(model_dir=str(tiny_onnx)))
    try:
        exact = audit_corpus(documents("conflicts"), scorer, AuditConfig(progress=False))
        hnsw = audit_corpus(documents("conflicts"), scorer, AuditConfig(progress=False, exact_limit=0))
    finally:
        scorer.close()
    assert (exact.corpus["neighbour_index"], hnsw.corpus["neighbour_index"]) == ("exact", "faiss-hnsw")
    assert hnsw.corpus["candidate_pairs"] == exact.corpus["candidate_pairs"] > 0
