"""The scoring pipeline: response -> claims -> checks -> evidence -> NLI -> verdicts.

All pairs of all responses handed to `score` go to the dynamic batcher at
once, so many responses share one model batch.

`score` is total: whatever one response does to a stage (claims, embed,
evidence, limits, pairs, conflicts, inference, verdict) becomes a ScoringError naming
that stage, in that response's place; the others go on. Model results are
awaited only through a Deadline (scorers/deadline.py): per batch and per
future, so a hung backend cannot hold the caller past its deadline.
"""

from __future__ import annotations

import time
from concurrent.futures import Future
from dataclasses import dataclass, field
from datetime import datetime, timezone
from functools import partial
from typing import Callable

from groundwatch.config.scorer import ScorerConfig
from groundwatch.scorers.evidence.cascade import settled, single_premises
from groundwatch.scorers.guards.checks import cited_ids_for, run_checks
from groundwatch.scorers.evidence.chunking import Chunk, chunk_passages
from groundwatch.scorers.answer.claims import Claim, ClaimCache, cited_markers, given_claims
from groundwatch.scorers.verdicts.combiner import claim_features, combiner_path, load_combiner
from groundwatch.scorers.evidence.conflicts import ConflictFinder
from groundwatch.scorers.verdicts.decide import decide, finalise
from groundwatch.scorers.answer.decorative import decorative_reason
from groundwatch.scorers.deadline import Deadline
from groundwatch.scorers.errors import DeadlineExceeded, ScoringError
from groundwatch.scorers.guards.arithmetic import derived_values, operand_form
from groundwatch.scorers.english.lemmas import warmup as lemma_warmup
from groundwatch.scorers.guards.stage import arithmetic_guard, guard_claim, recorded, to_check
from groundwatch.scorers.english.language import not_english
from groundwatch.scorers.identity import content_hash
from groundwatch.scorers.nli.base import NLIBackend, model_version
from groundwatch.scorers.nli.batcher import DynamicBatcher
from groundwatch.scorers.nli.pair_scorer import PairScorer
from groundwatch.scorers.english.quantities import passage_quantities
from groundwatch.scorers.verdicts.policy import ActionPolicy
from groundwatch.scorers.verdicts.second_opinion import Escalated, SecondOpinion, load_second_opinion
from groundwatch.scorers.english.polarity_form import polarity_form
from groundwatch.scorers.evidence.recency import superseded
from groundwatch.scorers.records import Check, ClaimVerdict, Evidence, ResponseVerdict, Verdict
from groundwatch.scorers.evidence.retrieval import Candidate, Embedder, EvidenceIndex
from groundwatch.scorers.schema import Response
from groundwatch.scorers.verdicts.signals import add_signals
from groundwatch.scorers.evidence.sentence_premise import sentence_candidate
from groundwatch.scorers.verdicts.severity import severity
from groundwatch.scorers.verdicts.thresholds import Thresholds
from groundwatch.scorers.version import scorer_version
from groundwatch.scorers.evidence.window_cap import windows_over
from groundwatch.scorers.answer.yes_no import answered_statement

StageTimer = Callable[[str, float], None]


@dataclass
class _PreparedClaim:
    index: int
    claim: Claim
    severity: str
    skip_reason: str | None
    checks: list[Check]
    # what the NLI reads instead of the claim: its verified derived numbers written as their operands
    # (scorers.guards.arithmetic.operand_form), or None
    nli_text: str | None = None
    candidates: list[Candidate] = field(default_factory=list)
    # positions in `candidates` submitted to the model so far, and their futures, in submission order
    ranks: list[int] = field(default_factory=list)
    futures: list[Future] = field(default_factory=list)

    @property
    def hypothesis(self) -> str:
        return self.nli_text or self.claim.text

    def scored(self) -> list[tuple[int, Future]]:
        """(position, future) of every submitted premise, in the candidates' order."""
        return sorted(zip(self.ranks, self.futures), key=lambda pair: pair[0])


@dataclass
class _Prepared:
    response: Response
    claims: list[_PreparedClaim]
    chunks: list[Chunk]
    index: EvidenceIndex | None = None


