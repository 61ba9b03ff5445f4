"""The faithfulness report as one self-contained HTML file (inline CSS and SVG only).

Every string from the data (filters, ids, labels) is escaped; no claim, question or
passage text is ever put in the report, only ids and figures.
"""

from __future__ import annotations

from datetime import datetime, timezone
from html import escape

from groundwatch.reports.data import CLAIM_RATES, RESPONSE_RATE, TITLES, VERDICTS, Report
from groundwatch.reports.rates import Rate
from groundwatch.reports.signals import signals_html
from groundwatch.reports.svg_charts import COLOURS, bar_chart, rate_chart, stacked_bars

LINE_COLOURS = {"faithfulness": COLOURS["SUPPORTED"], "contradiction": COLOURS["CONTRADICTED"],
                "unverifiable": "#b07800", RESPONSE_RATE: "#1f5fa8"}
CSS = """
body { font-family: system-ui, sans-serif; margin: 24px auto; max-width: 1180px; color: #212121; }
h1 { font-size: 22px; } h2 { font-size: 17px; margin-top: 28px; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; font-size: 13px; } th, td { padding: 4px 10px; text-align: right; }
th:first-child, td:first-child { text-align: left; } tr:nth-child(even) td { background: #f6f6f6; }
.charts { display: flex; flex-wrap: wrap; gap: 12px; } .note { color: #555; font-size: 12px; max-width: 900px; }
"""


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def _interval(rate: Rate) -> str:
    return "-" if rate.low is None else f"{_pct(rate.low)} - {_pct(rate.high)}"


