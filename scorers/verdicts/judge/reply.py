"""The judge's reply, validated against its schema: {"verdict": one of three, "reason": a string}.

Anything else is a MalformedReply and the claim keeps the small model's verdict. One leniency: a
reply wrapped in a single Markdown code fence (```json ... ```) is unwrapped first, since many
chat models add one even when told not to.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

VERDICTS = ("SUPPORTED", "CONTRADICTED", "NOT_ENOUGH_INFO")
MAX_REASON_CHARS = 1000
_FENCE = re.compile(r"^```(?:json)?\s*\n?(?P<body>.*?)\n?```$", re.S)


class MalformedReply(ValueError):
    """The endpoint answered, but not with a verdict of the schema (the message names what is wrong)."""


@dataclass(frozen=True)
class JudgeReply:
    verdict: str
    reason: str


def parse_reply(text: str) -> JudgeReply:
    body = text.strip()
    fenced = _FENCE.match(body)
    if fenced:
        body = fenced["body"].strip()
    try:
        data = json.loads(body)
    except json.JSONDecodeError:
        raise MalformedReply("the reply is not JSON") from None
    if not isinstance(data, dict):
        raise MalformedReply("the reply is not a JSON object")
    extra = sorted(set(data) - {"verdict", "reason"})
    if extra:
        raise MalformedReply(f"unexpected keys {extra}")
    verdict, reason = data.get("verdict"), data.get("reason")
    if verdict not in VERDICTS:
        raise MalformedReply(f"verdict must be one of {list(VERDICTS)}")
    if not isinstance(reason, str):
        raise MalformedReply("reason must be a string")
    return JudgeReply(verdict, reason[:MAX_REASON_CHARS])
