"""An LLM judge for the uncertain band (the `judge` section of the settings).

Off by default, and an explicit opt-in: when enabled, the claims whose best entailment falls in
[lower, upper) are sent, redacted, with their deciding evidence, to an OpenAI-compatible
/v1/chat/completions endpoint (vLLM, llama.cpp's server, a hosted API). Every failure, a spent
budget or a late reply keeps the small model's verdict (scorers/verdicts/judge/).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, SecretStr, model_validator


class JudgeSettings(BaseModel):
    model_config = ConfigDict(frozen=True)

    enabled: bool = False  # answers and passages leave the system (redacted): an explicit opt-in
    base_url: str | None = None  # e.g. http://vllm:8000; the client appends /v1/chat/completions
    model: str | None = None     # the model name the endpoint serves
    api_key: SecretStr | None = None  # bearer token, from a Secret (GROUNDWATCH_JUDGE__API_KEY); never logged
    # The uncertain band of the claim's best entailment; defaults from the calibration half of the dev sets
    # (python -m groundwatch.evaluation.judge_coverage, docs/stronger-checker.md): the band that defers at most
    # 20% of claims with the best balanced accuracy on the rest.
    lower: float = Field(0.6, ge=0, le=1)
    upper: float = Field(0.9, ge=0, le=1)
    timeout_s: float = Field(10.0, gt=0)  # per call; never past the caller's deadline
    max_calls_per_s: float = Field(5.0, gt=0)
    max_share_of_claims: float = Field(0.2, gt=0, le=1)  # calls per checked claim, since start
    max_tokens: int = Field(256, ge=16)  # reply tokens per call (sent to the endpoint)
    # Prompt + reply tokens a minute, as the endpoint reports them (usage.total_tokens); None: no such cap.
    max_tokens_per_min: int | None = Field(None, ge=1000)
    max_premise_chars: int = Field(4000, ge=200)  # the evidence sent is cut to this length
    # Replies kept by (judge model, premise, claim), least recently used out first, in MB of memory (an
    # endpoint may answer longer than max_tokens asks); 0: no cache.
    cache_mb: float = Field(16.0, ge=0)
    max_concurrent: int = Field(4, ge=1)   # calls in flight at once (the judge's own threads)

    @model_validator(mode="after")
    def _usable(self) -> "JudgeSettings":
        if self.lower >= self.upper:
            raise ValueError(f"judge.lower ({self.lower}) must be below judge.upper ({self.upper})")
        if self.enabled and (not self.base_url or not self.model):
            raise ValueError("judge.enabled needs judge.base_url and judge.model")
        if self.base_url and not self.base_url.startswith(("http://", "https://")):
            raise ValueError("judge.base_url must start with http:// or https://")
        return self
