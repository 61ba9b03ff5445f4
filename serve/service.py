"""The inline check without HTTP: parse, queue for the shared scorer, wait within the deadline, decide.

Every request gets a deadline (serve.deadline_s, or less when the client asks).
The answer comes within it: the verdict, the policy's action and the answer to
send; or, once the deadline passed, what is known (the claims with their spans
and severities, where the request was) and the policy's on_timeout action. A
response whose scoring failed gets the on_error action. Nothing here logs
answer, question or passage text.
"""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import Future
from dataclasses import asdict, dataclass, field, replace

from groundwatch.config.logs import get_logger
from groundwatch.config.settings import ServeSettings
from groundwatch.export.metrics import Metrics
from groundwatch.scorers.answer.claims import decompose, given_claims
from groundwatch.scorers.errors import InvalidResponse, ScoringError
from groundwatch.scorers.verdicts.policy import ActionPolicy
from groundwatch.scorers.records import PolicyDecision, ResponseVerdict
from groundwatch.scorers.schema import LIMIT_REASONS, RecordLimits, Response, parse_response
from groundwatch.scorers.verdicts.severity import severity
from groundwatch.scorers.text_check import check_text
from groundwatch.serve.collector import Collector, Overloaded

log = get_logger(__name__)


@dataclass(frozen=True)
class RequestDeadline:
    """The time budget of one HTTP request, on the monotonic clock."""

    budget_s: float
    started: float = field(default_factory=time.monotonic)

    def remaining(self) -> float:
        return max(0.0, self.started + self.budget_s - time.monotonic())

    def elapsed(self) -> float:
        return time.monotonic() - self.started


@dataclass
class Outcome:
    """One response's answer: HTTP-like status and JSON body."""

    status: int
    body: dict


