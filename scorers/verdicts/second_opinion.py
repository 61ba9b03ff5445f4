"""A larger NLI model as a second opinion: optional, off by default (scorer.second_opinion, its model directory).

The shipped model scores every pair as without it. A claim is escalated when
- the model's reading would make it CONTRADICTED (`contradicted`): a verified mismatch is not escalated,
  deterministic evidence outranks any model; or
- a premise's entailment lies within scorer.second_opinion_margin of that premise's entailment threshold
  (`uncertain`; margin 0: no band, only the claims about to be CONTRADICTED).
The larger model re-scores the premises the small one scored for that claim, through its own pair cache and
batcher (length-sorted batches closed on the same token budget), and `decide` reads its scores with the claim's
checks and the same thresholds. `finalise` (scorers/verdicts/decide.py) takes that verdict as the model's, so
CONTRADICTED then needs the larger model's contradiction; nothing here sets a verdict. A claim whose pairs
fail (its batch failed, or the deadline passed) keeps the small model's verdict, and its record says so; the
other claims are not touched.
"""

from __future__ import annotations

from collections import Counter
from concurrent.futures import Future
from dataclasses import dataclass, replace
from functools import partial

from groundwatch.config.logs import get_logger
from groundwatch.scorers.deadline import Deadline
from groundwatch.scorers.errors import DeadlineExceeded, ModelLoadError
from groundwatch.scorers.nli.base import NLIBackend, model_version
from groundwatch.scorers.nli.batcher import DynamicBatcher
from groundwatch.scorers.nli.pair_scorer import PairScorer
from groundwatch.scorers.records import ClaimVerdict, Evidence, Verdict
from groundwatch.scorers.verdicts.decide import decide
from groundwatch.scorers.verdicts.thresholds import Thresholds

log = get_logger(__name__)

REASONS = ("contradicted", "uncertain")
OUTCOMES = ("rescored", "failed", "deadline")  # rescored: the larger model's verdict counts; else the small one's


def escalation(claim: ClaimVerdict, thresholds: Thresholds, margin: float) -> str | None:
    """Why the larger model re-reads `claim` (one of REASONS), or None."""
    if not claim.scored or not claim.evidence:
        return None
    if claim.verdict is Verdict.CONTRADICTED:
        return None if "contradicted_by_check" in claim.flags else "contradicted"
    for e in claim.evidence:
        tau = thresholds.entailment(e.retrieval_score)
        if tau - margin <= e.entailment < tau + margin:
            return "uncertain"
    return None


def reread(claim: ClaimVerdict, evidence: list[Evidence], thresholds: Thresholds) -> Verdict:
    """The verdict the larger model's scores of the claim's premises give, with the claim's own checks."""
    verdict, _ = decide(evidence, claim.checks, thresholds)
    return verdict


@dataclass
class Escalated:
    """A claim to re-read: its record, why, and each scored premise as (its evidence, premise text, claim text)."""

    claim: ClaimVerdict
    reason: str
    premises: list[tuple[Evidence, str, str]]


