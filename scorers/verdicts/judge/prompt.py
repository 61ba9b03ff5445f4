"""The judge's prompt: the deciding evidence and the claim, asking for one JSON verdict.

`PROMPT_HASH` joins the scorer version when the judge is enabled (scorers/version.py): a changed
prompt is a changed scorer. The evidence and claim arrive redacted (scorers/verdicts/judge/judge.py).
"""

from __future__ import annotations

import hashlib

SYSTEM = (
    "You check whether a claim is grounded in the evidence given. Use only the evidence, not what you know. "
    "Answer with one JSON object and nothing else: "
    '{"verdict": "SUPPORTED" | "CONTRADICTED" | "NOT_ENOUGH_INFO", "reason": "<one sentence>"}. '
    "SUPPORTED: the evidence states or directly implies the claim. CONTRADICTED: the evidence states "
    "something incompatible with the claim. NOT_ENOUGH_INFO: neither."
)
USER = "Evidence:\n<<<\n{premise}\n>>>\n\nClaim:\n<<<\n{claim}\n>>>"

PROMPT_HASH = hashlib.sha256((SYSTEM + "\n" + USER).encode("utf-8")).hexdigest()[:10]


def messages(premise: str, claim: str) -> list[dict[str, str]]:
    """Chat messages for one (premise, claim) pair, in the OpenAI chat format."""
    return [{"role": "system", "content": SYSTEM},
            {"role": "user", "content": USER.format(premise=premise, claim=claim)}]
