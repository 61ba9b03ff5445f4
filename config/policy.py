"""Configuration of the action policy (the `policy` section of the settings).

Pure data: `scorers.verdicts.policy.ActionPolicy` applies it. Rules are tried in order for
every claim; the first that matches gives the claim its action, and the
response takes the strongest action of its claims (pass < log < hedge < strip
< block). A claim no rule matches gets `default_action`.

In the environment the rules are one JSON list, e.g.
GROUNDWATCH_POLICY__RULES='[{"name": "billing_block", "apps": ["billing"], "verdicts": ["UNSUPPORTED"], "action": "block"}]'.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Action = Literal["pass", "log", "hedge", "strip", "block"]
ACTIONS: tuple[str, ...] = ("pass", "log", "hedge", "strip", "block")  # weakest first
# Verdict names a rule may list; UNSUPPORTED stands for CONTRADICTED or NOT_ENOUGH_INFO.
RULE_VERDICTS = ("SUPPORTED", "CONTRADICTED", "NOT_ENOUGH_INFO", "SKIPPED", "UNSUPPORTED")


class PolicyRule(BaseModel):
    """Matches a claim when every non-empty list matches (an empty list matches anything).

    verdicts: the claim's verdict (empty: any verdict but SKIPPED); severities: the claim's
    severity ("high" | "normal"); flags: any of the claim's or the response's flags;
    apps: the response's metadata.app.
    """

    model_config = ConfigDict(frozen=True)

    name: str = Field(min_length=1, max_length=64, pattern=r"^[a-z0-9_]+$")  # a metric label value
    action: Action
    verdicts: list[Literal["SUPPORTED", "CONTRADICTED", "NOT_ENOUGH_INFO", "SKIPPED", "UNSUPPORTED"]] = []
    severities: list[str] = []
    flags: list[str] = []
    apps: list[str] = []


DEFAULT_RULES = (
    PolicyRule(name="contradicted_high_severity", verdicts=["CONTRADICTED"], severities=["high"], action="block"),
    PolicyRule(name="unsupported_high_severity", verdicts=["UNSUPPORTED"], severities=["high"], action="strip"),
    PolicyRule(name="unsupported", verdicts=["UNSUPPORTED"], action="log"),
)


class PolicyConfig(BaseModel):
    model_config = ConfigDict(frozen=True)

    enabled: bool = True
    rules: list[PolicyRule] = list(DEFAULT_RULES)
    default_action: Action = "pass"  # a claim no rule matches (supported and skipped claims by default)
    hedge_notice: str = ("Note: parts of this answer could not be verified against the provided sources; "
                         "please check them before relying on it.")
    hedge_position: Literal["append", "prepend"] = "append"
    # What `block` returns in place of the answer (serve's `answer` field).
    block_message: str = "This answer was withheld because it could not be verified against its sources."
    # Inline checks that could not finish: scoring failed, or the deadline passed first.
    on_error: Action = "log"
    on_timeout: Action = "log"
