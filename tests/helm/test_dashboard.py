"""The Grafana dashboard only queries metrics the consumer exports, in valid PromQL."""

from __future__ import annotations

import json
import re
import subprocess

import yaml

from export.metric_names import METRIC_NAMES
from tests.helm.conftest import CHART

DASHBOARD = CHART / "dashboards" / "groundwatch.json"
HISTOGRAM_SERIES = re.compile(r"_(bucket|sum|count)$")


def _queries() -> list[tuple[str, str]]:
    panels = json.loads(DASHBOARD.read_text())["panels"]
    return [(panel["title"], target["expr"]) for panel in panels for target in panel["targets"]]


def _metrics(expr: str) -> set[str]:
    names = set(re.findall(r"\bgroundwatch_[a-z0-9_]+", expr))
    # Histograms are queried through their _bucket/_sum/_count series.
    return {HISTOGRAM_SERIES.sub("", n) if HISTOGRAM_SERIES.sub("", n) in METRIC_NAMES else n
            for n in names}


def test_every_panel_query_uses_exported_metrics_only() -> None:
    for title, expr in _queries():
        used = _metrics(expr)
        assert used, f"panel {title!r} queries no groundwatch metric"
        assert used <= METRIC_NAMES, f"panel {title!r} queries unknown {used - METRIC_NAMES}"


def test_dashboard_covers_the_headline_signals() -> None:
    used = set().union(*(_metrics(expr) for _, expr in _queries()))
    assert {"groundwatch_claims_total", "groundwatch_recall_at_k", "groundwatch_stage_seconds",
            "groundwatch_consumer_lag", "groundwatch_dead_letters_total"} <= used


def test_panel_queries_parse(promtool: str, tmp_path) -> None:
    # promtool has no offline query parser; a rule file of the queries is checked instead.
    rules = [{"record": f"dashboard:query_{i}",
              "expr": expr.replace("$__rate_interval", "5m").replace("$namespace", ".*")
                          .replace("$job", ".*")}
             for i, (_, expr) in enumerate(_queries())]
    path = tmp_path / "dashboard-queries.yaml"
    path.write_text(yaml.safe_dump({"groups": [{"name": "dashboard", "rules": rules}]}))

    result = subprocess.run([promtool, "check", "rules", str(path)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
