"""The action policy: rules per verdict, severity, flag and app; strip and hedge rewriting."""

from __future__ import annotations

import json

import pytest

from groundwatch.config.policy import PolicyConfig, PolicyRule
from groundwatch.config.settings import Settings
from groundwatch.export.alerts import build_alert
from groundwatch.export.metrics import Metrics
from groundwatch.scorers.answer.claims import decompose
from groundwatch.scorers.verdicts.policy import ActionPolicy
from groundwatch.scorers.records import ClaimVerdict, Verdict
from groundwatch.scorers.verdicts.rewrite import hedge, strip_spans
from tests.unit.verdicts import claim, verdict

ANSWER = ("You have 30 days to ask for a refund, and refunds take 60 days to arrive. "
          "Data is kept for 30 days [p2]. Support is friendly. Hope this helps!")


def _answer_verdict(verdicts: list[Verdict], severities: list[str], flags=None, app="shop"):
    """A verdict record over ANSWER's real claims (spans from the claim splitter)."""
    claims = []
    for i, (c, v, s) in enumerate(zip(decompose(ANSWER), verdicts, severities)):
        if v is Verdict.SKIPPED:
            claims.append(ClaimVerdict(i, c.text, c.span, "normal", v, reason="pleasantry"))
        else:
            claims.append(ClaimVerdict(i, c.text, c.span, s, v))
    out = verdict(claims, metadata={"app": app})
    out.flags = list(flags or [])
    return out


S, C, N, K = Verdict.SUPPORTED, Verdict.CONTRADICTED, Verdict.NOT_ENOUGH_INFO, Verdict.SKIPPED


def test_answer_claims_are_what_the_tests_assume():
    assert [ANSWER[a:b] for a, b in (c.span for c in decompose(ANSWER))] == [
        "You have 30 days to ask for a refund", "refunds take 60 days to arrive.",
        "Data is kept for 30 days [p2].", "Support is friendly.", "Hope this helps!"]


@pytest.mark.parametrize("verdicts, severities, action, rule", [
    ([S, S, S, S, K], ["high", "high", "high", "normal", "normal"], "pass", "default"),
    ([S, N, S, N, K], ["high", "normal", "high", "normal", "normal"], "log", "unsupported"),
    ([S, N, S, S, K], ["high", "high", "high", "normal", "normal"], "strip", "unsupported_high_severity"),
    ([S, C, S, S, K], ["high", "high", "high", "normal", "normal"], "block", "contradicted_high_severity"),
    ([S, C, S, S, K], ["high", "normal", "high", "normal", "normal"], "log", "unsupported"),
    ([S, C, N, S, K], ["high", "high", "high", "normal", "normal"], "block", "contradicted_high_severity"),
])
def test_default_rules(verdicts, severities, action, rule):
    decision = ActionPolicy().decide(_answer_verdict(verdicts, severities))
    assert (decision.action, decision.rule) == (action, rule)


def test_decision_names_the_deciding_claims_without_their_text():
    v = _answer_verdict([S, N, N, S, K], ["high", "high", "high", "normal", "normal"])
    decision = ActionPolicy().decide(v)
    # the reason is read by a person: claims numbered from 1, as explain heads them (claims/stripped stay indices)
    assert decision.action == "strip" and decision.claims == [1, 2] and decision.stripped == [1, 2]
    assert decision.reason == "claim 2: NOT_ENOUGH_INFO, severity high (rule unsupported_high_severity); 1 more claim(s)"
    assert "refund" not in decision.reason.lower()


def test_rules_by_app_and_flag_first_match_wins():
    config = PolicyConfig(rules=[
        PolicyRule(name="billing_strict", apps=["billing"], verdicts=["UNSUPPORTED"], action="block"),
        PolicyRule(name="conflicting_sources", flags=["context_conflict"], action="hedge"),
        *PolicyConfig().rules])
    policy = ActionPolicy(config)
    normal_nei = ([S, N, S, S, K], ["high", "normal", "high", "normal", "normal"])
    assert policy.decide(_answer_verdict(*normal_nei, app="billing")).action == "block"
    assert policy.decide(_answer_verdict(*normal_nei, app="shop")).action == "log"
    conflicted = policy.decide(_answer_verdict([S, S, S, S, K], ["normal"] * 5, flags=["context_conflict"]))
    assert (conflicted.action, conflicted.rule) == ("hedge", "conflicting_sources")
    # The decorative claim is never matched by a rule without verdicts.
    assert 4 not in conflicted.claims


def test_claim_flags_match_too():
    config = PolicyConfig(rules=[PolicyRule(name="polarity", flags=["polarity_mismatch"], action="strip")])
    v = _answer_verdict([S, S, S, S, K], ["normal"] * 5)
    v.claims[2].flags = ["polarity_mismatch"]
    decision = ActionPolicy(config).decide(v)
    assert decision.action == "strip" and decision.stripped == [2]


def test_strip_removes_clauses_and_sentences_by_span():
    policy = ActionPolicy()
    v = _answer_verdict([S, N, N, S, K], ["high", "high", "high", "normal", "normal"])
    out = policy.apply(ANSWER, v, policy.decide(v))
    assert out.decision.action == "strip"
    assert out.answer == "You have 30 days to ask for a refund. Support is friendly. Hope this helps!"


