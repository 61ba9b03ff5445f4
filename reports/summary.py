"""Text tables: running counts printed at the end of `score`, and the rates of a `report`."""

from __future__ import annotations

from dataclasses import dataclass, field

from groundwatch.reports.data import RESPONSE_RATE, TITLES, Report
from groundwatch.scorers.records import ResponseVerdict, Verdict


@dataclass
class Summary:
    responses: int = 0
    all_supported: int = 0
    context_conflicts: int = 0
    claims: dict[str, int] = field(default_factory=lambda: {v.value: 0 for v in Verdict})

    def add(self, verdict: ResponseVerdict) -> None:
        self.responses += 1
        self.all_supported += verdict.response.all_supported
        self.context_conflicts += bool(verdict.context_conflicts)
        for c in verdict.claims:
            self.claims[c.verdict.value] += 1

    def to_dict(self) -> dict:
        """The counts as plain data (`groundwatch score --summary`, the README's demo figure)."""
        return {"responses": self.responses, "all_supported": self.all_supported,
                "context_conflicts": self.context_conflicts, "claims": dict(self.claims)}

    @classmethod
    def from_dict(cls, data: dict) -> "Summary":
        return cls(data["responses"], data["all_supported"], data["context_conflicts"], dict(data["claims"]))

    def table(self) -> str:
        checked = sum(n for v, n in self.claims.items() if v != Verdict.SKIPPED.value)
        pct = lambda n, d: f"{100.0 * n / d:5.1f}%" if d else "    -"  # noqa: E731
        rows = [
            ("responses", str(self.responses), ""),
            ("claims checked", str(checked), ""),
            ("  SUPPORTED", str(self.claims["SUPPORTED"]), pct(self.claims["SUPPORTED"], checked)),
            ("  CONTRADICTED", str(self.claims["CONTRADICTED"]), pct(self.claims["CONTRADICTED"], checked)),
            ("  NOT_ENOUGH_INFO", str(self.claims["NOT_ENOUGH_INFO"]), pct(self.claims["NOT_ENOUGH_INFO"], checked)),
            ("claims skipped (decorative)", str(self.claims["SKIPPED"]), ""),
            ("responses with every claim supported", str(self.all_supported), pct(self.all_supported, self.responses)),
            ("responses with conflicting context", str(self.context_conflicts), pct(self.context_conflicts, self.responses)),
        ]
        width = max(len(r[0]) for r in rows)
        return "\n".join(f"{name:<{width}}  {count:>6}  {share}".rstrip() for name, count, share in rows)


def rates_table(report: Report) -> str:
    """The rates of a report with their 95% intervals, one line each (what `groundwatch report` prints)."""
    rows = [f"{report.responses} responses; claims: " + ", ".join(f"{v} {n}" for v, n in report.counts.items())]
    width = max(len(t) for t in TITLES.values())
    for name, rate in report.rates.items():
        if rate.estimate is None:
            rows.append(f"{TITLES[name]:<{width}}  -")
            continue
        extra = ""
        if rate.rho is not None:
            extra = f"  (rho {rate.rho:.3f}, DEFF {rate.deff:.2f}, n_eff {rate.n_effective:.1f})"
        rows.append(f"{TITLES[name]:<{width}}  {100 * rate.estimate:5.1f}%  95% CI {100 * rate.low:5.1f}% - "
                    f"{100 * rate.high:5.1f}%  [{rate.successes}/{rate.n}]{extra}")
    return "\n".join(rows)


def _breakdown_lines(title: str, groups: dict[str, dict]) -> list[str]:
    from groundwatch.reports.breakdown import share

    width = max([len(v) for v in groups] + [len(title)])
    lines = [f"{title:<{width}}  responses  faithful  contradicted  unverifiable  responses with unsupported"]
    for value, g in groups.items():
        r = g["rates"]
        lines.append(f"{value:<{width}}  {g['responses']:>9}  {share(r['faithfulness']):>8}  "
                     f"{share(r['contradiction']):>12}  {share(r['unverifiable']):>12}  "
                     f"{share(r[RESPONSE_RATE]):>26}")
    return lines


def report_text(report: Report) -> str:
    """What `groundwatch report` prints: the rates, where they come from (apps, tenants), what the policy
    did, the passages behind the most unsupported claims and the worst responses to open first."""
    from groundwatch.reports.worst import worst_lines

    blocks = [rates_table(report)]
    if report.apps:
        blocks.append("\n".join(_breakdown_lines("app", report.apps)))
    if report.tenants:
        blocks.append("\n".join(_breakdown_lines("tenant", report.tenants)))
    if report.actions:
        rows = [f"  {a:<6} {d['responses']:>6}  " + ", ".join(f"{rule} {n}" for rule, n in d["rules"].items())
                for a, d in report.actions.items()]
        blocks.append("policy actions (responses, by rule):\n" + "\n".join(rows))
    if report.top_passages:
        rows = []
        for p in report.top_passages:
            name = f" {p['title']!r}" if p.get("title") else ""
            doc = f" ({p['doc_id']})" if p.get("doc_id") else ""
            rows.append(f"  {p['passage_id']}{name}{doc}: {p['unsupported_claims']} unsupported "
                        f"({p['contradicted']} contradicted, {p['not_enough_info']} not enough info)")
        blocks.append("passages behind the most unsupported claims:\n" + "\n".join(rows))
    if report.worst:
        blocks.append("worst responses (groundwatch explain REQUEST_ID for the full story):\n"
                      + "\n".join("  " + line for line in worst_lines(report.worst)))
    return "\n\n".join(blocks)
