"""The model-free audit on the constructed corpora, against their ground truth.

Value mismatches, superseded versions, damaged documents and the score do
not need the NLI model, so these run everywhere; the NLI-only conflicts are
in test_audit_shipped_model.py.
"""

import pytest

from groundwatch.audit.audit import AuditConfig, audit_corpus
from tests.unit.audit_truth import documents, issue_found, matching_conflict, truth

CONFIG = AuditConfig(progress=False, chunk_size=7)  # small chunks: the streaming path is exercised


@pytest.fixture(scope="module")
def reports():
    return {name: audit_corpus(documents(name), None, CONFIG) for name in ("clean", "conflicts", "degraded", "mixed")}


def test_clean_corpus_has_nothing_to_report(reports):
    report = reports["clean"]
    assert report.conflicts == [] and report.internal_contradictions == []
    assert report.versions == [] and report.issues == []
    assert report.score.score == 1.0 and report.score.lowered_by == []
    assert report.corpus["documents"] == truth("clean")["documents"] == 20


@pytest.mark.parametrize("corpus", ["conflicts", "mixed"])
def test_injected_value_conflicts_are_found_with_provenance(reports, corpus):
    report = reports[corpus]
    expected = [c for c in truth(corpus)["conflicts"] if c["signal"] == "value_mismatch"]
    assert expected
    for item in expected:
        conflict = matching_conflict(report.conflicts, item)
        assert conflict is not None, item["id"]
        assert set(item["doc_ids"]) <= set(conflict.doc_ids)
        assert "value_mismatch" in conflict.signals
        for doc_id, sentence in item["sentences"].items():
            ref = next(s for s in conflict.statements if s["doc_id"] == doc_id and s["text"] == sentence)
            assert ref["offsets"][1] - ref["offsets"][0] == len(sentence)
            assert ref["title"] and ref["updated_at"] and "values" in ref


@pytest.mark.parametrize("corpus", ["conflicts", "mixed"])
def test_no_value_conflict_beyond_the_injected_ones(reports, corpus):
    expected = [c for c in truth(corpus)["conflicts"] if c["signal"] == "value_mismatch"]
    matched = {id(matching_conflict(reports[corpus].conflicts, item)) for item in expected}
    assert {id(c) for c in reports[corpus].conflicts} == matched


def test_provenance_offsets_point_at_the_sentence(reports):
    docs = {d.doc_id: d.text for d in documents("conflicts")}
    for conflict in reports["conflicts"].conflicts:
        for s in conflict.statements:
            start, end = s["offsets"]
            assert docs[s["doc_id"]][start:end] == s["text"]


@pytest.mark.parametrize("corpus", ["conflicts", "mixed"])
def test_superseded_versions_found_and_ordered_by_date(reports, corpus):
    families = reports[corpus].versions
    expected = truth(corpus)["superseded"]
    assert len(families) == len(expected)
    for item in expected:
        family = next(f for f in families if f.current == item["newer"])
        assert family.superseded == item["older"]
        assert family.changed_values  # the copies differ in at least one value
    for conflict in reports[corpus].conflicts:
        older = [d for f in families for d in f.superseded if d in conflict.doc_ids]
        assert conflict.superseded == older


def test_newer_copy_supersedes_the_original(reports):
    family = next(f for f in reports["conflicts"].versions if "data-retention" in
                  [d["doc_id"] for d in f.documents])
    assert family.current == "data-retention-update" and family.superseded == ["data-retention"]
    assert family.changed_values == [{"key": "deleted note | stay trash",
                                      "values": {"data-retention-update": "60 days", "data-retention": "30 days"}}]


@pytest.mark.parametrize("corpus", ["degraded", "mixed"])
def test_degraded_documents_found(reports, corpus):
    expected = truth(corpus)["degraded"]
    assert expected
    for item in expected:
        assert issue_found(reports[corpus].issues, item), item
    assert len(reports[corpus].issues) == len(expected)


def test_truncated_issue_shows_where_it_stops(reports):
    issue = next(i for i in reports["degraded"].issues if i.kind == "truncated")
    assert issue.where[0]["text"].endswith("keep them on the")


def test_score_orders_the_corpora(reports):
    score = {name: r.score.score for name, r in reports.items()}
    assert score["clean"] == 1.0 > score["mixed"]
    assert score["clean"] > score["conflicts"] and score["clean"] > score["degraded"]
    assert reports["degraded"].score.parts["intra"] < reports["degraded"].score.parts["inter"]
    assert reports["conflicts"].score.parts["inter"] < reports["conflicts"].score.parts["intra"] == 1.0


def test_score_says_what_lowered_it(reports):
    s = reports["mixed"].score
    assert sum(item["lost_score"] for item in s.lowered_by) == pytest.approx(1.0 - s.score, abs=1e-3)
    reasons = {item["reason"] for item in s.lowered_by}
    assert {"conflict", "superseded_version", "empty", "truncated", "duplicate_paragraph:intra"} <= reasons
    empty = next(item for item in s.lowered_by if item["reason"] == "empty")
    assert empty["documents"] == ["getting-started-draft"]
