"""Faithfulness figures over a set of stored verdicts: what `groundwatch report` shows.

Claim-level rates are over non-skipped claims, clustered by response (see
reports.rates for the design effect); the response-level rate is the share of
responses with at least one checked claim of which one or more is unsupported.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Iterable

from groundwatch.reports.breakdown import action_counts, breakdown_dict, by_metadata
from groundwatch.reports.rates import Rate, clustered_rate, simple_rate
from groundwatch.reports.signals import signal_counts
from groundwatch.reports.verdict_store import VerdictFilter, scored_at
from groundwatch.reports.worst import worst_responses
from groundwatch.scorers.identity import record_key
from groundwatch.scorers.times import parse_time

VERDICTS = ("SUPPORTED", "CONTRADICTED", "NOT_ENOUGH_INFO", "SKIPPED")
CLAIM_RATES = {"faithfulness": "SUPPORTED", "contradiction": "CONTRADICTED", "unverifiable": "NOT_ENOUGH_INFO"}
RESPONSE_RATE = "responses_with_unsupported"
TITLES = {
    "faithfulness": "Claim faithfulness (SUPPORTED)",
    "contradiction": "Claims contradicted",
    "unverifiable": "Claims unverifiable (NOT_ENOUGH_INFO)",
    RESPONSE_RATE: "Responses with an unsupported claim",
}
BUCKET_SIZES = {"hour": timedelta(hours=1), "day": timedelta(days=1)}


def when(record: dict) -> datetime | None:
    """The response's own time when it was logged with one, else when it was scored."""
    for key in ("timestamp", "scored_at"):
        moment = parse_time(record.get(key))  # malformed: None; one bad value must not sink the report
        if moment:
            return moment
    return None


def selected(record: dict, f: VerdictFilter) -> bool:
    metadata = record.get("metadata") or {}
    if any(metadata.get(key) != value for key, value in f.metadata().items()):
        return False
    moment = when(record)
    if (f.since or f.until) and moment is None:
        return False
    return not ((f.since and moment < f.since) or (f.until and moment >= f.until))


def latest_per_request(records: Iterable[dict]) -> list[dict]:
    """One verdict per request of each app and tenant: a rescore under a newer scorer version replaces
    the old one; two apps that reuse a request id keep one each."""
    newest: dict[tuple[str, str, str], dict] = {}
    for r in records:
        key = record_key(r)
        kept = newest.get(key)
        if kept is None or scored_at(r) > scored_at(kept):
            newest[key] = r
    return list(newest.values())


def _checked(record: dict) -> list[dict]:
    return [c for c in record.get("claims", []) if c.get("verdict") != "SKIPPED"]


def rates(records: list[dict], rhos: dict[str, float] | None = None) -> dict[str, Rate]:
    """The three claim-level rates (clustered) and the response-level one (Wilson)."""
    checked = [_checked(r) for r in records]
    out = {}
    for name, verdict in CLAIM_RATES.items():
        clusters = [(sum(c["verdict"] == verdict for c in claims), len(claims)) for claims in checked]
        out[name] = clustered_rate(clusters, rho=(rhos or {}).get(name))
    answered = [claims for claims in checked if claims]
    unsupported = sum(any(c["verdict"] != "SUPPORTED" for c in claims) for claims in answered)
    out[RESPONSE_RATE] = simple_rate(unsupported, len(answered))
    return out


@dataclass
class Bucket:
    start: datetime
    responses: int
    rates: dict[str, Rate]


@dataclass
class Report:
    filters: dict
    responses: int
    counts: dict[str, int]
    rates: dict[str, Rate]
    bucket: str
    buckets: list[Bucket] = field(default_factory=list)
    severity: dict[str, dict] = field(default_factory=dict)
    top_passages: list[dict] = field(default_factory=list)
    signals: dict[str, dict] = field(default_factory=dict)  # reports/signals.py
    apps: dict[str, dict] = field(default_factory=dict)       # reports/breakdown.py
    tenants: dict[str, dict] = field(default_factory=dict)
    actions: dict[str, dict] = field(default_factory=dict)
    worst: list[dict] = field(default_factory=list)           # reports/worst.py

    def to_dict(self) -> dict:
        return {
            "filters": self.filters, "responses": self.responses, "claims": self.counts,
            "rates": {k: v.to_dict() for k, v in self.rates.items()},
            "bucket": self.bucket,
            "buckets": [{"start": b.start.isoformat(), "responses": b.responses,
                         "rates": {k: v.to_dict() for k, v in b.rates.items()}} for b in self.buckets],
            "severity": {s: {"claims": d["claims"], "faithfulness": d["faithfulness"].to_dict()}
                         for s, d in self.severity.items()},
            "top_failing_passages": self.top_passages,
            "signals": self.signals,
            "apps": breakdown_dict(self.apps), "tenants": breakdown_dict(self.tenants),
            "actions": self.actions, "worst_responses": self.worst,
        }


