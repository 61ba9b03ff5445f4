"""The dashboard's queries and the drop test against a real Prometheus holding two simulated days
(infra/simulate_ops.py: counters backfilled with promtool, the chart's recording rules backfilled
level by level)."""

from __future__ import annotations

import re
import shutil
from datetime import timedelta

import pytest

from infra.simulate_ops import INTERVAL_PANELS, VERSIONS, backfill, dashboard_queries, rule_levels

pytestmark = pytest.mark.integration

FIRING = ("groundwatch:faithfulness_drop:z > on () group_left groundwatch:alert_setting:faithfulness_drop_z "
          "and on (namespace, job, app, scorer_version) "
          "(groundwatch:responses:increase1h >= on () group_left groundwatch:alert_setting:faithfulness_drop_min_responses) "
          "and on (namespace, job, app, scorer_version) "
          "(groundwatch:responses:increase1d_offset1h >= on () group_left "
          "groundwatch:alert_setting:faithfulness_drop_min_responses)")


@pytest.fixture(scope="module")
def prometheus(tmp_path_factory):
    if not (shutil.which("prometheus") and shutil.which("promtool")):
        pytest.skip("prometheus/promtool not installed (infra/install_system.sh)")
    server, start, end = backfill(tmp_path_factory.mktemp("ops"), days=2)
    yield server, start, end
    server.stop()


def test_rule_levels_put_every_rule_after_what_it_reads():
    levels = rule_levels()
    recorded = {r["record"] for rules in levels for r in rules}
    seen: set[str] = set()
    for rules in levels:
        for rule in rules:
            assert set(re.findall(r"groundwatch:[a-z0-9_:]+", rule["expr"])) & recorded <= seen, rule["record"]
        seen |= {r["record"] for r in rules}
    assert len(levels) >= 3


def test_every_dashboard_query_runs_and_the_interval_panels_have_data(prometheus):
    server, start, end = prometheus
    for title, legend, expr in dashboard_queries():
        server.query_range(expr, start, end, 3600)  # raises on a query Prometheus refuses
    empty = [(title, legend) for title, legend, expr in dashboard_queries(INTERVAL_PANELS)
             if not server.query_range(expr, start, end, 3600)]
    assert empty == []


def test_drop_test_fires_for_the_regression_only(prometheus):
    server, start, end = prometheus
    span = end - start
    firing = server.query_range(FIRING, start, end, 900)
    assert {(r["metric"]["app"], r["metric"]["scorer_version"]) for r in firing} == {("shop", VERSIONS[1])}
    times = [float(ts) for r in firing for ts, _ in r["values"]]
    bad_from, bad_to = start + span * 0.75, start + span * 0.80
    # only while the regression is inside the last hour, never around the version change at 50%
    assert all(bad_from.timestamp() < t <= (bad_to + timedelta(hours=1)).timestamp() for t in times)


def test_wilson_band_contains_the_rate(prometheus):
    server, start, end = prometheus
    rows = {}
    for name in ("rate1h", "wilson_lower1h", "wilson_upper1h"):
        for r in server.query_range(f'groundwatch:claim_verdict_ratio:{name}{{verdict="SUPPORTED",app="help"}}',
                                    start, end, 3600):
            for ts, v in r["values"]:
                rows.setdefault((r["metric"]["scorer_version"], ts), {})[name] = float(v)
    full = [v for v in rows.values() if len(v) == 3]
    assert full and all(v["wilson_lower1h"] < v["rate1h"] < v["wilson_upper1h"] for v in full)
    widths = [v["wilson_upper1h"] - v["wilson_lower1h"] for v in full]
    assert 0.01 < min(widths) and max(widths) < 0.2  # about 300 claims an hour for help
