"""The HTTP call to an OpenAI-compatible chat endpoint (vLLM, llama.cpp's server, a hosted API).

POST {base_url}/v1/chat/completions with temperature 0 and max_tokens; the reply text is
choices[0].message.content. Failures are sorted into the few outcomes the record and the logs
name: JudgeTimeout, JudgeUnavailable (connection refused, HTTP error status), MalformedReply
(an answer without a message). The API key goes in the Authorization header and nowhere else.
"""

from __future__ import annotations

from dataclasses import dataclass

import httpx

from groundwatch.config.unreachable import reason
from groundwatch.scorers.verdicts.judge.reply import MalformedReply


class JudgeTimeout(Exception):
    """No reply within the call's timeout."""


class JudgeUnavailable(Exception):
    """The endpoint could not be reached or answered with an error status."""


@dataclass(frozen=True)
class ChatReply:
    text: str
    tokens: int | None  # usage.total_tokens when the endpoint reports it


def endpoint(base_url: str) -> str:
    """The chat completions URL, whether base_url ends in /v1 (OpenAI's convention) or not."""
    base = base_url.rstrip("/")
    return (base if base.endswith("/v1") else base + "/v1") + "/chat/completions"


class ChatClient:
    def __init__(self, base_url: str, model: str, api_key: str | None = None, max_tokens: int = 256):
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self.url = endpoint(base_url)
        self.model = model
        self.max_tokens = max_tokens
        self._http = httpx.Client(headers=headers, follow_redirects=False)

    def complete(self, messages: list[dict[str, str]], timeout_s: float) -> ChatReply:
        body = {"model": self.model, "messages": messages, "temperature": 0, "max_tokens": self.max_tokens}
        try:
            response = self._http.post(self.url, json=body, timeout=timeout_s)
        except httpx.TimeoutException:
            raise JudgeTimeout(f"no reply within {timeout_s:.2f} s") from None
        except httpx.HTTPError as exc:
            raise JudgeUnavailable(f"judge endpoint unreachable ({reason(exc)})") from None
        if response.status_code != 200:
            raise JudgeUnavailable(f"the judge endpoint answered HTTP {response.status_code}")
        try:
            data = response.json()
            text = data["choices"][0]["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError):
            raise MalformedReply("the endpoint's answer holds no choices[0].message.content") from None
        if not isinstance(text, str):
            raise MalformedReply("choices[0].message.content is not a string")
        usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
        tokens = usage.get("total_tokens")
        return ChatReply(text, tokens if isinstance(tokens, int) else None)

    def close(self) -> None:
        self._http.close()
