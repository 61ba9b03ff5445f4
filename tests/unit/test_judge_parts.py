"""The judge's parts alone: reply schema, prompt, endpoint URL, budget, cache, settings and the scorer version."""

from __future__ import annotations

import pytest
from pydantic import SecretStr, ValidationError

from groundwatch.config.judge import JudgeSettings
from groundwatch.config.redaction import RedactionSettings
from groundwatch.config.scorer import ScorerConfig
from groundwatch.config.settings import Settings
from groundwatch.scorers.verdicts.judge.budget import Budget
from groundwatch.scorers.verdicts.judge.cache import cache_key
from groundwatch.scorers.verdicts.judge.client import endpoint
from groundwatch.scorers.verdicts.judge.judge import Judge
from groundwatch.scorers.verdicts.judge.prompt import PROMPT_HASH, messages
from groundwatch.scorers.verdicts.judge.reply import JudgeReply, MalformedReply, parse_reply
from groundwatch.scorers.version import scorer_version


def test_a_reply_of_the_schema_is_accepted_also_inside_one_code_fence():
    assert parse_reply('{"verdict": "CONTRADICTED", "reason": "30 days, not 60."}') == \
        JudgeReply("CONTRADICTED", "30 days, not 60.")
    assert parse_reply('```json\n{"verdict": "SUPPORTED", "reason": ""}\n```').verdict == "SUPPORTED"


@pytest.mark.parametrize("text, problem", [
    ("The claim is supported.", "not JSON"),
    ('["SUPPORTED"]', "not a JSON object"),
    ('{"verdict": "supported", "reason": "x"}', "verdict must be one of"),
    ('{"verdict": "TRUE", "reason": "x"}', "verdict must be one of"),
    ('{"verdict": "SUPPORTED"}', "reason must be a string"),
    ('{"verdict": "SUPPORTED", "reason": 3}', "reason must be a string"),
    ('{"verdict": "SUPPORTED", "reason": "x", "confidence": 0.9}', "unexpected keys"),
])
def test_anything_else_is_malformed(text, problem):
    with pytest.raises(MalformedReply, match=problem):
        parse_reply(text)


def test_the_prompt_carries_premise_and_claim_and_asks_for_the_three_verdicts():
    system, user = messages("Refunds within 30 days.", "Refunds within 60 days.")
    assert system["role"] == "system" and user["role"] == "user"
    for verdict in ("SUPPORTED", "CONTRADICTED", "NOT_ENOUGH_INFO"):
        assert verdict in system["content"]
    assert "Refunds within 30 days." in user["content"] and "Refunds within 60 days." in user["content"]
    assert len(PROMPT_HASH) == 10 and int(PROMPT_HASH, 16) >= 0


@pytest.mark.parametrize("base", ["http://h:8000", "http://h:8000/", "http://h:8000/v1", "http://h:8000/v1/"])
def test_the_endpoint_url_with_or_without_v1(base):
    assert endpoint(base) == "http://h:8000/v1/chat/completions"


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_the_budget_caps_the_share_of_claims():
    budget = Budget(calls_per_s=1000, max_share=0.25, clock=Clock())
    budget.saw_claims(1)
    assert budget.take()          # ceil(0.25 x 1) = 1: the first uncertain claim may be judged
    assert not budget.take()
    budget.saw_claims(7)          # 8 claims: 2 calls
    assert budget.take() and not budget.take()
    assert budget.calls == 2


def test_the_budget_caps_calls_per_second_without_waiting():
    clock = Clock()
    budget = Budget(calls_per_s=2, max_share=1.0, clock=clock)
    budget.saw_claims(100)
    assert budget.take() and budget.take() and not budget.take()
    clock.now = 0.5               # half a second refills one call
    assert budget.take() and not budget.take()


def test_the_budget_charges_reported_tokens_a_minute():
    clock = Clock()
    budget = Budget(calls_per_s=100, max_share=1.0, clock=clock, tokens_per_min=1200)
    budget.saw_claims(100)
    assert budget.take()
    budget.spent_tokens(1500)     # one reply may overdraw the minute's tokens
    assert not budget.take()
    clock.now = 16.0              # 20 tokens a second: back above zero after 15 s
    assert budget.take()
    budget.spent_tokens(None)     # an endpoint without usage charges nothing


def test_the_cache_is_keyed_by_model_premise_and_claim_and_bounded_in_bytes():
    keys = [cache_key("m", "p", "c"), cache_key("m2", "p", "c"), cache_key("m", "p2", "c")]
    assert len(set(keys)) == 3 and "p" not in keys[0]
    judge = _judge(cache_mb=0.01)
    reply = JudgeReply("SUPPORTED", "r")
    judge.cache.put(keys[0], (reply, "raw"))
    assert judge.cache.get(keys[0]) == (reply, "raw")
    for i in range(200):  # long replies: the oldest leave so the total stays under 0.01 MB
        judge.cache.put(cache_key("m", f"p{i}", "c"), (reply, "x" * 200))
    assert judge.cache.get(keys[0]) is None and judge.cache.nbytes <= 0.01 * (1 << 20)
    off = _judge(cache_mb=0)
    assert not off.cache.put(keys[0], (reply, "raw")) and len(off.cache) == 0  # 0: nothing kept, nothing fails
    judge.close()
    off.close()


def _judge(**settings) -> Judge:
    return Judge.from_settings(JudgeSettings(enabled=True, base_url="http://127.0.0.1:9", model="m", **settings),
                               RedactionSettings())


def test_settings_off_by_default_and_checked():
    assert Settings().judge.enabled is False
    with pytest.raises(ValidationError, match="judge.lower"):
        JudgeSettings(lower=0.8, upper=0.5)
    with pytest.raises(ValidationError, match="needs judge.base_url and judge.model"):
        JudgeSettings(enabled=True)
    with pytest.raises(ValidationError, match="http"):
        JudgeSettings(base_url="vllm:8000")


def test_the_api_key_is_a_secret_that_the_settings_log_masks(monkeypatch):
    monkeypatch.setenv("GROUNDWATCH_JUDGE__API_KEY", "sk-test-do-not-log")
    settings = Settings()
    assert isinstance(settings.judge.api_key, SecretStr)
    assert settings.judge.api_key.get_secret_value() == "sk-test-do-not-log"
    assert "sk-test-do-not-log" not in str(settings.masked()) and "sk-test-do-not-log" not in repr(settings)


def test_the_judge_joins_the_scorer_version_only_when_enabled():
    config = ScorerConfig()
    plain = scorer_version(config, "m@1")
    assert scorer_version(config, "m@1", None, None) == plain
    judged = scorer_version(config, "m@1", None, {"model": "j", "prompt": PROMPT_HASH, "lower": 0.4, "upper": 0.7})
    assert judged != plain
    assert scorer_version(config, "m@1", None, {"model": "j2", "prompt": PROMPT_HASH, "lower": 0.4,
                                                "upper": 0.7}) != judged
    assert scorer_version(config, "m@1", None, {"model": "j", "prompt": "0" * 10, "lower": 0.4,
                                                "upper": 0.7}) != judged
