"""The new signals in `explain` (and so `trace`) and in the report: off_topic, stale_evidence,
retrieval_miss and unsupported_by_corpus."""

from __future__ import annotations

from groundwatch.reports.data import build_report
from groundwatch.reports.explain import render
from groundwatch.reports.html import render_html
from groundwatch.scorers.records import StaleEvidence, Verdict
from tests.unit.verdicts import claim, verdict


def _record():
    v = verdict([claim(0, Verdict.SUPPORTED, text="Refunds are available within 30 days."),
                 claim(1, Verdict.NOT_ENOUGH_INFO, text="Support answers within 60 minutes."),
                 claim(2, Verdict.NOT_ENOUGH_INFO, text="Every order comes with a chauffeur.")])
    v.relevance = {"similarity": 0.07, "threshold": 0.19, "off_topic": True}
    v.flags += ["off_topic", "stale_evidence", "retrieval_miss", "unsupported_by_corpus"]
    v.stale_evidence = [StaleEvidence(0, "refund | available within purchase", "p1", "2025-01-10", "30 days",
                                      "kb-9", "2026-02-01", "14 days", "corpus")]
    v.claims[1].corpus = {"outcome": "retrieval_miss", "reason": "SUPPORTED", "index": "kb",
                          "evidence_ids": ["kb-7"], "entailment": 0.97, "contradiction": 0.01}
    v.claims[2].corpus = {"outcome": "unsupported_by_corpus", "reason": "NOT_ENOUGH_INFO", "index": "kb",
                          "evidence_ids": ["kb-1", "kb-2"], "entailment": 0.04, "contradiction": 0.02}
    return v.to_dict()


def test_explain_names_every_signal():
    text = render(_record())
    assert "answer relevance to the question 0.07 (threshold 0.19): OFF TOPIC" in text
    assert "knowledge base 'kb': RETRIEVAL MISS - supported by kb-7 (entail 0.97)" in text
    assert "knowledge base 'kb': not supported there either (best entail 0.04; looked at kb-1, kb-2)" in text
    assert ("stale evidence for claim 1: supported by p1 (updated 2025-01-10: '30 days'), but kb-9 "
            "(knowledge base, updated 2026-02-01) says '14 days'") in text


def test_explain_without_signals_is_unchanged_by_them():
    record = verdict([claim(0, Verdict.SUPPORTED)]).to_dict()
    text = render(record)
    assert "relevance" not in text and "knowledge base" not in text and "stale" not in text


def test_report_counts_the_signals():
    other = verdict([claim(0, Verdict.SUPPORTED)], request_id="req-2").to_dict()
    report = build_report([_record(), other])
    assert report.signals == {"off_topic": {"count": 1, "of": 1}, "stale_evidence": {"count": 1, "of": 2},
                              "retrieval_miss": {"count": 1, "of": 2}, "unsupported_by_corpus": {"count": 1, "of": 2}}
    assert report.to_dict()["signals"] == report.signals
    html = render_html(report)
    assert '<table id="signals">' in html and '<tr data-signal="retrieval_miss"><td>Retrieval misses</td><td>1 / 2' in html
