"""Which claims the judge sees, on whose threads, within which deadline, and what the record keeps.

A claim goes to the judge when it was checked, has evidence, was not convicted by a verified
mismatch (deterministic evidence outranks any model), and its best entailment lies in
[lower, upper). Its deciding premise (the record's first evidence) and the claim are redacted
before they leave (scorers/redaction.py, the `redaction` section's entities and patterns, whether
or not stored records are redacted), then looked up in the cache, then charged to the budget.

Calls run on the judge's own thread pool, never on the batcher's thread; `review` waits for them
no longer than the caller's deadline, and each call's timeout is cut to what is left of it. The
judge decides nothing itself: the claim record gets a `judge` entry (the outcome, the judge's verdict
and reason, its raw reply, the small model's verdict), and `finalise` (scorers/verdicts/decide.py)
takes a valid reply as the verdict, a failed check still capping SUPPORTED at NOT_ENOUGH_INFO; any
other outcome keeps the small model's verdict.
"""

from __future__ import annotations

import time
from collections import Counter
from concurrent.futures import Future, ThreadPoolExecutor, wait

from groundwatch.config.judge import JudgeSettings
from groundwatch.config.logs import get_logger
from groundwatch.scorers.byte_cache import MB, ByteLRU
from groundwatch.scorers.deadline import Deadline
from groundwatch.scorers.verdicts.judge.budget import Budget
from groundwatch.scorers.verdicts.judge.cache import cache_key
from groundwatch.scorers.verdicts.judge.client import ChatClient, JudgeTimeout, JudgeUnavailable
from groundwatch.scorers.verdicts.judge.prompt import PROMPT_HASH, messages
from groundwatch.scorers.verdicts.judge.reply import JudgeReply, MalformedReply, parse_reply
from groundwatch.scorers.records import ClaimVerdict, Evidence, ResponseVerdict
from groundwatch.scorers.redaction import Redactor

log = get_logger(__name__)

MIN_CALL_S = 0.05   # less left of the caller's deadline than this: do not start a call
MAX_RAW_CHARS = 4000  # the raw reply kept in the record
RESERVE = 0.1  # share of the caller's remaining time the judge leaves unused
# Outcomes in the record and the log: judged / cached carry an answer (decide.JUDGE_ANSWERED), the others do not.
OUTCOMES = ("judged", "cached", "timeout", "malformed", "unavailable", "budget", "deadline")


def premise_text(evidence: Evidence, passages: dict[str, str]) -> str:
    """The premise as the NLI read it: its chunks' text, joined."""
    return " ".join(passages.get(pid, "")[start:end] for pid, (start, end) in zip(evidence.passage_ids,
                                                                                 evidence.offsets))


def _too_late(deadline: Deadline) -> bool:
    remaining = deadline.remaining()
    return remaining is not None and remaining < MIN_CALL_S


