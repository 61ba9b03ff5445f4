"""The Grafana dashboard only queries metrics the consumer exports, in valid PromQL."""

from __future__ import annotations

import json
import re
import subprocess

import yaml

from groundwatch.export.metric_names import METRIC_NAMES
from tests.helm.conftest import CHART

DASHBOARD = CHART / "dashboards" / "groundwatch.json"
RULES = CHART / "files" / "alerts.yaml"
HISTOGRAM_SERIES = re.compile(r"_(bucket|sum|count)$")


def _recorded() -> set[str]:
    """Series the chart's recording rules (files/alerts.yaml) define; panels may query them."""
    return {rule["record"] for group in yaml.safe_load(RULES.read_text())["groups"] for rule in group["rules"]
            if "record" in rule}


def _queries() -> list[tuple[str, str]]:
    panels = json.loads(DASHBOARD.read_text())["panels"]
    return [(panel["title"], target["expr"]) for panel in panels for target in panel["targets"]]


def _metrics(expr: str) -> set[str]:
    names = set(re.findall(r"\bgroundwatch[_:][a-z0-9_:]+", expr))
    # Histograms are queried through their _bucket/_sum/_count series.
    return {HISTOGRAM_SERIES.sub("", n) if HISTOGRAM_SERIES.sub("", n) in METRIC_NAMES else n
            for n in names}


def test_every_panel_query_uses_exported_metrics_only() -> None:
    for title, expr in _queries():
        used = _metrics(expr)
        assert used, f"panel {title!r} queries no groundwatch metric"
        assert used <= METRIC_NAMES | _recorded(), f"panel {title!r} queries unknown {used - METRIC_NAMES - _recorded()}"


def test_dashboard_covers_the_headline_signals() -> None:
    used = set().union(*(_metrics(expr) for _, expr in _queries()))
    assert {"groundwatch_claims_total", "groundwatch_recall_at_k", "groundwatch_stage_seconds",
            "groundwatch_consumer_lag", "groundwatch_dead_letters_total"} <= used


def test_panel_queries_parse(promtool: str, tmp_path) -> None:
    # promtool has no offline query parser; a rule file of the queries is checked instead.
    rules = [{"record": f"dashboard:query_{i}",
              "expr": expr.replace("$__rate_interval", "5m").replace("$namespace", ".*")
                          .replace("$job", ".*").replace("$app", ".*").replace("$scorer_version", ".*")}
             for i, (_, expr) in enumerate(_queries())]
    path = tmp_path / "dashboard-queries.yaml"
    path.write_text(yaml.safe_dump({"groups": [{"name": "dashboard", "rules": rules}]}))

    result = subprocess.run([promtool, "check", "rules", str(path)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_dashboard_has_the_interval_panels_and_app_filters() -> None:
    dashboard = json.loads(DASHBOARD.read_text())
    variables = {v["name"] for v in dashboard["templating"]["list"]}
    assert {"app", "scorer_version"} <= variables
    queries = "\n".join(expr for _, expr in _queries())
    for verdict in ("SUPPORTED", "CONTRADICTED", "NOT_ENOUGH_INFO"):
        for series in ("rate1h", "wilson_lower1h", "wilson_upper1h"):
            assert f'groundwatch:claim_verdict_ratio:{series}{{' in queries and f'verdict="{verdict}"' in queries
    for series in ("ratio1h", "wilson_lower1h", "wilson_upper1h"):
        assert f"groundwatch:unsupported_answer_share:{series}" in queries
    titles = {title for title, _ in _queries()}
    assert "Retriever recall@k and verifier faithfulness" in titles
    combined = [expr for title, expr in _queries() if title == "Retriever recall@k and verifier faithfulness"]
    assert any("groundwatch_recall_at_k" in e for e in combined) and any('verdict="SUPPORTED"' in e for e in combined)


def test_dashboard_satisfies_grafanas_published_schema(tmp_path) -> None:
    from tests.helm.grafana_schema import check_dashboard

    result = check_dashboard(DASHBOARD.read_text(), tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr


def test_schema_check_refuses_an_unknown_key_and_a_wrong_type(tmp_path) -> None:
    from tests.helm.grafana_schema import check_dashboard

    unknown_key = json.loads(DASHBOARD.read_text())
    unknown_key["panels"][0]["gridPosition"] = unknown_key["panels"][0].pop("gridPos")
    wrong_type = json.loads(DASHBOARD.read_text())
    wrong_type["refresh"] = 60
    for broken, word in ((unknown_key, "gridPosition"), (wrong_type, "number")):
        result = check_dashboard(json.dumps(broken, indent=2), tmp_path)
        assert result.returncode != 0 and word in result.stdout, result.stdout
