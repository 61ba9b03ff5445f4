"""Text tables: running counts printed at the end of `score`, and the rates of a `report`."""

from __future__ import annotations

from dataclasses import dataclass, field

from groundwatch.reports.data import TITLES, Report
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