class Scorer:
    def __init__(self, config: ScorerConfig, backend: NLIBackend, embedder: Embedder | None = None,
                 stage_timer: StageTimer | None = None, on_batch=None, policy: ActionPolicy | None = None,
                 corpus=None, corpus_settings=None, judge=None, second_opinion: SecondOpinion | None = None,
                 on_pair_cache=None):
        self.config = config
        self.backend = backend
        self.embedder = embedder
        self.thresholds = Thresholds.from_config(config)
        self.model = model_version(backend)
        self.combiner = (load_combiner(combiner_path(config.combiner_path, backend.model_dir), self.model)
                         if config.verdict_rule == "combiner" else None)
        # The larger model for the uncertain and the about-to-be-CONTRADICTED claims; None: off (the default)
        # on_pair_cache(model, hits, misses, joined, entries): each model's pair-cache lookups, for the metrics
        self.second_opinion = second_opinion or load_second_opinion(config, self.thresholds, on_batch, on_pair_cache)
        # Model + combiner + deciding settings (scorers/version.py): in every document id and verdict metric.
        self.version = scorer_version(config, self.model, self.combiner.to_dict() if self.combiner else None,
                                      judge.version() if judge is not None else None,
                                      self.second_opinion.version() if self.second_opinion else None)
        self.judge = judge  # the LLM judge for the uncertain band (scorers/verdicts/judge/); None: off (the default)
        self.batcher = DynamicBatcher(backend, config.max_batch_tokens, config.max_batch_size,
                                      config.max_wait_ms, on_batch=on_batch)
        self.pairs = PairScorer(backend, self.batcher, self.model, config.pair_cache_size,
                                rewrite=polarity_form if config.polarity_form else None,
                                on_lookups=partial(on_pair_cache, "small") if on_pair_cache else None)
        self.conflicts = ConflictFinder(self.pairs, self.thresholds) if config.context_conflicts else None
        # The combiner reads the joined pairs' scores, so it always gets them (scorers/evidence/cascade.py).
        self.cascade = config.evidence_cascade and self.combiner is None
        self._claims = ClaimCache()
        self._timer = stage_timer or (lambda stage, seconds: None)
        self.policy = policy  # decides each verdict's action (scorers/verdicts/policy.py); None: no action recorded
        # Per-claim lookups in the knowledge base (scorers/evidence/corpus_check.py); None: off (the default)
        self.corpus = None
        if corpus is not None:
            from groundwatch.scorers.evidence.corpus_check import CorpusChecker

            self.corpus = CorpusChecker(corpus, corpus_settings, self.pairs, self.thresholds, embedder, config)
        # Guard time of the current `score` call; reported as stage "guards" (also inside "claims" and "inference").
        self._guard_seconds = 0.0
        lemma_warmup()  # the guards' tokenizer and lemma table load here, not on the first response

    @classmethod
    def from_config(cls, config: ScorerConfig, **kwargs) -> "Scorer":
        from groundwatch.scorers.nli.factory import backend_for

        backend = backend_for(config)
        embedder = Embedder(batch_tokens=config.max_batch_tokens) if config.use_embeddings else None
        return cls(config, backend, embedder, **kwargs)

    def close(self) -> None:
        self.batcher.close()
        if self.second_opinion is not None:
            self.second_opinion.close()
        if self.judge is not None:
            self.judge.close()

    def health(self) -> bool:
        """The batcher's thread runs and the backend scores a known pair (a probe: never raises;
        may block if the model is stuck, so run it where a hang is measured: scorers/health.py)."""
        return self.batcher._thread.is_alive() and self.backend.health()

    # -- stages ---------------------------------------------------------------

    def _claim_list(self, response: Response) -> list[Claim]:
        """The claims, counted against scorer.max_claims before any per-claim work."""
        claims = given_claims(response.answer, response.claims) if response.claims else self._claims.get(response.answer)
        if len(claims) > self.config.max_claims:
            raise ScoringError(f"{len(claims)} claims, more than scorer.max_claims "
                               f"({self.config.max_claims})", "limits", "too_many_claims")
        return claims

    def _claims_of(self, response: Response, claims: list[Claim], deadline: Deadline) -> list[_PreparedClaim]:
        passage_ids = [p.id for p in response.passages]
        available = passage_quantities([p.text for p in response.passages])
        out = []
        for i, claim in enumerate(claims):
            deadline.check("claims")
            reason = decorative_reason(claim.text)
            if reason == "bare_answer" and self.config.yes_no_answers:
                statement = answered_statement(response.question, claim.text)
                if statement is not None:
                    claim, reason = Claim(statement, claim.span), None
            checks: list[Check] = []
            arithmetic = None
            if reason is None:
                start = time.perf_counter()
                arithmetic = arithmetic_guard(claim.text, response.passages, self.config.guards, available)
                self._guard_seconds += time.perf_counter() - start
            if reason is None and self.config.free_checks:
                raw = response.answer[claim.span[0]:claim.span[1]]
                cited = cited_ids_for(claim.span, cited_markers(raw), response.citations, passage_ids)
                checks = run_checks(claim.text, cited, list(response.passages), available,
                                    derived_values(arithmetic) if arithmetic else None)
            if recorded(arithmetic):
                checks.append(to_check(arithmetic))
            model_text = operand_form(claim.text, arithmetic)
            if reason is None:
                checks.extend(self._readable_check(model_text or claim.text))
            out.append(_PreparedClaim(i, claim, severity(claim.text), reason, checks, model_text))
        return out

    def _readable_check(self, text: str) -> list[Check]:
        """What the model never read cannot be SUPPORTED: a claim too long to sit whole beside a premise is
        cut, a claim mostly of unknown tokens reads as nothing, and an English-only model reads a claim in
        another language by its shared words. The check caps; it convicts nothing."""
        if self.pairs.rewrite is not None:
            text = self.pairs.rewrite(text)
        (n, unknown), room = self.backend.encoder.claim_tokens(text), self.backend.encoder.claim_room
        if n > room:
            detail = f"claim is {n} tokens; the model reads {room} beside a passage"
        elif unknown and 2 * unknown >= n:
            detail = f"the model cannot read {unknown} of the claim's {n} tokens"
        elif self.backend.kind.languages == ("en",) and (language := not_english(text)):
            detail = f"the claim reads as {language}; the model reads English only"
        else:
            return []
        return [Check("readable", False, detail, flag="claim_not_read")]

    def _prepare(self, response: Response, deadline: Deadline | None = None) -> _Prepared:
        """Claims, chunks and free checks; evidence is found once the whole batch is embedded.

        Both counts are checked before the work they bound (per-claim checks, embedding)."""
        deadline = deadline if deadline is not None else Deadline(None)
        start = time.perf_counter()
        claims = self._claim_list(response)
        claims_s = time.perf_counter() - start
        start = time.perf_counter()
        chunks = chunk_passages(list(response.passages), self.config.chunk_sentences, self.config.chunk_overlap,
                                self.config.chunk_words)
        if len(chunks) > self.config.max_chunks:
            raise ScoringError(f"{len(chunks)} passage chunks, more than scorer.max_chunks "
                               f"({self.config.max_chunks})", "limits", "too_many_chunks")
        self._timer("evidence", time.perf_counter() - start)
        start = time.perf_counter()
        prepared = self._claims_of(response, claims, deadline)
        self._timer("claims", claims_s + time.perf_counter() - start)
        return _Prepared(response, prepared, chunks)

    def _embed(self, prepared: list[_Prepared]) -> None:
        """Embed every claim and chunk of the batch in one call; lookups then hit the cache."""
        if self.embedder is None:
            return
        texts = [t for p in prepared for t in [c.claim.text for c in p.claims] + [ch.text for ch in p.chunks]]
        if texts:
            self.embedder.encode(list(dict.fromkeys(texts)))

    def _find_evidence(self, prepared: _Prepared, deadline: Deadline | None = None) -> None:
        deadline = deadline if deadline is not None else Deadline(None)
        prepared.index = index = EvidenceIndex(prepared.chunks, self.embedder)
        for c in prepared.claims:
            if c.skip_reason is not None:
                continue
            deadline.check("evidence")
            if self.config.evidence_mode == "question":
                c.candidates = index.retriever_order_candidates(list(prepared.response.passages), c.claim.text,
                                                                self.config.top_k, self.config.pair_top)
            else:
                c.candidates = index.candidates(c.claim.text, self.config.top_k, self.config.pair_top,
                                                self.config.rrf_k)
        # The caps once before the sentence premises: aligning a huge passage's sentences is itself costly.
        self._check_pairs(prepared)
        for c in prepared.claims:
            if c.skip_reason is not None:
                continue
            if self.config.sentence_premise:
                sentence = sentence_candidate(c.claim.text, c.candidates)
                if sentence is not None:
                    c.candidates.append(sentence)

    def _supported(self, claim: str, evidence: list[Evidence], checks: list[Check],
                   passages: dict[str, str]) -> bool | None:
        """The combiner's call on entailment (None under the threshold rule)."""
        if self.combiner is None:
            return None
        return self.combiner.supported(claim_features(claim, evidence, checks, passages))

    def _guards(self, c: _PreparedClaim, evidence: list[Evidence], premises: list[Candidate],
                contexts: dict[str, str]):
        """Evidence sentences of the deciding chunk, and the polarity and dropped-condition guards;
        `premises` are the candidates `evidence` scored, in its order."""
        start = time.perf_counter()
        chunks = ()
        if evidence:  # the premise that decides: best contradiction if it beats the best entailment
            deciding = max(range(len(evidence)), key=lambda n: (evidence[n].entailment, -n))
            best_c = max(range(len(evidence)), key=lambda n: (evidence[n].contradiction, -n))
            if evidence[best_c].contradiction > evidence[deciding].entailment:
                deciding = best_c
            chunks = premises[deciding].chunks
        top = [cand.chunks[0] for cand in c.candidates if cand.kind == "chunk"]
        guarded = guard_claim(c.claim.text, chunks, top, contexts, self.config.guards)
        self._guard_seconds += time.perf_counter() - start
        return guarded

    def _verdict(self, prepared: _Prepared, scored_at: str, deadline: Deadline) -> ResponseVerdict:
        response = prepared.response
        contexts = {p.id: p.text for p in response.passages}
        claims = []
        for c in prepared.claims:
            if c.skip_reason is not None:
                claims.append(ClaimVerdict(c.index, c.claim.text, c.claim.span, c.severity, Verdict.SKIPPED,
                                           reason=c.skip_reason))
                continue
            deadline.check("verdict")
            scored = c.scored()
            evidence = [self._evidence(c.candidates[rank], self._result(fut, deadline), rank) for rank, fut in scored]
            guarded = self._guards(c, evidence, [c.candidates[rank] for rank, _ in scored], contexts)
            checks = c.checks + [to_check(r) for r in guarded.results if recorded(r)]
            verdict, flags = decide(evidence, checks, self.thresholds,
                                    self._supported(c.claim.text, evidence, checks, contexts))
            sentences = guarded.evidence
            fired = [r.sentence for r in guarded.results if r.fired and r.sentence is not None]
            if fired:  # the sentence a guard decided on leads
                sentences = [fired[0]] + [x for x in sentences if x != fired[0]]
            evidence.sort(key=lambda e: -max(e.entailment, e.contradiction))
            claims.append(ClaimVerdict(
                c.index, c.claim.text, c.claim.span, c.severity, verdict,
                entailment=max((e.entailment for e in evidence), default=0.0),
                contradiction=max((e.contradiction for e in evidence), default=0.0),
                evidence=evidence, checks=checks, flags=flags, evidence_sentences=sentences))
        result = ResponseVerdict(
            request_id=response.request_id, scorer_version=self.version, model=self.model,
            scored_at=scored_at, timestamp=response.timestamp.isoformat() if response.timestamp else None,
            metadata=response.metadata.model_dump(exclude_none=True) if response.metadata else {},
            response=None, claims=claims,  # the summary comes from finalise, once every verdict is final
            gold_passage_ids=response.gold_passage_ids, passage_ids=[p.id for p in response.passages],
            passages=[p.model_dump(exclude_none=True) for p in response.passages] if self.config.store_passages else [],
            content_hash=content_hash(response))
        return result

    # -- entry point ----------------------------------------------------------

    # -- limits -----------------------------------------------------------------

    def _check_pairs(self, prepared: _Prepared) -> None:
        """scorer.max_pairs and scorer.max_windows over every candidate, whether the cascade scores it or not."""
        pairs = [(cand.text, c.hypothesis) for c in prepared.claims for cand in c.candidates]
        if len(pairs) > self.config.max_pairs:
            raise ScoringError(f"{len(pairs)} claim-evidence pairs, more than scorer.max_pairs "
                               f"({self.config.max_pairs})", "limits", "too_many_pairs")
        windows = windows_over(self.backend.encoder, pairs, self.config.max_windows)
        if windows is not None:
            raise ScoringError(f"{windows} model windows, more than scorer.max_windows "
                               f"({self.config.max_windows})", "limits", "too_many_windows")

    def _submit(self, c: _PreparedClaim, ranks: list[int], deadline: Deadline) -> None:
        # Pairs expire with the deadline: the batcher drops them unscored once nobody waits for them.
        if ranks:
            c.ranks += ranks
            c.futures += self.pairs.submit([(c.candidates[i].text, c.hypothesis) for i in ranks],
                                           expires_at=deadline.ends_at())

    def _submit_pairs(self, prepared: _Prepared, deadline: Deadline) -> None:
        """Every premise of every claim; with the cascade, the single premises only."""
        for c in prepared.claims:
            self._submit(c, single_premises(c.candidates) if self.cascade else list(range(len(c.candidates))),
                         deadline)

    def _submit_joined(self, prepared: _Prepared, deadline: Deadline) -> None:
        """The cascade's second stage: the joined pairs of the claims their single premises leave open."""
        for c in prepared.claims:
            rest = [i for i in range(len(c.candidates)) if i not in c.ranks]
            if not rest:
                continue
            evidence = [self._evidence(c.candidates[rank], self._result(fut, deadline), rank)
                        for rank, fut in c.scored()]
            if not settled(evidence, c.checks, self.thresholds):
                self._submit(c, rest, deadline)

    @staticmethod
    def _evidence(cand: Candidate, s, rank: int) -> Evidence:
        """A scored premise as recorded; `rank` is its position among the claim's candidates, scored or not."""
        return Evidence([ch.passage_id for ch in cand.chunks], [ch.offsets for ch in cand.chunks],
                        round(s.entailment, 4), round(s.neutral, 4), round(s.contradiction, 4),
                        round(cand.retrieval_score, 4), cand.kind, rank)

    @staticmethod
    def _result(future: Future, deadline: Deadline):
        """A model result within the deadline; a failed model batch fails with stage "inference"."""
        try:
            return deadline.result(future)
        except DeadlineExceeded:
            raise
        except Exception as exc:  # noqa: BLE001 - the batcher hands every item of a failed batch the error
            raise ScoringError.wrap("inference", exc) from exc

    @staticmethod
    def _each(prepared: list, stage: str, fn) -> None:
        """fn(p) for every response still alive; what escapes becomes its ScoringError of `stage`."""
        for i, p in enumerate(prepared):
            if isinstance(p, ScoringError):
                continue
            try:
                fn(p)
            except Exception as exc:  # noqa: BLE001 - one bad response must not sink the batch
                prepared[i] = ScoringError.wrap(stage, exc)

    def _embed_batch(self, prepared: list) -> None:
        """One embedding call for the batch; if it fails, one per response, so only the culprit fails."""
        try:
            self._embed([p for p in prepared if not isinstance(p, ScoringError)])
        except Exception:  # noqa: BLE001
            self._each(prepared, "embed", lambda p: self._embed([p]))

    # -- entry point ----------------------------------------------------------

    def candidate_pairs(self, responses: list[Response]) -> list[list[tuple[str, str]]]:
        """Per response, every (premise, claim) pair its claims could be scored on: each claim's chunks,
        joined pairs and sentence premise, including those the cascade leaves unscored. Nothing is scored
        (what a plain cross-encoder loop over the same evidence would score: `groundwatch bench`)."""
        prepared = [self._prepare(r) for r in responses]
        self._embed(prepared)
        for p in prepared:
            self._find_evidence(p)
        return [[(cand.text, c.hypothesis) for c in p.claims for cand in c.candidates] for p in prepared]

    def score(self, responses: list[Response],
              deadline: Deadline | None = None) -> list[ResponseVerdict | ScoringError]:
        """Verdicts by input position; a response that fails gets a ScoringError in its place.

        `deadline` bounds every wait for model results and the CPU stages (checked before each
        response and each claim); a response whose results are late gets a DeadlineExceeded,
        results already in are still used; its pairs still queued are dropped unscored. Online callers (the consumer,
        `serve`) pass `Deadline.from_config(config)`; offline commands (score, eval, bench) pass
        none and wait for every result, however busy the machine.
        """
        deadline = deadline if deadline is not None else Deadline(None)
        prepared = [self._prepare_or_error(response, deadline) for response in responses]
        start = time.perf_counter()
        self._embed_batch(prepared)
        self._each(prepared, "evidence", lambda p: self._find_evidence(p, deadline))
        self._each(prepared, "limits", self._check_pairs)
        self._timer("evidence", time.perf_counter() - start)
        start = time.perf_counter()
        conflict_jobs = self._submit_all(prepared, deadline)
        scored_at = datetime.now(timezone.utc).isoformat()
        out = [p if isinstance(p, ScoringError) else self._claim_verdicts(p, conflict_jobs, scored_at, deadline)
               for p in prepared]
        if self.second_opinion is not None:
            self._second_opinion(prepared, out, deadline)
        self._timer("inference", time.perf_counter() - start)
        self._timer("guards", self._guard_seconds)
        self._guard_seconds = 0.0
        self._finish(out, responses, deadline)
        return out

    def _prepare_or_error(self, response: Response, deadline: Deadline) -> _Prepared | ScoringError:
        try:
            deadline.check("claims")  # CPU stages honour the deadline too: late responses do no work
            return self._prepare(response, deadline)
        except Exception as exc:  # noqa: BLE001 - one bad response must not sink the batch
            return ScoringError.wrap("claims", exc)

    def _submit_all(self, prepared: list, deadline: Deadline) -> dict[int, list]:
        """Every pair of the batch to the batcher (and the conflict finder's); its conflict jobs by id(prepared)."""
        conflict_jobs: dict[int, list] = {}

        def submit_conflicts(p: _Prepared) -> None:
            conflict_jobs[id(p)] = self.conflicts.submit(p.claims)

        with self.batcher.submitting():  # one submission per claim: the batcher waits for them all
            self._each(prepared, "pairs", lambda p: self._submit_pairs(p, deadline))
            if self.conflicts:
                self._each(prepared, "conflicts", submit_conflicts)
        if self.cascade:  # one response at a time: its pairs queue while later responses' singles are scored
            self._each(prepared, "pairs", lambda p: self._submit_joined(p, deadline))
        return conflict_jobs

    def _claim_verdicts(self, p: _Prepared, conflict_jobs: dict[int, list], scored_at: str,
                        deadline: Deadline) -> ResponseVerdict | ScoringError:
        """The model's verdict of every claim and the response's context conflicts, or its ScoringError."""
        stage = "verdict"
        try:
            verdict = self._verdict(p, scored_at, deadline)
            if id(p) in conflict_jobs:
                stage = "conflicts"
                jobs = conflict_jobs[id(p)]
                for job in jobs:
                    for fut in job.futures:
                        self._result(fut, deadline)  # collect() then finds every result in
                verdict.context_conflicts = self.conflicts.collect(jobs)
                if verdict.context_conflicts:
                    verdict.flags.append("context_conflict")
            return verdict
        except DeadlineExceeded as exc:
            return exc
        except Exception as exc:  # noqa: BLE001
            return ScoringError.wrap(stage, exc)

    def _second_opinion(self, prepared: list, out: list, deadline: Deadline) -> None:
        """The larger model re-reads the escalated claims of every response at once (one submission, so they
        share its batches); each premise it re-scores is one the small model scored, found by its rank."""
        escalated, seen = [], 0
        for p, verdict in zip(prepared, out):
            if not isinstance(verdict, ResponseVerdict):
                continue
            claims = {c.index: c for c in p.claims}
            for claim in verdict.claims:
                seen += claim.scored
                reason = self.second_opinion.escalation(claim)
                if reason is not None:
                    c = claims[claim.index]
                    premises = [(e, c.candidates[e.rank].text, c.hypothesis) for e in claim.evidence]
                    escalated.append(Escalated(claim, reason, premises))
        self.second_opinion.review(escalated, seen, deadline)

    def _finish(self, out: list, responses: list[Response], deadline: Deadline) -> None:
        """The judge's answers and the signals, then the one decision per response, then the action policy."""
        if self.judge is not None:  # on the judge's threads, within the deadline; falls back to these verdicts
            self.judge.review(out, responses, deadline)
        start = time.perf_counter()
        add_signals(out, responses, self.config, embedder=self.embedder, corpus=self.corpus, deadline=deadline)
        for verdict, response in zip(out, responses):
            if isinstance(verdict, ResponseVerdict):  # the model's verdict, the judge's answer and recency
                newer = superseded(verdict, response, self.thresholds) if self.config.newer_source_decides else set()
                finalise(verdict, list(response.passages), newer)
        self._timer("signals", time.perf_counter() - start)
        if self.policy is not None:
            for verdict in out:
                if isinstance(verdict, ResponseVerdict):
                    verdict.action = self.policy.decide(verdict)
