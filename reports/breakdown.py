"""Where the problems are: rates per app and per tenant, and how often each policy action was taken.

A breakdown by metadata key reuses the pooled intra-response correlation (rho) of the whole report:
a small app gives a useless estimate of its own, as a small time bucket does.
"""

from __future__ import annotations

from collections import Counter

from groundwatch.reports.rates import Rate

UNLABELLED = "(none)"  # responses logged without the key


def by_metadata(records: list[dict], key: str, rates_of) -> dict[str, dict]:
    """{value: {"responses": n, "rates": {...}}} for metadata[key], most responses first; {} when no
    record carries the key (a tenant breakdown only where traffic is labelled by tenant)."""
    groups: dict[str, list[dict]] = {}
    for r in records:
        value = (r.get("metadata") or {}).get(key)
        groups.setdefault(str(value) if value not in (None, "") else UNLABELLED, []).append(r)
    if set(groups) <= {UNLABELLED}:
        return {}
    ordered = sorted(groups.items(), key=lambda item: (-len(item[1]), item[0]))
    return {value: {"responses": len(members), "rates": rates_of(members)} for value, members in ordered}


def action_counts(records: list[dict]) -> dict[str, dict]:
    """{action: {"responses": n, "rules": {rule: n}}} from each verdict's policy decision, strongest first;
    {} when the verdicts were scored without a policy."""
    from groundwatch.config.policy import ACTIONS

    actions: Counter = Counter()
    rules: dict[str, Counter] = {}
    for r in records:
        decision = r.get("action")
        if not isinstance(decision, dict) or not decision.get("action"):
            continue
        actions[decision["action"]] += 1
        rules.setdefault(decision["action"], Counter())[decision.get("rule") or "?"] += 1
    order = {a: i for i, a in enumerate(ACTIONS)}
    return {a: {"responses": n, "rules": dict(rules[a].most_common())}
            for a, n in sorted(actions.items(), key=lambda item: (-order.get(item[0], -1), item[0]))}


def breakdown_dict(groups: dict[str, dict]) -> dict[str, dict]:
    return {value: {"responses": g["responses"], "rates": {k: v.to_dict() for k, v in g["rates"].items()}}
            for value, g in groups.items()}


def share(rate: Rate) -> str:
    return "     -" if rate.estimate is None else f"{100 * rate.estimate:5.1f}%"
