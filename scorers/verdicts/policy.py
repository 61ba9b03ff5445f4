"""The action policy: what to do with an answer given its verdict record.

Pure: no I/O. Each claim gets the action of the first rule that matches it
(config/policy.py), or the default action; the response takes the strongest
action of its claims (pass < log < hedge < strip < block). `apply` returns the
answer to send: unchanged for pass and log, with a notice for hedge, without
the failing claims' spans for strip, the block message for block.
"""

from __future__ import annotations

from dataclasses import dataclass

from groundwatch.config.policy import ACTIONS, PolicyConfig, PolicyRule
from groundwatch.scorers.records import ClaimVerdict, PolicyDecision, ResponseVerdict, Verdict
from groundwatch.scorers.verdicts.rewrite import hedge, strip_spans

UNSUPPORTED = frozenset({Verdict.CONTRADICTED.value, Verdict.NOT_ENOUGH_INFO.value})
DEFAULT_RULE = "default"


def strength(action: str) -> int:
    return ACTIONS.index(action)


def _matches(rule: PolicyRule, claim: ClaimVerdict, response_flags: set[str], app: str | None) -> bool:
    verdict = claim.verdict.value
    if rule.verdicts:
        wanted = set(rule.verdicts)
        if verdict not in wanted and not ("UNSUPPORTED" in wanted and verdict in UNSUPPORTED):
            return False
    elif claim.verdict is Verdict.SKIPPED:
        return False
    if rule.severities and claim.severity not in rule.severities:
        return False
    if rule.flags and not set(rule.flags) & (set(claim.flags) | response_flags):
        return False
    return not rule.apps or app in rule.apps


@dataclass(frozen=True)
class Rewritten:
    """The answer to send and the decision behind it."""

    decision: PolicyDecision
    answer: str


class ActionPolicy:
    def __init__(self, config: PolicyConfig | None = None):
        self.config = config or PolicyConfig()

    @property
    def rule_names(self) -> list[str]:
        return [r.name for r in self.config.rules] + [DEFAULT_RULE]

    def claim_action(self, claim: ClaimVerdict, response_flags: set[str], app: str | None) -> tuple[str, str]:
        """(action, rule name) for one claim."""
        for rule in self.config.rules:
            if _matches(rule, claim, response_flags, app):
                return rule.action, rule.name
        return self.config.default_action, DEFAULT_RULE

    def decide(self, verdict: ResponseVerdict) -> PolicyDecision:
        flags = set(verdict.flags)
        app = verdict.metadata.get("app") if verdict.metadata else None
        per_claim = [(c, *self.claim_action(c, flags, app)) for c in verdict.claims]
        if not per_claim:
            return PolicyDecision(self.config.default_action, DEFAULT_RULE, "no claims")
        action = max((a for _, a, _ in per_claim), key=strength)
        deciding = [(c, rule) for c, a, rule in per_claim if a == action]
        first, rule = deciding[0]
        reason = (f"claim {first.index + 1}: {first.verdict.value}, severity {first.severity} (rule {rule})"
                  + (f"; {len(deciding) - 1} more claim(s)" if len(deciding) > 1 else ""))
        stripped = [c.index for c, a, _ in per_claim if a == "strip"] if action == "strip" else []
        if action == "strip":
            # Nothing to cut by (a producer-given claim not found in the answer), or nothing checked
            # would be left: withhold the answer instead.
            if any(c.span[1] <= c.span[0] for c in verdict.claims if c.index in stripped):
                action, reason = "block", reason + "; a claim to strip has no span"
            elif all(c.index in stripped for c in verdict.claims if c.scored):
                action, reason = "block", reason + "; no checked claim left after strip"
        return PolicyDecision(action, rule, reason, [c.index for c, _ in deciding], stripped)

    def fallback(self, kind: str, detail: str = "") -> PolicyDecision:
        """The decision when no verdict exists: kind is "error" (scoring failed) or "timeout"."""
        action = self.config.on_timeout if kind == "timeout" else self.config.on_error
        return PolicyDecision(action, f"on_{kind}", detail or kind)

    def apply(self, answer: str, verdict: ResponseVerdict | None, decision: PolicyDecision) -> Rewritten:
        """The answer to send under `decision` (made by decide() or fallback())."""
        c = self.config
        if decision.action == "block":
            return Rewritten(decision, c.block_message)
        if decision.action == "strip" and verdict is not None:
            text = strip_spans(answer, [cl.span for cl in verdict.claims], set(decision.stripped))
            if not text.strip():
                blocked = PolicyDecision("block", decision.rule, decision.reason + "; nothing left after strip",
                                         decision.claims, decision.stripped)
                return Rewritten(blocked, c.block_message)
            return Rewritten(decision, text)
        if decision.action == "hedge":
            return Rewritten(decision, hedge(answer, c.hedge_notice, c.hedge_position))
        return Rewritten(decision, answer)
