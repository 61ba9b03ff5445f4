"""A week of simulated traffic in a real Prometheus, for the README's operations section and a test.

  python -m infra.simulate_ops --days 7 --out build/ops-week [--images docs/img]

1. Counters as the job exports them (groundwatch_claims_total by verdict, severity, app and
   scorer_version; groundwatch_responses_total; the probe's recall@5), every 5 minutes, written as
   OpenMetrics and backfilled with `promtool tsdb create-blocks-from openmetrics`. Two apps: shop
   (about 480 answers an hour) and help (about 120, under the drop test's 200). At 50% of the span
   a new scorer version (stricter thresholds) replaces the old one for both; from 75% to 80% shop
   regresses (its retriever's recall falls, fewer claims are supported).
2. The chart's recording rules (helm/groundwatch/files/alerts.yaml) backfilled over the span with
   `promtool tsdb create-blocks-from rules`, one dependency level at a time (a rule reading another
   rule's series needs that series stored first), Prometheus restarted on the new blocks each time.
3. Every query of the dashboard's interval panels run against that Prometheus (query_range), and
   with --images the panels drawn with reports/svg_charts.py and screenshotted to PNG in headless
   Chromium.

Deterministic for a seed. Needs prometheus and promtool (infra/install_system.sh).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import subprocess
import time
import urllib.parse
import urllib.request
from datetime import datetime, timedelta, timezone
from pathlib import Path

import yaml

from infra.server import HOST, Server, free_port
from infra.stack import prometheus_binary

REPO = Path(__file__).resolve().parents[1]
RULES = REPO / "helm" / "groundwatch" / "files" / "alerts.yaml"
DASHBOARD = REPO / "helm" / "groundwatch" / "dashboards" / "groundwatch.json"
END = datetime(2026, 3, 9, tzinfo=timezone.utc)
STEP_S = 300
VERSIONS = ("0.1.0+5c1f0a9e2d", "0.1.0+b73e04c611")
APPS = {"shop": 40, "help": 10}  # answers per 5 minutes
# P(SUPPORTED), P(CONTRADICTED); the rest NOT_ENOUGH_INFO. The new version is stricter.
SHARES = {VERSIONS[0]: (0.93, 0.02), VERSIONS[1]: (0.90, 0.02)}
REGRESSED = (0.80, 0.05)
LABELS = 'namespace="rag",job="groundwatch"'
VERDICTS = ("SUPPORTED", "CONTRADICTED", "NOT_ENOUGH_INFO", "SKIPPED")


def simulate(days: float, seed: int = 7) -> tuple[datetime, datetime, str]:
    """(start, end, OpenMetrics text) of `days` of traffic ending at END."""
    rng = random.Random(seed)
    steps = int(days * 86400 / STEP_S)
    start = END - timedelta(seconds=steps * STEP_S)
    switch, bad_from, bad_to = int(steps * 0.5), int(steps * 0.75), int(steps * 0.80)
    claims: dict[tuple, list[tuple[int, float]]] = {}
    responses: dict[tuple, list[tuple[int, float]]] = {}
    recall: list[tuple[int, float]] = []
    totals: dict[tuple, float] = {}
    for step in range(steps + 1):
        ts = int(start.timestamp()) + step * STEP_S
        version = VERSIONS[0] if step < switch else VERSIONS[1]
        bad = bad_from <= step < bad_to
        recall.append((ts, round(0.72 + rng.uniform(-0.01, 0.01), 4) if bad else round(0.86 + rng.uniform(-0.01, 0.01), 4)))
        for app, rate in APPS.items():
            supported, contradicted = REGRESSED if bad and app == "shop" else SHARES[version]
            n = max(0, int(rng.gauss(rate, rate ** 0.5)))
            step_claims: dict[tuple, int] = {}
            step_responses = {"all_supported": 0, "has_unsupported": 0}
            for _ in range(n):
                unsupported = False
                for _ in range(rng.choice((1, 2, 2, 3, 3, 4))):
                    u = rng.random()
                    verdict = ("SUPPORTED" if u < supported else "CONTRADICTED" if u < supported + contradicted
                               else "NOT_ENOUGH_INFO")
                    unsupported |= verdict != "SUPPORTED"
                    key = (verdict, "high" if rng.random() < 0.3 else "normal")
                    step_claims[key] = step_claims.get(key, 0) + 1
                if rng.random() < 0.2:
                    step_claims[("SKIPPED", "normal")] = step_claims.get(("SKIPPED", "normal"), 0) + 1
                step_responses["has_unsupported" if unsupported else "all_supported"] += 1
            for verdict in VERDICTS:
                for severity in ("high", "normal"):
                    key = ("claims", app, version, verdict, severity)
                    totals[key] = totals.get(key, 0.0) + step_claims.get((verdict, severity), 0)
                    claims.setdefault(key[1:], []).append((ts, totals[key]))
            for verdict, count in step_responses.items():
                key = ("responses", app, version, verdict)
                totals[key] = totals.get(key, 0.0) + count
                responses.setdefault(key[1:], []).append((ts, totals[key]))
    lines = ["# HELP groundwatch_claims Claims, by verdict and severity.", "# TYPE groundwatch_claims counter"]
    for (app, version, verdict, severity), samples in sorted(claims.items()):
        series = (f'groundwatch_claims_total{{{LABELS},app="{app}",scorer_version="{version}",verdict="{verdict}",'
                  f'severity="{severity}"}}')
        lines += [f"{series} {value:.0f} {ts}" for ts, value in samples]
    lines += ["# HELP groundwatch_responses Responses scored.", "# TYPE groundwatch_responses counter"]
    for (app, version, verdict), samples in sorted(responses.items()):
        series = f'groundwatch_responses_total{{{LABELS},app="{app}",scorer_version="{version}",verdict="{verdict}"}}'
        lines += [f"{series} {value:.0f} {ts}" for ts, value in samples]
    lines += ["# HELP groundwatch_recall_at_k Share of gold passages among the first k retrieved.",
              "# TYPE groundwatch_recall_at_k gauge"]
    lines += [f'groundwatch_recall_at_k{{{LABELS},k="5",source="probe"}} {value} {ts}' for ts, value in recall]
    return start, END, "\n".join(lines) + "\n# EOF\n"


def rule_levels(rules_path: Path = RULES) -> list[list[dict]]:
    """The recording rules in dependency order: level 0 reads only exported series."""
    records = [r for g in yaml.safe_load(rules_path.read_text())["groups"] for r in g["rules"] if "record" in r]
    names = {r["record"] for r in records}
    level: dict[str, int] = {}
    while len(level) < len(records):
        for rule in records:
            deps = set(re.findall(r"groundwatch:[a-z0-9_:]+", rule["expr"])) & names
            if rule["record"] not in level and deps <= set(level):
                level[rule["record"]] = 1 + max((level[d] for d in deps), default=-1)
    out: list[list[dict]] = [[] for _ in range(max(level.values()) + 1)]
    for rule in records:
        out[level[rule["record"]]].append(rule)
    return out


class Backfilled:
    """A Prometheus on a data directory that blocks are added to between restarts."""

    def __init__(self, workdir: Path):
        self.workdir = workdir
        self.data = workdir / "data"
        self.data.mkdir(parents=True, exist_ok=True)
        (workdir / "prometheus.yml").write_text(json.dumps({"global": {"scrape_interval": "1m"}}))
        self.server: Server | None = None

    def start(self) -> "Backfilled":
        port = free_port()
        self.server = Server(
            name="prometheus",
            argv=[str(prometheus_binary()), f"--config.file={self.workdir / 'prometheus.yml'}",
                  f"--storage.tsdb.path={self.data}", "--storage.tsdb.retention.time=100y",
                  f"--web.listen-address={HOST}:{port}", "--query.lookback-delta=10m"],
            port=port, log_path=self.workdir / "prometheus.log",
            ready=lambda s: urllib.request.urlopen(s.url + "/-/ready", timeout=2).status == 200).start()
        return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()
            self.server = None

    def add_blocks(self, blocks: Path) -> None:
        for block in blocks.iterdir():
            if block.is_dir():
                shutil.move(str(block), self.data / block.name)

    @property
    def url(self) -> str:
        assert self.server is not None
        return self.server.url

    def query_range(self, expr: str, start: datetime, end: datetime, step_s: int) -> list[dict]:
        params = urllib.parse.urlencode({"query": expr, "start": start.timestamp(), "end": end.timestamp(),
                                         "step": step_s})
        with urllib.request.urlopen(f"{self.url}/api/v1/query_range?{params}", timeout=60) as response:
            body = json.loads(response.read())
        if body.get("status") != "success":
            raise RuntimeError(f"query failed: {expr}: {body}")
        return body["data"]["result"]


def backfill(workdir: Path, days: float, seed: int = 7) -> tuple[Backfilled, datetime, datetime]:
    """Raw counters and every recording rule over the span, in a started Prometheus."""
    promtool = shutil.which("promtool") or "/usr/bin/promtool"
    workdir.mkdir(parents=True, exist_ok=True)
    start, end, text = simulate(days, seed)
    source = workdir / "counters.om"
    source.write_text(text)
    blocks = workdir / "blocks"
    shutil.rmtree(blocks, ignore_errors=True)
    subprocess.run([promtool, "tsdb", "create-blocks-from", "openmetrics", "--max-block-duration=24h",
                    str(source), str(blocks)], check=True, capture_output=True, text=True)
    prometheus = Backfilled(workdir)
    prometheus.add_blocks(blocks)
    prometheus.start()
    for i, rules in enumerate(rule_levels()):
        path = workdir / f"rules-level{i}.yaml"
        path.write_text(yaml.safe_dump({"groups": [{"name": f"level{i}", "rules": rules}]}, sort_keys=False))
        out = workdir / f"rule-blocks-{i}"
        shutil.rmtree(out, ignore_errors=True)
        result = subprocess.run([promtool, "tsdb", "create-blocks-from", "rules", f"--url={prometheus.url}",
                                 f"--start={int(start.timestamp())}", f"--end={int(end.timestamp())}",
                                 "--eval-interval=5m", f"--output-dir={out}", str(path)],
                                capture_output=True, text=True)
        if result.returncode != 0:
            raise RuntimeError(f"rule backfill level {i}: {result.stdout}{result.stderr}")
        prometheus.stop()
        prometheus.add_blocks(out)
        prometheus.start()
    return prometheus, start, end


def dashboard_queries(panel_ids: set[int] | None = None) -> list[tuple[str, str, str]]:
    """(panel title, legend, expr) of the dashboard, variables set to match everything."""
    out = []
    for panel in json.loads(DASHBOARD.read_text())["panels"]:
        if panel_ids is not None and panel["id"] not in panel_ids:
            continue
        for target in panel["targets"]:
            expr = target["expr"]
            for var, value in (("$__rate_interval", "5m"), ("$namespace", ".*"), ("$job", ".*"),
                               ("$app", ".*"), ("$scorer_version", ".*")):
                expr = expr.replace(var, value)
            out.append((panel["title"], target.get("legendFormat", ""), expr))
    return out


INTERVAL_PANELS = {13, 14, 15, 16, 17, 18, 19}


def _labels(at: list[datetime]) -> list[str]:
    return [t.strftime("%a %H:%M") for t in at]


def _series(result: list[dict], match: dict, at: list[datetime]) -> list[float | None]:
    values: dict[int, float] = {}
    for row in result:
        if all(row["metric"].get(k) == v for k, v in match.items()):
            for ts, value in row["values"]:
                if value not in ("NaN", "+Inf", "-Inf"):
                    values[int(float(ts))] = float(value)
    return [values.get(int(t.timestamp())) for t in at]


def render_images(prometheus: Backfilled, start: datetime, end: datetime, out: Path, step_s: int = 3600) -> list[Path]:
    """The new panels over the span, as SVG (reports/svg_charts.py) screenshotted to PNG."""
    from groundwatch.reports.svg_charts import lines_chart, rate_chart

    at = [start + timedelta(seconds=step_s * i) for i in range(int((end - start).total_seconds() // step_s) + 1)]
    labels = _labels(at)
    q = lambda expr: prometheus.query_range(expr, start, end, step_s)  # noqa: E731
    charts: dict[str, str] = {}
    for app in APPS:
        points = []
        ratio = q(f'sum without (scorer_version) (groundwatch:claim_verdict_ratio:rate1h{{app="{app}",verdict="SUPPORTED"}})')
        lower = q(f'sum without (scorer_version) (groundwatch:claim_verdict_ratio:wilson_lower1h{{app="{app}",verdict="SUPPORTED"}})')
        upper = q(f'sum without (scorer_version) (groundwatch:claim_verdict_ratio:wilson_upper1h{{app="{app}",verdict="SUPPORTED"}})')
        for p, lo, hi in zip(*(_series(r, {}, at) for r in (ratio, lower, upper))):
            points.append((p, lo, hi) if None not in (p, lo, hi) else None)
        charts[f"ops-faithfulness-{app}"] = rate_chart(
            f"Faithfulness, app {app} (1h, 95% Wilson interval)", labels, points, colour="#2e7d32", width=720)
    share = [q(f'sum without (scorer_version) (groundwatch:unsupported_answer_share:{s}{{app="shop"}})')
             for s in ("ratio1h", "wilson_lower1h", "wilson_upper1h")]
    charts["ops-unsupported-share-shop"] = rate_chart(
        "Answers with an unsupported claim, app shop (1h, 95% interval)", labels,
        [(p, lo, hi) if None not in (p, lo, hi) else None for p, lo, hi in zip(*(_series(r, {}, at) for r in share))],
        colour="#c62828", width=720)
    recall = _series(q('max(groundwatch_recall_at_k{k="5",source="probe"})'), {}, at)
    faithful = _series(q('sum(rate(groundwatch_claims_total{app="shop",verdict="SUPPORTED"}[1h])) / '
                         'sum(rate(groundwatch_claims_total{app="shop",verdict!="SKIPPED"}[1h]))'), {}, at)
    charts["ops-recall-vs-faithfulness"] = lines_chart(
        "Retriever recall@5 (probe) and verifier faithfulness (shop)", labels,
        {"recall@5": recall, "faithfulness": faithful}, width=720, y_min=0.6)
    z = q("groundwatch:faithfulness_drop:z")
    level = _series(q("max(groundwatch:alert_setting:faithfulness_drop_z)"), {}, at)
    series = {f"z {app} {version[-4:]}": _series(z, {"app": app, "scorer_version": version}, at)
              for app in APPS for version in VERSIONS}
    series["alert level"] = level
    charts["ops-drop-test-z"] = lines_chart("Faithfulness drop test z (last hour vs previous day)", labels,
                                            series, width=720, percent=False)
    out = out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, svg in charts.items():
        (out / f"{name}.svg").write_text(svg)
        written.append(_png(out / f"{name}.svg", out / f"{name}.png", svg))
    return written


def _png(svg_path: Path, png_path: Path, svg: str) -> Path:
    width = int(re.search(r'width="(\d+)"', svg).group(1))
    height = int(re.search(r'height="(\d+)"', svg).group(1))
    page = svg_path.with_suffix(".page.html")
    page.write_text(f'<!doctype html><html><body style="margin:0;background:#fff">{svg}</body></html>')
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    profile = svg_path.parent / ".chromium-profile"
    subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
                    "--disable-background-networking", "--disable-component-update", f"--user-data-dir={profile}",
                    f"--window-size={width},{height}", f"--screenshot={png_path}", page.as_uri()],
                   check=True, capture_output=True, timeout=120)
    page.unlink()
    shutil.rmtree(profile, ignore_errors=True)
    return png_path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--days", type=float, default=7.0)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", type=Path, default=REPO / "build" / "ops-week", help="work directory (TSDB, rules)")
    parser.add_argument("--images", type=Path, help="write the panels as SVG and PNG here (e.g. docs/img)")
    parser.add_argument("--json", type=Path, help="write a summary here (docs/figures/ops-week.json)")
    args = parser.parse_args(argv)
    shutil.rmtree(args.out, ignore_errors=True)
    began = time.monotonic()
    prometheus, start, end = backfill(args.out, args.days, args.seed)
    try:
        empty = [(title, legend) for title, legend, expr in dashboard_queries(INTERVAL_PANELS)
                 if not prometheus.query_range(expr, start, end, 3600)]
        print(f"{args.days:g} days backfilled ({start:%Y-%m-%d} to {end:%Y-%m-%d}); "
              f"{len(dashboard_queries(INTERVAL_PANELS)) - len(empty)} interval-panel queries return data, "
              f"{len(empty)} empty {empty or ''}")
        firing = prometheus.query_range(
            "groundwatch:faithfulness_drop:z > on () group_left groundwatch:alert_setting:faithfulness_drop_z "
            "and on (namespace, job, app, scorer_version) groundwatch:responses:increase1h >= 200 "
            "and on (namespace, job, app, scorer_version) groundwatch:responses:increase1d_offset1h >= 200",
            start, end, 3600)
        hours = {(r["metric"].get("app"), r["metric"].get("scorer_version")): len(r["values"]) for r in firing}
        print(f"drop test above its level with enough answers (hours): {hours or 'none'}")
        if args.json:
            answers = prometheus.query_range("sum by (app) (increase(groundwatch_responses_total[1h]))", start, end, 3600)
            steps = int(args.days * 86400 / STEP_S)
            summary = {
                "days": args.days, "seed": args.seed, "start": start.isoformat(), "end": end.isoformat(),
                "version_change": (start + timedelta(seconds=int(steps * 0.5) * STEP_S)).isoformat(),
                "regression": [(start + timedelta(seconds=int(steps * f) * STEP_S)).isoformat() for f in (0.75, 0.80)],
                "answers_per_hour": {r["metric"]["app"]: round(sum(float(v) for _, v in r["values"]) / len(r["values"]))
                                     for r in answers},
                "interval_queries": len(dashboard_queries(INTERVAL_PANELS)), "empty_queries": len(empty),
                "firing": [{"app": r["metric"].get("app"), "scorer_version": r["metric"].get("scorer_version"),
                            "hours": len(r["values"]),
                            "first": datetime.fromtimestamp(float(r["values"][0][0]), timezone.utc).isoformat(),
                            "last": datetime.fromtimestamp(float(r["values"][-1][0]), timezone.utc).isoformat()}
                           for r in firing],
            }
            args.json.parent.mkdir(parents=True, exist_ok=True)
            args.json.write_text(json.dumps(summary, indent=1) + "\n")
        if args.images:
            for path in render_images(prometheus, start, end, args.images):
                print(f"wrote {path}")
    finally:
        prometheus.stop()
    print(f"done in {time.monotonic() - began:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
