"""The shipped alert rules: promtool unit tests plus checks promtool cannot make."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import yaml

from groundwatch.export.metric_names import METRIC_NAMES
from tests.helm.conftest import CHART

RULES = CHART / "files" / "alerts.yaml"
RULE_TESTS = Path(__file__).with_name("alerts_test.yaml")


def _rules() -> list[dict]:
    return [rule for group in yaml.safe_load(RULES.read_text())["groups"] for rule in group["rules"]]


def _alert_cases() -> list[dict]:
    tests = yaml.safe_load(RULE_TESTS.read_text())["tests"]
    return [case for test in tests for case in test.get("alert_rule_test", [])]


def test_rule_file_is_valid(promtool: str) -> None:
    result = subprocess.run([promtool, "check", "rules", str(RULES)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_promtool_unit_tests_pass(promtool: str) -> None:
    # promtool resolves rule_files relative to the test file's directory.
    result = subprocess.run([promtool, "test", "rules", RULE_TESTS.name], cwd=RULE_TESTS.parent,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_alert_has_a_firing_and_a_silent_case() -> None:
    fired = {case["alertname"] for case in _alert_cases() if case.get("exp_alerts")}
    silent = {case["alertname"] for case in _alert_cases() if not case.get("exp_alerts")}
    alerts = {rule["alert"] for rule in _rules() if "alert" in rule}

    assert alerts - fired == set(), "alerts never shown to fire"
    assert alerts - silent == set(), "alerts never shown to stay silent"


def test_every_alert_says_what_and_what_to_do() -> None:
    for rule in (rule for rule in _rules() if "alert" in rule):
        assert rule["labels"]["severity"] in {"critical", "warning"}, rule["alert"]
        assert rule["annotations"]["summary"] and rule["annotations"]["runbook"], rule["alert"]


def test_rules_only_query_exported_metrics() -> None:
    recorded = {rule["record"] for rule in _rules() if "record" in rule}
    used = {name for rule in _rules() for name in re.findall(r"\bgroundwatch[a-z0-9_:]*", rule["expr"])}

    assert used - METRIC_NAMES - recorded == set()


def test_promql_wilson_intervals_match_the_offline_report() -> None:
    """The bounds alerts_test.yaml expects from the recording rules are reports/rates.py's wilson."""
    from groundwatch.reports.rates import wilson

    expected = {round(x, 4) for x in (*wilson(90, 100), *wilson(30, 120))}
    case = next(t for t in yaml.safe_load(RULE_TESTS.read_text())["tests"] if t["name"] == "wilson intervals from the counts")
    asserted = {s["value"] for e in case["promql_expr_test"] if "wilson" in e["expr"] for s in e["exp_samples"]}
    assert asserted == expected


def test_drop_test_runs_on_responses_and_settings_in_one_group() -> None:
    """The z statistic, the ratios it reads and the alert evaluate in order within one group."""
    group = next(g for g in yaml.safe_load(RULES.read_text())["groups"] if g["name"] == "groundwatch-ratios")
    names = [r.get("record") or r.get("alert") for r in group["rules"]]
    assert names.index("groundwatch:claim_verdict_ratio:rate1h") < names.index("groundwatch:faithfulness_drop:z") \
        < names.index("GroundwatchFaithfulnessDropping")