class Judge:
    def __init__(self, settings: JudgeSettings, redactor: Redactor, client=None,
                 clock=time.monotonic):
        self.settings = settings
        self.redactor = redactor
        self.client = client or ChatClient(settings.base_url, settings.model,
                                           settings.api_key.get_secret_value() if settings.api_key else None,
                                           settings.max_tokens)
        self.budget = Budget(settings.max_calls_per_s, settings.max_share_of_claims, clock,
                             settings.max_tokens_per_min)
        self.cache = ByteLRU(int(settings.cache_mb * MB), "judge replies")
        self._pool = ThreadPoolExecutor(settings.max_concurrent, thread_name_prefix="groundwatch-judge")
        self._said_unavailable = False  # an unreachable endpoint is one warning, not one per claim

    @classmethod
    def from_settings(cls, settings: JudgeSettings, redaction) -> "Judge":
        """`redaction` is the RedactionSettings section: its entities and patterns always apply here."""
        import re

        return cls(settings, Redactor(tuple(redaction.entities), tuple(re.compile(p) for p in redaction.patterns)))

    def version(self) -> dict:
        """What joins the scorer version: the judge's model, the prompt and the band."""
        return {"model": self.settings.model, "prompt": PROMPT_HASH,
                "lower": self.settings.lower, "upper": self.settings.upper}

    def in_band(self, claim: ClaimVerdict) -> bool:
        return (claim.scored and bool(claim.evidence) and "contradicted_by_check" not in claim.flags
                and self.settings.lower <= claim.entailment < self.settings.upper)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
        self.client.close()

    # -- review ---------------------------------------------------------------------------------------

    def review(self, verdicts: list, responses: list, deadline: Deadline | None = None) -> None:
        """Record the judge's answer on the in-band claims of every ResponseVerdict (others are left alone);
        `finalise` then decides with it."""
        deadline = deadline if deadline is not None else Deadline(None)
        outcomes: Counter[str] = Counter()
        pending: dict[Future, tuple[ClaimVerdict, str]] = {}
        for verdict, response in zip(verdicts, responses):
            if not isinstance(verdict, ResponseVerdict):
                continue
            self.budget.saw_claims(sum(1 for c in verdict.claims if c.scored))
            passages = {p.id: p.text for p in response.passages}
            for claim in verdict.claims:
                if not self.in_band(claim):
                    continue
                premise = self.redactor.text(premise_text(claim.evidence[0], passages))
                premise = premise[:self.settings.max_premise_chars]
                text = self.redactor.text(claim.text)
                key = cache_key(self.settings.model, premise, text)
                hit = self.cache.get(key)
                if hit is not None:
                    self._apply(claim, hit[0], hit[1], "cached", outcomes)
                elif _too_late(deadline):
                    self._fallback(claim, "deadline", outcomes)
                elif not self.budget.take():
                    self._fallback(claim, "budget", outcomes)
                else:
                    pending[self._pool.submit(self._call, premise, text, deadline)] = (claim, key)
        start = time.perf_counter()
        if pending:
            self._collect(pending, deadline, outcomes)
        if outcomes:
            log.info("judge_reviewed", claims=sum(outcomes.values()), duration_s=round(time.perf_counter() - start, 3),
                     **outcomes)

    def _call(self, premise: str, claim: str, deadline: Deadline) -> str:
        """On a judge thread: one chat call, its timeout cut to what is left of the deadline."""
        remaining = deadline.remaining()
        timeout = self.settings.timeout_s if remaining is None else min(self.settings.timeout_s, remaining)
        if timeout < MIN_CALL_S:
            raise JudgeTimeout("the caller's deadline passed before the call started")
        reply = self.client.complete(messages(premise, claim), timeout)
        self.budget.spent_tokens(reply.tokens)
        return reply.text

    def _collect(self, pending: dict, deadline: Deadline, outcomes: Counter) -> None:
        # Calls queue behind max_concurrent others: allow each wave its timeout, never past the deadline.
        waves = -(-len(pending) // self.settings.max_concurrent)
        bound = self.settings.timeout_s * waves + 1.0
        remaining = deadline.remaining()
        # A tenth of what is left stays for the stages after the judge (signals, policy) and the reply.
        done, late = wait(pending, timeout=bound if remaining is None else min(bound, remaining * (1 - RESERVE)))
        for future in late:
            future.cancel()  # a queued call never starts; a running one ends at its own timeout
            self._fallback(pending[future][0], "deadline" if deadline.expired() else "timeout", outcomes)
        for future in done:
            claim, key = pending[future]
            try:
                raw = future.result()
            except JudgeTimeout:
                self._fallback(claim, "timeout", outcomes)
                continue
            except JudgeUnavailable as exc:
                self._fallback(claim, "unavailable", outcomes, error=str(exc))
                continue
            except MalformedReply as exc:
                self._fallback(claim, "malformed", outcomes, error=str(exc))
                continue
            except Exception as exc:  # noqa: BLE001 - the judge must never cost a verdict
                self._fallback(claim, "unavailable", outcomes, error=type(exc).__name__)
                continue
            try:
                reply = parse_reply(raw)
            except MalformedReply as exc:
                self._fallback(claim, "malformed", outcomes, error=str(exc), raw=raw)
                continue
            self.cache.put(key, (reply, raw))
            self._apply(claim, reply, raw, "judged", outcomes)

    # -- the record -----------------------------------------------------------------------------------

    def _apply(self, claim: ClaimVerdict, reply: JudgeReply, raw: str, outcome: str, outcomes: Counter) -> None:
        claim.judge = {"model": self.settings.model, "outcome": outcome, "verdict": reply.verdict,
                       "reason": reply.reason, "raw": raw[:MAX_RAW_CHARS], "small_model_verdict": claim.verdict.value}
        outcomes[outcome] += 1

    def _fallback(self, claim: ClaimVerdict, outcome: str, outcomes: Counter, error: str | None = None,
                  raw: str | None = None) -> None:
        claim.judge = {"model": self.settings.model, "outcome": outcome, "verdict": None,
                       "small_model_verdict": claim.verdict.value}
        if error:
            claim.judge["error"] = error
        if outcome == "unavailable" and not self._said_unavailable:
            self._said_unavailable = True
            # The verdicts stand without the judge (the record says so per claim); the user hears it once.
            log.warning("judge_unavailable", url=getattr(self.client, "url", None), error=error)
        if raw is not None:
            claim.judge["raw"] = raw[:MAX_RAW_CHARS]
        outcomes[outcome] += 1