class CheckService:
    def __init__(self, settings: ServeSettings, scorer, metrics: Metrics, policy: ActionPolicy | None,
                 limits: tuple[int, int] = (1_000_000, 100), publisher=None, probe=None):
        self.settings = settings
        # scorers.health.ScheduledCheck of the model, run on its own thread; None: no probe (tests)
        self.probe = probe
        self.scorer = scorer
        self.metrics = metrics
        self.policy = policy
        self.max_record_bytes, self.max_passages = limits
        self.publisher = publisher
        config = getattr(scorer, "config", None)
        # The consumer's record limits (depth, lengths, counts), checked before any scoring work.
        self.record_limits = replace(RecordLimits.from_config(config) if config is not None else RecordLimits(),
                                     max_bytes=self.max_record_bytes, max_passages=self.max_passages)
        self.collector = Collector(scorer, settings.max_batch_responses, settings.max_queue,
                                   settings.collect_wait_ms, on_batch=lambda n, s: metrics.observe_serve_batch(n),
                                   future_s=getattr(config, "future_timeout_s", None))
        self.model_loaded = False
        self.stopping = False

    # -- health ---------------------------------------------------------------

    def problems(self) -> list[str]:
        """Why requests should not come here now (readiness); never blocks."""
        out = []
        if not self.model_loaded:
            out.append("model not loaded")
        if not self.collector.alive:
            out.append("scorer thread not running")
        busy = self.collector.busy_for()
        if busy > self.stall_s:
            out.append(f"scorer call running for {busy:.0f} s (over serve.collector_stall_s)")
        if self.stopping:
            out.append("shutting down")
        return out

    @property
    def stall_s(self) -> float:
        """A scorer call longer than this is stalled: serve.collector_stall_s, at least twice the deadline."""
        return max(self.settings.collector_stall_s, 2 * self.settings.deadline_s)

    def liveness(self) -> str | None:
        """The last answer of the background model probe (None: fine, or no answer yet); never runs the model."""
        return self.probe.problem() if self.probe is not None else None

    def close(self) -> None:
        if self.stopping:
            return
        self.stopping = True
        if self.probe is not None:
            self.probe.stop()
        self.collector.close()
        if self.publisher is not None:
            self.publisher.close()

    # -- requests -------------------------------------------------------------

    def parse(self, record) -> Response:
        """groundwatch.response.v1 under the scorer's limits; InvalidResponse names the field."""
        return parse_response(record, limits=self.record_limits)

    def deadline(self, requested_ms: float | None = None) -> RequestDeadline:
        budget = self.settings.deadline_s
        if requested_ms is not None and requested_ms > 0:
            budget = min(budget, requested_ms / 1000.0)
        return RequestDeadline(budget)

    async def check(self, responses: list[Response], deadline: RequestDeadline,
                    include_passages: bool = False) -> list[Outcome]:
        """One outcome per response, by position; returns by the deadline at the latest."""
        futures: list[Future | Outcome] = []
        for response in responses:
            try:
                futures.append(self.collector.submit(response, deadline.remaining()))
            except Overloaded as exc:
                futures.append(Outcome(503, {"request_id": response.request_id, "error": "overloaded",
                                             "message": str(exc)}))
        waiting = {i: asyncio.wrap_future(f) for i, f in enumerate(futures) if isinstance(f, Future)}
        if waiting:
            await asyncio.wait(waiting.values(), timeout=deadline.remaining())
        states: list[Outcome | Future | str] = []
        for i, f in enumerate(futures):
            if isinstance(f, Future) and not (f.done() and not f.cancelled()):
                f = "scoring" if f.running() else "queued"
                waiting[i].cancel()  # cancels a queued one (skipped); a running one finishes unread
            states.append(f)
        # Records, policy rewrites and what a timed-out answer's claims are: CPU work, off the event loop.
        outcomes = await asyncio.to_thread(self._outcomes, responses, states, deadline, include_passages)
        scored = [o.body.pop("_verdict") for o in outcomes if "_verdict" in o.body]
        if scored and self.publisher is not None:
            self.publisher.publish(scored)
        return outcomes

    # -- outcomes -------------------------------------------------------------

    def _outcomes(self, responses: list[Response], states: list, deadline: RequestDeadline,
                  include_passages: bool) -> list[Outcome]:
        outcomes = []
        for response, state in zip(responses, states):
            if isinstance(state, Outcome):
                outcomes.append(state)
            elif isinstance(state, str):
                outcomes.append(self._timed_out(response, state, deadline))
            else:
                error = state.exception()
                outcomes.append(self._failed(response, error) if error else
                                self._scored(response, state.result(), include_passages))
        return outcomes

    def _scored(self, response: Response, result, include_passages: bool) -> Outcome:
        if isinstance(result, ScoringError):
            return self._failed(response, result)
        verdict: ResponseVerdict = result
        self.metrics.scored([verdict])
        record = verdict.to_dict()
        if not include_passages:
            record.pop("passages", None)  # the caller sent them
        body = {"request_id": verdict.request_id, "action": None, "answer": response.answer, "changed": False,
                "verdict": record}
        if self.policy is not None and verdict.action is not None:
            rewritten = self.policy.apply(response.answer, verdict, verdict.action)
            body.update(action=asdict(rewritten.decision), answer=rewritten.answer,
                        changed=rewritten.answer != response.answer)
        body["_verdict"] = verdict
        return Outcome(200, body)

    def _fallback(self, response: Response, kind: str, detail: str) -> dict:
        if self.policy is None:
            return {"action": None, "answer": response.answer}
        decision: PolicyDecision = self.policy.fallback(kind, detail)
        self.metrics.action(decision.action, decision.rule)
        rewritten = self.policy.apply(response.answer, None, decision)
        return {"action": asdict(rewritten.decision), "answer": rewritten.answer}

    def _failed(self, response: Response, error: BaseException) -> Outcome:
        reason = getattr(error, "reason", None) or type(error).__name__
        self.metrics.scorer_error(reason)
        log.error("serve_score_failed", request_id=response.request_id, reason=reason,
                  error_class=type(error).__name__)
        if reason == "deadline":  # the scorer's own deadline passed first
            return self._timed_out(response, "scoring", None)
        if getattr(error, "stage", None) == "limits":  # too many claims, chunks or pairs: refused before the work
            body = {"request_id": response.request_id, "error": "too_large", "reason": reason, "message": str(error)}
            body.update(self._fallback(response, "error", f"over a scorer limit ({reason})"))
            return Outcome(413, body)
        body = {"request_id": response.request_id, "error": "scoring_failed", "reason": reason}
        body.update(self._fallback(response, "error", f"scoring failed ({reason})"))
        return Outcome(500, body)

    def _timed_out(self, response: Response, stage: str, deadline: RequestDeadline | None) -> Outcome:
        log.warning("serve_deadline_exceeded", request_id=response.request_id, stage=stage,
                    deadline_s=deadline.budget_s if deadline else None)
        claims = given_claims(response.answer, response.claims) if response.claims else decompose(response.answer)
        body = {"request_id": response.request_id, "error": "deadline_exceeded", "stage": stage,
                "deadline_s": deadline.budget_s if deadline else None,
                "elapsed_s": round(deadline.elapsed(), 4) if deadline else None,
                # What is known without the model: the claims, where they sit, how much they matter.
                "claims": [{"index": i, "text": c.text, "span": list(c.span), "severity": severity(c.text),
                            "verdict": None} for i, c in enumerate(claims)],
                "verdict": None}
        body.update(self._fallback(response, "timeout", f"deadline passed while {stage}"))
        return Outcome(504, body)


def invalid(error: InvalidResponse, request_id: str | None = None) -> Outcome:
    """413 for a record over a limit (its reason names which), 422 for an invalid one."""
    too_large = error.reason in LIMIT_REASONS
    return Outcome(413 if too_large else 422, {"request_id": request_id, "error": "too_large" if too_large
                                               else "invalid_response", "reason": error.reason,
                                               "field": error.field, "message": str(error)})


def readable_request_id(record) -> str | None:
    """The request id of a record that failed validation, when it has a usable one (for the error body)."""
    value = record.get("request_id") if isinstance(record, dict) else None
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        return None
    value = str(value)
    try:
        check_text(value, "request_id", is_id=True)  # an id that is not text cannot go back in a JSON body
    except InvalidResponse:
        return None
    return value if 0 < len(value) <= 512 else None