class SecondOpinion:
    def __init__(self, backend: NLIBackend, thresholds: Thresholds, margin: float, model: str,
                 max_batch_tokens: int, max_batch_size: int, max_wait_ms: float, rewrite=None, on_batch=None,
                 cache_size: int = 100_000, on_lookups=None):
        if backend.kind.two_way:
            raise ModelLoadError(f"scorer.second_opinion: {backend.model_dir} is a two-way model ({backend.kind.name}); "
                                 "a second opinion must read contradiction (an nli3 model)")
        self.backend = backend
        self.thresholds = thresholds
        self.margin = margin
        self.model = model  # name@digest, as in verdict records
        self.batcher = DynamicBatcher(backend, max_batch_tokens, max_batch_size, max_wait_ms, on_batch=on_batch)
        self.pairs = PairScorer(backend, self.batcher, model, cache_size, rewrite=rewrite, on_lookups=on_lookups)
        self.counts: Counter[str] = Counter()  # claims seen, and escalated by reason and outcome

    def version(self) -> dict:
        """What joins the scorer version: the larger model and the band."""
        return {"model": self.model, "margin": self.margin}

    def close(self) -> None:
        self.batcher.close()

    def escalation(self, claim: ClaimVerdict) -> str | None:
        return escalation(claim, self.thresholds, self.margin)

    def review(self, escalated: list[Escalated], claims_seen: int, deadline: Deadline | None = None) -> None:
        """Re-score every escalated claim's premises in one submission, then record each claim's second opinion."""
        deadline = deadline if deadline is not None else Deadline(None)
        self.counts["claims"] += claims_seen
        futures: list[list[Future]] = []
        with self.batcher.submitting():  # one submission per claim: the batcher waits for them all
            for item in escalated:
                try:
                    futures.append(self.pairs.submit([(p, h) for _, p, h in item.premises], deadline.ends_at()))
                except Exception as exc:  # noqa: BLE001 - a batcher that refuses fails this claim only
                    futures.append([_failed(exc)])
        for item, claim_futures in zip(escalated, futures):
            self._record(item, claim_futures, deadline)

    def _record(self, item: Escalated, futures: list[Future], deadline: Deadline) -> None:
        claim = item.claim
        record = {"model": self.model, "reason": item.reason, "small_model_verdict": claim.verdict.value}
        try:
            scores = [deadline.result(f) for f in futures]
        except DeadlineExceeded:
            record.update(outcome="deadline", verdict=None)
        except Exception as exc:  # noqa: BLE001 - the batcher hands every pair of a failed batch the error
            record.update(outcome="failed", verdict=None, error=type(exc).__name__)
            log.warning("second_opinion_failed", error=type(exc).__name__)
        else:
            evidence = [replace(e, entailment=round(s.entailment, 4), neutral=round(s.neutral, 4),
                                contradiction=round(s.contradiction, 4))
                        for (e, _, _), s in zip(item.premises, scores)]
            record.update(outcome="rescored", verdict=reread(claim, evidence, self.thresholds).value,
                          entailment=max(e.entailment for e in evidence),
                          contradiction=max(e.contradiction for e in evidence))
        claim.second_opinion = record
        self.counts[f"{item.reason}_{record['outcome']}"] += 1

    def share_escalated(self) -> float:
        """Escalated claims over scored claims seen so far."""
        escalated = sum(n for k, n in self.counts.items() if k != "claims")
        return escalated / self.counts["claims"] if self.counts["claims"] else 0.0


def _failed(exc: Exception) -> Future:
    future: Future = Future()
    future.set_exception(exc)
    return future


def load_second_opinion(config, thresholds: Thresholds, on_batch=None, on_pair_cache=None) -> SecondOpinion | None:
    """The second opinion a ScorerConfig describes (None when scorer.second_opinion is unset)."""
    if not config.second_opinion:
        return None
    from groundwatch.scorers.english.polarity_form import polarity_form
    from groundwatch.scorers.nli.factory import backend_of, load_backend

    try:  # its directory picks its backend: a checkpoint alone runs on torch beside an ONNX small model
        backend = load_backend(config.second_opinion, backend_of(config.second_opinion, config.backend),
                               config.providers, config.max_length, config.threads, config.int8_compute,
                               config.torch_compute)
    except ModelLoadError as exc:
        raise ModelLoadError(f"scorer.second_opinion: {exc}") from None
    return SecondOpinion(backend, thresholds, config.second_opinion_margin, model_version(backend),
                         config.max_batch_tokens, config.max_batch_size, config.max_wait_ms,
                         rewrite=polarity_form if config.polarity_form else None, on_batch=on_batch,
                         cache_size=config.pair_cache_size,
                         on_lookups=partial(on_pair_cache, "second_opinion") if on_pair_cache else None)