def _num(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _summary(report: Report) -> str:
    rows = []
    for name, rate in report.rates.items():
        level = "response" if name == RESPONSE_RATE else "claim"
        rows.append(
            f'<tr data-rate="{name}"><td>{escape(TITLES[name])}</td><td>{level}</td>'
            f'<td class="estimate">{_pct(rate.estimate)}</td><td class="interval">{_interval(rate)}</td>'
            f'<td>{rate.successes} / {rate.n}</td><td>{_num(rate.n_effective)}</td>'
            f'<td>{_num(rate.rho, 3)}</td><td>{_num(rate.deff, 2)}</td></tr>')
    return ("<table id=\"rates\"><tr><th>rate</th><th>level</th><th>estimate</th><th>95% interval</th>"
            "<th>count</th><th>effective n</th><th>&rho;</th><th>DEFF</th></tr>" + "".join(rows) + "</table>")


def _over_time(report: Report) -> str:
    if not report.buckets:
        return "<p>No timestamps in the selected verdicts.</p>"
    fmt = "%Y-%m-%d %H:00" if report.bucket == "hour" else "%Y-%m-%d"
    labels = [b.start.strftime(fmt) for b in report.buckets]
    charts = []
    for name in (*CLAIM_RATES, RESPONSE_RATE):
        points = [(r.estimate, r.low, r.high) if r.estimate is not None else None
                  for r in (b.rates[name] for b in report.buckets)]
        charts.append(rate_chart(f"{TITLES[name]} per {report.bucket}", labels, points, LINE_COLOURS[name]))
    return f'<div class="charts">{"".join(charts)}</div>'


def _severity(report: Report) -> str:
    if not report.severity:
        return "<p>No checked claims.</p>"
    chart = stacked_bars("Verdicts by claim severity", [(s, d["claims"]) for s, d in report.severity.items()])
    rows = "".join(f'<tr><td>{escape(s)}</td><td>{sum(d["claims"].values())}</td>'
                   f'<td>{_pct(d["faithfulness"].estimate)}</td><td>{_interval(d["faithfulness"])}</td></tr>'
                   for s, d in report.severity.items())
    return (f'<div class="charts">{chart}<table id="severity"><tr><th>severity</th><th>checked claims</th>'
            f'<th>faithfulness</th><th>95% interval</th></tr>{rows}</table></div>')


def _passages(report: Report) -> str:
    if not report.top_passages:
        return "<p>No unsupported claims with evidence.</p>"
    rows = "".join(f'<tr><td>{escape(p["passage_id"])}</td><td>{escape(p.get("title") or "")}</td>'
                   f'<td>{escape(p.get("doc_id") or "")}</td><td>{p["unsupported_claims"]}</td>'
                   f'<td>{p["contradicted"]}</td><td>{p["not_enough_info"]}</td></tr>' for p in report.top_passages)
    return ('<table id="top-passages"><tr><th>passage id</th><th>title</th><th>document</th>'
            f'<th>unsupported claims</th><th>contradicted</th><th>not enough info</th></tr>{rows}</table>')


def _breakdown(key: str, groups: dict[str, dict]) -> str:
    rows = "".join(f'<tr><td>{escape(value)}</td><td>{g["responses"]}</td>'
                   + "".join(f'<td>{_pct(g["rates"][name].estimate)}</td>' for name in (*CLAIM_RATES, RESPONSE_RATE))
                   + "</tr>" for value, g in groups.items())
    heads = "".join(f"<th>{escape(TITLES[name])}</th>" for name in (*CLAIM_RATES, RESPONSE_RATE))
    return f'<table id="by-{key}"><tr><th>{key}</th><th>responses</th>{heads}</tr>{rows}</table>'


def _where(report: Report) -> str:
    parts = [_breakdown(key, groups) for key, groups in (("app", report.apps), ("tenant", report.tenants)) if groups]
    if report.actions:
        rows = "".join(f'<tr><td>{escape(a)}</td><td>{d["responses"]}</td><td>'
                       + escape(", ".join(f"{rule} {n}" for rule, n in d["rules"].items())) + "</td></tr>"
                       for a, d in report.actions.items())
        parts.append(f'<table id="actions"><tr><th>policy action</th><th>responses</th><th>by rule</th></tr>'
                     f"{rows}</table>")
    return "".join(parts) or "<p>No app, tenant or policy action in the selected verdicts.</p>"


def _worst(report: Report) -> str:
    """Ids, verdicts and passage titles only; the claim text is in `groundwatch explain`."""
    if not report.worst:
        return "<p>No response with an unsupported claim.</p>"
    rows = []
    for w in report.worst:
        claims = "<br>".join(
            escape(f"claim {(c['index'] or 0) + 1} {c['verdict']} ({c.get('severity')}): "
                   + ", ".join(p["passage_id"] + (f" {p['title']!r}" if p.get("title") else "") for p in c["passages"]))
            for c in w["claims"])
        rows.append(f'<tr><td>{escape(str(w["request_id"]))}</td><td>{escape(w.get("app") or "")}</td>'
                    f'<td>{escape(w.get("action") or "")}</td><td>{escape(w.get("rule") or "")}</td>'
                    f"<td>{claims}</td></tr>")
    return ('<table id="worst"><tr><th>request id</th><th>app</th><th>action</th><th>rule</th>'
            f'<th>unsupported claims and the passages they were decided on</th></tr>{"".join(rows)}</table>')


METHOD = (
    "Claim-level rates count non-skipped claims. Claims of one response are correlated, so each claim-level "
    "interval is Wilson's score interval on the effective sample size n / DEFF, with the design effect "
    "DEFF = 1 + (m - 1) &rho;, m the mean number of checked claims per response and &rho; the intra-response "
    "correlation of that outcome from the one-way ANOVA estimator for binary data (truncated at 0). Per-bucket "
    "intervals reuse the overall &rho;. The response-level rate is over responses with at least one checked claim, "
    "with Wilson's interval. When a request was scored by several scorer versions, the newest verdict counts.")


def render_html(report: Report, title: str = "groundwatch faithfulness report") -> str:
    filters = ", ".join(f"{k} = {v}" for k, v in report.filters.items()) or "none"
    mix = bar_chart("Verdict mix (all claims)", [(v, report.counts.get(v, 0), COLOURS[v]) for v in VERDICTS])
    generated = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title><style>{CSS}</style></head>
<body>
<h1>{escape(title)}</h1>
<p id="scope">{report.responses} responses; filters: {escape(filters)}; generated {generated}.</p>
<h2>Rates with 95% intervals</h2>
{_summary(report)}
<h2>Over time</h2>
{_over_time(report)}
<h2>Verdict mix</h2>
{mix}
<h2>By severity</h2>
{_severity(report)}
<h2>By app, tenant and policy action</h2>
{_where(report)}
<h2>Worst responses</h2>
<p class="note">Open these first: <code>groundwatch explain REQUEST_ID</code> shows the claims and the evidence.</p>
{_worst(report)}
<h2>Signals</h2>
<p class="note">Off-topic answers, stale evidence, and what the knowledge base says about claims the logged
passages left unsupported (when corpus lookups are on).</p>
{signals_html(report.signals)}
<h2>Top failing passages</h2>
<p class="note">Passages of the decisive premise behind claims that were contradicted or not supported.</p>
{_passages(report)}
<h2>Method</h2>
<p class="note">{METHOD}</p>
</body></html>
"""
