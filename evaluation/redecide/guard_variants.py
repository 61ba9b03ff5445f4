"""Guards off vs on from one scoring run: the saved verdicts re-decided both ways (issue 11 §3).

A verdict record keeps every guard check (polarity, dropped_condition, arithmetic), so "guards off" is
the same evidence decided without them (`Variant(guards=False)`, `scorers.guards.stage.without_guards`):
no second model run, and the two columns differ by the guards alone.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from groundwatch.evaluation.redecide.rules import _row
from groundwatch.evaluation.scored import Scored, StoredClaim, Variant, claim_verdict
from groundwatch.evaluation.tables import render

GUARD_STATES = {"guards-off": False, "guards-on": True}


def parse_guards(value: str) -> list[str]:
    """`off`, `on`, `both` (or a comma list of guards-off / guards-on) -> the variant names, off first."""
    names = {"off": ["guards-off"], "on": ["guards-on"], "both": ["guards-off", "guards-on"]}.get(value)
    if names is None:
        names = [v.strip() for v in value.split(",") if v.strip()]
        unknown = [n for n in names if n not in GUARD_STATES]
        if unknown or not names:
            raise ValueError(f"--guards {value!r}: expected off, on, both or guards-off,guards-on")
    return sorted(set(names), key=list(GUARD_STATES).index)


def guard_rows(scored: list[Scored], variant: Variant, names: list[str] = ("guards-off", "guards-on"),
               resamples: int = 1000, seed: int = 0) -> list[dict]:
    """Per set (and pooled when there are several), one row per guard state: balanced accuracy, recall,
    precision, AUROC with bootstrap intervals (the same resamples for both states: same seed, same n)."""
    ok = [s for s in scored if s.error is None]
    sets = sorted({s.item.set_name for s in ok})
    groups = [(f"set:{name}", [s for s in ok if s.item.set_name == name]) for name in sets]
    if len(sets) > 1:
        groups.append(("pooled", ok))
    rows = []
    for group, members in groups:
        for name in names:
            row = _row(group, name, members, replace(variant, guards=GUARD_STATES[name]), resamples, seed)
            row["guards"] = row.pop("rule")
            rows.append(row)
    return rows


def drop_check(rows: list[dict]) -> list[dict]:
    """Per group: balanced accuracy on - off, and whether it drops by no more than the half-width of the
    guards-off 95% interval (issue 11: no set may drop by more than its interval's half-width)."""
    by_group: dict[str, dict[str, dict]] = {}
    for r in rows:
        by_group.setdefault(r["group"], {})[r["guards"]] = r
    out = []
    for group, states in by_group.items():
        off, on = states.get("guards-off"), states.get("guards-on")
        if off is None or on is None or off["balanced_accuracy"] is None or on["balanced_accuracy"] is None:
            continue
        low, high = off["interval_95"]["balanced_accuracy"] or (None, None)
        half = None if low is None else (high - low) / 2
        delta = on["balanced_accuracy"] - off["balanced_accuracy"]
        out.append({"group": group, "n": off["n"], "off": off["balanced_accuracy"], "on": on["balanced_accuracy"],
                    "delta": delta, "half_width": half, "ok": None if half is None else delta >= -half})
    return out


def guards_table(rows: list[dict]) -> str:
    def cell(r: dict, metric: str) -> str:
        value, interval = r[metric], r["interval_95"][metric]
        if value is None:
            return "-"
        return f"{value:.3f} [{interval[0]:.3f}, {interval[1]:.3f}]" if interval else f"{value:.3f}"

    table = render(["group", "guards", "n (unsup.)", "bal.acc [95%]", "recall(unsup) [95%]", "precision(unsup)",
                    "AUROC"],
                   [[r["group"], r["guards"], f"{r['n']} ({r['unsupported']})", cell(r, "balanced_accuracy"),
                     cell(r, "recall"), None if r["precision"] is None else round(r["precision"], 3),
                     None if r["auroc"] is None else round(r["auroc"], 3)] for r in rows])
    checks = drop_check(rows)
    if not checks:
        return table
    lines = [f"  {c['group']}: on - off = {c['delta']:+.3f}, half-width {c['half_width']:.3f} -> "
             f"{'ok' if c['ok'] else 'DROPS MORE THAN THE HALF-WIDTH'}" for c in checks if c["half_width"] is not None]
    return table + "\nbalanced accuracy, guards on vs off:\n" + "\n".join(lines)


def record_verdicts(record: dict, variant: Variant) -> list[str]:
    """The claim verdicts of one saved verdict record (`groundwatch score` output) under `variant`."""
    out = []
    for claim in record["claims"]:
        verdict, _ = claim_verdict(StoredClaim.from_dict(claim), variant)
        out.append(verdict.value)
    return out


def fired(record_claim: dict) -> Counter:
    """Which guard checks failed on one saved claim (by check name)."""
    return Counter(c["name"] for c in record_claim.get("checks", [])
                   if c["name"] in ("polarity", "dropped_condition", "arithmetic") and not c["passed"])