def test_strip_of_an_opening_clause_capitalises_the_next():
    v = _answer_verdict([N, S, S, S, K], ["high", "normal", "normal", "normal", "normal"])
    out = ActionPolicy().apply(ANSWER, v, ActionPolicy().decide(v))
    assert out.answer.startswith("Refunds take 60 days to arrive. Data is kept")


def test_strip_that_leaves_no_checked_claim_blocks():
    policy = ActionPolicy()
    v = _answer_verdict([N, N, N, N, K], ["high"] * 4 + ["normal"])
    assert policy.decide(v).action == "block"  # the recorded action is the one applied
    out = policy.apply(ANSWER, v, policy.decide(v))
    assert out.decision.action == "block" and out.answer == PolicyConfig().block_message
    assert "no checked claim left" in out.decision.reason


def test_strip_of_a_given_claim_without_span_blocks():
    policy = ActionPolicy()
    v = verdict([claim(0, N, "high", text="Not in the answer.")])
    v.claims[0].span = (0, 0)
    out = policy.apply("Something else entirely. And more.", v, policy.decide(v))
    assert out.decision.action == "block"


def test_hedge_and_block_and_pass_rewrites():
    config = PolicyConfig(rules=[PolicyRule(name="any_unsupported", verdicts=["UNSUPPORTED"], action="hedge")],
                          hedge_notice="Unverified.", hedge_position="prepend", block_message="Withheld.")
    policy = ActionPolicy(config)
    v = _answer_verdict([S, N, S, S, K], ["normal"] * 5)
    assert policy.apply(ANSWER, v, policy.decide(v)).answer == "Unverified.\n\n" + ANSWER
    assert hedge("A.", "B.") == "A.\n\nB."
    blocked = policy.apply(ANSWER, v, policy.fallback("timeout"))
    assert blocked.answer == ANSWER and blocked.decision.rule == "on_timeout"  # on_timeout defaults to log
    strict = ActionPolicy(config.model_copy(update={"on_timeout": "block"}))
    assert strict.apply(ANSWER, None, strict.fallback("timeout")).answer == "Withheld."


def test_strip_spans_keeps_bullets_tidy():
    text = "Steps:\n- Open Billing.\n- Refunds take 90 days.\n- Click refund."
    spans = [(7, 22), (23, 46), (47, 62)]
    assert [text[a:b] for a, b in spans] == ["- Open Billing.", "- Refunds take 90 days.", "- Click refund."]
    # One sentence for the splitter: the middle clause goes, its neighbours stay.
    assert "90 days" not in strip_spans(text, spans, {1})


def test_rules_from_the_environment(monkeypatch):
    rules = [{"name": "billing_block", "apps": ["billing"], "verdicts": ["UNSUPPORTED"], "action": "block"}]
    monkeypatch.setenv("GROUNDWATCH_POLICY__RULES", json.dumps(rules))
    monkeypatch.setenv("GROUNDWATCH_POLICY__ON_TIMEOUT", "block")
    settings = Settings()
    assert settings.policy.rules[0].name == "billing_block" and settings.policy.on_timeout == "block"
    with pytest.raises(ValueError):
        PolicyRule(name="Bad Name!", action="block")


def test_action_is_recorded_counted_and_alerted():
    policy = ActionPolicy()
    v = _answer_verdict([S, C, S, S, K], ["high", "high", "high", "normal", "normal"])
    v.action = policy.decide(v)
    assert v.to_dict()["action"]["action"] == "block"
    metrics = Metrics()
    metrics.scored([v])
    from prometheus_client import generate_latest

    body = generate_latest(metrics.registry).decode()
    assert 'groundwatch_actions_total{action="block",rule="contradicted_high_severity"} 1.0' in body
    alert = build_alert(v)
    assert alert["action"]["action"] == "block" and "action_block" in alert["reasons"]
    assert alert["action"]["claims"] == [1]


def test_a_flag_rule_alone_raises_an_alert_with_its_action():
    config = PolicyConfig(rules=[PolicyRule(name="conflicting_sources", flags=["context_conflict"], action="hedge")])
    v = _answer_verdict([S, S, S, S, K], ["normal"] * 5, flags=["context_conflict"])
    v.action = ActionPolicy(config).decide(v)
    alert = build_alert(v)
    assert alert["reasons"] == ["action_hedge"] and alert["action"]["rule"] == "conflicting_sources"
    v.action = ActionPolicy().decide(v)  # pass: no alert
    assert build_alert(v) is None


def test_strip_of_markdown_claims_leaves_no_orphan_marker():
    answer = ("## Refunds\n\n1. **Refunds** are available within 60 days [1].\n2. Approved refunds go back to your "
              "card.\n\n> Note: gift cards are final.\n> - Vouchers expire after a year.\n\nThat is all.")
    claims = decompose(answer)
    assert [c.text for c in claims] == ["Refunds are available within 60 days.", "Approved refunds go back to your card.",
                                        "Gift cards are final.", "Vouchers expire after a year.", "That is all."]
    out = strip_spans(answer, [c.span for c in claims], {0, 2, 3})
    assert out == "## Refunds\n\n2. Approved refunds go back to your card.\n\nThat is all."
