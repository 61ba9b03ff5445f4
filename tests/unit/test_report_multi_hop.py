"""The report's multi_hop category: supported claims entailed only by two chunks joined."""

from __future__ import annotations

from reports.data import build_report
from reports.html import render_html


def _record(rid: str, claims: list[tuple[str, list[str]]]) -> dict:
    return {"request_id": rid, "scorer_version": "v", "model": "m", "scored_at": "2026-01-01T00:00:00+00:00",
            "timestamp": "2026-01-01T00:00:00+00:00", "metadata": {"app": "shop"}, "passages": [],
            "response": {"all_supported": True},
            "claims": [{"index": i, "text": "x", "verdict": v, "severity": "normal", "flags": flags,
                        "entailment": 0.9, "contradiction": 0.0, "evidence": []} for i, (v, flags) in enumerate(claims)]}


def test_multi_hop_share_of_supported_claims_in_report_and_html():
    records = [_record("a", [("SUPPORTED", ["multi_hop"]), ("SUPPORTED", [])]),
               _record("b", [("SUPPORTED", []), ("NOT_ENOUGH_INFO", []), ("SKIPPED", [])]),
               _record("c", [("SUPPORTED", ["multi_hop"])])]
    report = build_report(records)
    assert (report.multi_hop.successes, report.multi_hop.n) == (2, 4)
    assert report.to_dict()["multi_hop"]["estimate"] == 0.5
    assert "Multi-hop: 2 of 4 supported claims" in render_html(report)
