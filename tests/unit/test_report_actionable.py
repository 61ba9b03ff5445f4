"""What a report gives a person to act on: rates per app and per tenant, the policy's actions by rule,
passages with their titles, and the worst responses with their claims and passages; explain shows the
action and the rule that chose it. Actions come from the real ActionPolicy with the default rules."""

from __future__ import annotations

import json

import pytest

from groundwatch.cli import main
from groundwatch.reports.data import build_report
from groundwatch.reports.explain import render
from groundwatch.reports.html import render_html
from groundwatch.reports.summary import report_text
from groundwatch.scorers.verdicts.policy import ActionPolicy
from groundwatch.scorers.records import Evidence, Verdict
from tests.unit.verdicts import claim, verdict

POLICY = ActionPolicy()
TITLES = {"p1": "Refund policy", "p2": "Shipping"}


def _record(request_id, verdicts, app="shop", tenant="acme", severity="normal"):
    claims = [claim(i, v, severity=severity, text=f"Claim {i} of {request_id}.") for i, v in enumerate(verdicts)]
    v = verdict(claims, request_id=request_id, metadata={"app": app, "tenant": tenant} if tenant else {"app": app})
    v.action = POLICY.decide(v)
    record = v.to_dict()
    for p in record["passages"]:
        p["title"], p["doc_id"] = TITLES[p["id"]], f"doc-{p['id']}"
    return record


S, C, N = Verdict.SUPPORTED, Verdict.CONTRADICTED, Verdict.NOT_ENOUGH_INFO


@pytest.fixture
def records():
    return [_record("ok-1", [S, S]), _record("ok-2", [S]), _record("nei-1", [S, N]),
            _record("bad-high", [C, S], severity="high"),
            _record("bank-1", [S, S], app="bank", tenant="north"), _record("bank-2", [N], app="bank", tenant="north")]


def test_rates_per_app_and_tenant(records):
    report = build_report(records)
    assert list(report.apps) == ["shop", "bank"]  # most responses first
    assert report.apps["shop"]["responses"] == 4 and report.apps["bank"]["responses"] == 2
    bank = report.apps["bank"]["rates"]["faithfulness"]
    assert (bank.successes, bank.n) == (2, 3)
    assert report.apps["shop"]["rates"]["responses_with_unsupported"].successes == 2
    assert set(report.tenants) == {"acme", "north"}
    untagged = build_report([_record("x", [S], tenant=None)])
    assert untagged.tenants == {} and list(untagged.apps) == ["shop"]


def test_policy_actions_counted_by_rule(records):
    actions = build_report(records).to_dict()["actions"]
    expected = {}
    for r in records:
        slot = expected.setdefault(r["action"]["action"], {})
        slot[r["action"]["rule"]] = slot.get(r["action"]["rule"], 0) + 1
    assert {a: d["rules"] for a, d in actions.items()} == expected
    assert sum(d["responses"] for d in actions.values()) == len(records)
    assert build_report([{**records[0], "action": None}]).actions == {}  # scored without a policy


def test_worst_responses_name_claims_and_passages(records):
    worst = build_report(records, worst=2).worst
    assert len(worst) == 2 and worst[0]["request_id"] == "bad-high"  # the strongest action first
    assert {w["request_id"] for w in build_report(records).worst} == {"bad-high", "nei-1", "bank-2"}
    first = worst[0]
    assert first["action"] == records[3]["action"]["action"] and first["rule"] == records[3]["action"]["rule"]
    [failed] = first["claims"]
    assert failed["verdict"] == "CONTRADICTED" and failed["text"] == "Claim 0 of bad-high."
    # The premise that decided CONTRADICTED is the one with the highest contradiction: p1 alone.
    assert failed["passages"] == [{"passage_id": "p1", "title": "Refund policy", "doc_id": "doc-p1"}]
    text = report_text(build_report(records))
    assert "worst responses" in text and "bad-high" in text and "passage p1 'Refund policy' (doc-p1)" in text
    assert "policy actions" in text and "\nbank " in text


def test_passages_keep_their_titles_and_per_response_ids_apart(records):
    other = _record("elsewhere", [N])
    other["passages"][0]["title"], other["passages"][0]["doc_id"] = "Pricing", "doc-pricing"  # another "p1"
    top = build_report(records + [other]).top_passages
    p1 = {(p["passage_id"], p["title"]): p["unsupported_claims"] for p in top if p["passage_id"] == "p1"}
    assert p1 == {("p1", "Refund policy"): 3, ("p1", "Pricing"): 1}


def test_html_shows_apps_actions_and_worst_without_claim_text(records):
    page = render_html(build_report(records))
    assert 'id="by-app"' in page and 'id="actions"' in page and 'id="worst"' in page and "bad-high" in page
    assert "Claim 0 of bad-high." not in page  # claim text stays in explain


def test_explain_shows_the_action_and_its_rule(records):
    record = records[3]
    text = render(record)
    assert f"action: {record['action']['action']} (rule {record['action']['rule']})" in text
    assert "action:" not in render({**record, "action": None})


def test_report_command_json_and_tables(records, tmp_path, capsys):
    source = tmp_path / "verdicts.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert main(["report", "-i", str(source), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["worst_responses"][0]["request_id"] == "bad-high" and set(data["apps"]) == {"shop", "bank"}
    assert main(["report", "-i", str(source), "--app", "bank", "-o", str(tmp_path / "r.json")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("2 responses") and json.loads((tmp_path / "r.json").read_text())["responses"] == 2
    assert main(["report", "-i", str(source), "--generator", "no-such-model"]) == 2  # nothing matched