def _floor(moment: datetime, bucket: str) -> datetime:
    moment = moment.astimezone(timezone.utc)
    return moment.replace(minute=0, second=0, microsecond=0) if bucket == "hour" else \
        moment.replace(hour=0, minute=0, second=0, microsecond=0)


def time_buckets(records: list[dict], bucket: str, rhos: dict[str, float]) -> list[Bucket]:
    """Every bucket from the first to the last record, empty ones included (gaps show)."""
    timed = [(when(r), r) for r in records if when(r) is not None]
    if not timed:
        return []
    groups: dict[datetime, list[dict]] = {}
    for moment, r in timed:
        groups.setdefault(_floor(moment, bucket), []).append(r)
    out, start, last = [], min(groups), max(groups)
    while start <= last:
        members = groups.get(start, [])
        # The pooled rho: a bucket of a few responses gives a useless estimate of its own.
        out.append(Bucket(start, len(members), rates(members, rhos)))
        start += BUCKET_SIZES[bucket]
    return out


def severity_breakdown(records: list[dict]) -> dict[str, dict]:
    by_severity: dict[str, list[tuple[int, int]]] = {}
    counts: dict[str, Counter] = {}
    for r in records:
        per_response: dict[str, list[int]] = {}
        for c in _checked(r):
            sev = c.get("severity") or "unknown"
            counts.setdefault(sev, Counter())[c["verdict"]] += 1
            tally = per_response.setdefault(sev, [0, 0])
            tally[0] += c["verdict"] == "SUPPORTED"
            tally[1] += 1
        for sev, (supported, n) in per_response.items():
            by_severity.setdefault(sev, []).append((supported, n))
    return {sev: {"claims": {v: counts[sev].get(v, 0) for v in VERDICTS[:3]},
                  "faithfulness": clustered_rate(by_severity[sev])} for sev in sorted(by_severity)}


def top_failing_passages(records: list[dict], top: int = 10) -> list[dict]:
    """Passages of the decisive premise (the first evidence) of unsupported claims, with the title and
    document id the verdict stored for them. Passage ids are often per response ("p1"), so a passage is
    the id together with its document id and title."""
    tally: dict[tuple, Counter] = {}
    for r in records:
        stored = {p.get("id"): p for p in r.get("passages") or [] if isinstance(p, dict)}
        for c in _checked(r):
            if c["verdict"] == "SUPPORTED" or not c.get("evidence"):
                continue
            for pid in dict.fromkeys(c["evidence"][0].get("passage_ids", [])):
                about = stored.get(pid, {})
                key = (pid, about.get("doc_id") or "", about.get("title") or "")
                tally.setdefault(key, Counter())[c["verdict"]] += 1
    ranked = sorted(tally.items(), key=lambda item: (-sum(item[1].values()), item[0]))[:top]
    return [{"passage_id": pid, "doc_id": doc or None, "title": title or None,
             "unsupported_claims": sum(n.values()), "contradicted": n["CONTRADICTED"],
             "not_enough_info": n["NOT_ENOUGH_INFO"]} for (pid, doc, title), n in ranked]


def build_report(records: Iterable[dict], f: VerdictFilter = VerdictFilter(), bucket: str = "auto",
                 top: int = 10, worst: int = 10) -> Report:
    chosen = latest_per_request(r for r in records if selected(r, f))
    counts = Counter(c.get("verdict") for r in chosen for c in r.get("claims", []))
    overall = rates(chosen)
    moments = [m for m in (when(r) for r in chosen) if m is not None]
    if bucket == "auto":
        bucket = "hour" if moments and max(moments) - min(moments) <= timedelta(days=2) else "day"
    rhos = {name: overall[name].rho for name in CLAIM_RATES if overall[name].rho is not None}
    filters = {k: (v.isoformat() if isinstance(v, datetime) else v) for k, v in vars(f).items() if v}
    pooled = lambda members: rates(members, rhos)  # noqa: E731
    return Report(filters, len(chosen), {v: counts.get(v, 0) for v in VERDICTS}, overall, bucket,
                  time_buckets(chosen, bucket, rhos), severity_breakdown(chosen),
                  top_failing_passages(chosen, top), signal_counts(chosen),
                  by_metadata(chosen, "app", pooled), by_metadata(chosen, "tenant", pooled),
                  action_counts(chosen), worst_responses(chosen, worst))
