"""One compact alert per response with a contradicted or a high-severity unsupported claim.

Alerts carry ids, verdicts and scores, never answer or passage text: the
full record is in OpenSearch under `doc_id`. They go to the alerts topic
(keyed by app and request_id, delivery awaited) and, if configured, to a webhook.
The topic is the durable channel; a webhook that is down is counted and
logged but does not hold back offsets.
"""

from __future__ import annotations

import json
from typing import Callable, Sequence

from groundwatch.config.logs import get_logger
from groundwatch.export.delivery import Record, produce_and_confirm
from groundwatch.scorers.identity import app_prefixed
from groundwatch.scorers.records import ClaimVerdict, ResponseVerdict, Verdict

log = get_logger(__name__)

ALERT_SCHEMA = "groundwatch.alert.v1"
SINK = "alerts"
WEBHOOK_SINK = "webhook"
METADATA_KEYS = ("app", "model", "tenant")
CHANGING_ACTIONS = ("hedge", "strip", "block")  # policy actions that alter what the user sees


def _alerting(claim: ClaimVerdict) -> bool:
    if claim.verdict is Verdict.CONTRADICTED:
        return True
    return claim.scored and claim.severity == "high" and claim.verdict is not Verdict.SUPPORTED


def _deciding_passages(claim: ClaimVerdict) -> list[str]:
    """Passage ids of the premise behind the verdict: most contradicting, else most entailing."""
    if not claim.evidence:
        return []
    key = (lambda e: e.contradiction) if claim.verdict is Verdict.CONTRADICTED else (lambda e: e.entailment)
    return list(dict.fromkeys(max(claim.evidence, key=key).passage_ids))


def alert_key(alert: dict) -> str:
    """The alerts topic's record key: two apps that reuse a request id are two keys."""
    return app_prefixed(alert["metadata"].get("app"), alert["request_id"])


def build_alert(verdict: ResponseVerdict) -> dict | None:
    """The alert for one verdict, or None when nothing in it calls for one.

    A policy action that changes the answer (hedge, strip, block) also raises one, so a rule
    that blocks on a flag alone is seen; `action` carries the decision (null without a policy).
    """
    decision = verdict.action
    acting = decision is not None and decision.action in CHANGING_ACTIONS
    decided = set(decision.claims) if acting else set()
    claims = [c for c in verdict.claims if _alerting(c) or c.index in decided]
    if not claims and not acting:
        return None
    reasons = []
    if any(c.verdict is Verdict.CONTRADICTED for c in claims):
        reasons.append("contradicted")
    if any(c.scored and c.severity == "high" and c.verdict is not Verdict.SUPPORTED for c in claims):
        reasons.append("high_severity_unsupported")
    if acting:
        reasons.append(f"action_{decision.action}")
    return {
        "schema": ALERT_SCHEMA,
        "request_id": verdict.request_id,
        "doc_id": verdict.doc_id,
        "scorer_version": verdict.scorer_version,
        "model": verdict.model,
        "timestamp": verdict.timestamp,
        "scored_at": verdict.scored_at,
        "metadata": {k: verdict.metadata[k] for k in METADATA_KEYS if verdict.metadata.get(k) is not None},
        "reasons": reasons,
        "claims": [{
            "index": c.index,
            "verdict": c.verdict.value,
            "severity": c.severity,
            "entailment": c.entailment,
            "contradiction": c.contradiction,
            "passage_ids": _deciding_passages(c),
        } for c in claims],
        "action": None if decision is None else {"action": decision.action, "rule": decision.rule,
                                                 "reason": decision.reason, "claims": decision.claims,
                                                 "stripped": decision.stripped},
    }


class Webhook:
    """POSTs alerts as JSON with an optional bearer token; one client, short timeouts."""

    def __init__(self, url, token: str | None = None, timeout_s: float = 5.0):
        import httpx

        headers = {"Authorization": f"Bearer {token}"} if token else {}
        # The URL is a credential (alerts.webhook_url is a SecretStr): unwrapped only here, kept private.
        self._url = url.get_secret_value() if hasattr(url, "get_secret_value") else url
        self._client = httpx.Client(headers=headers, timeout=timeout_s)

    def __repr__(self) -> str:
        return "Webhook(url='**********')"

    def post(self, alert: dict) -> None:
        self._client.post(self._url, json=alert).raise_for_status()

    def close(self) -> None:
        self._client.close()


class AlertSink:
    name = SINK

    def __init__(self, producer, topic: str, timeout_s: float = 30.0, webhook: Webhook | None = None,
                 on_webhook_failure: Callable[[str], None] | None = None):
        self.producer = producer
        self.topic = topic
        self.timeout_s = timeout_s
        self.webhook = webhook
        self._on_webhook_failure = on_webhook_failure or (lambda reason: None)
        self.sent = 0

    def write(self, verdicts: Sequence[ResponseVerdict]) -> None:
        alerts = [a for a in map(build_alert, verdicts) if a is not None]
        if not alerts:
            return
        records = [Record(self.topic, json.dumps(a, separators=(",", ":")).encode(), alert_key(a).encode(),
                          [("groundwatch.schema", ALERT_SCHEMA.encode())]) for a in alerts]
        # A refused alert names its verdict's doc_id, so the consumer can dead-letter that message.
        produce_and_confirm(self.producer, records, self.timeout_s, SINK, ids=[a["doc_id"] for a in alerts])
        self.sent += len(alerts)
        if self.webhook:
            self._post(alerts)

    def _post(self, alerts: list[dict]) -> None:
        import httpx

        for i, alert in enumerate(alerts):
            try:
                self.webhook.post(alert)
            except httpx.HTTPError as exc:
                # Skip the rest of this batch: a dead endpoint must not stall it once per alert.
                reason = (f"http_{exc.response.status_code}" if isinstance(exc, httpx.HTTPStatusError)
                          else type(exc).__name__.lower())
                log.warning("webhook_failed", reason=reason, alerts_not_posted=len(alerts) - i)
                self._on_webhook_failure(reason)
                return

    def close(self) -> None:
        if self.webhook:
            self.webhook.close()

