"""Prometheus metrics of the streaming job, in a registry of their own.

Names come from export/metric_names.py (the dashboard and alert rules use
them). Labels carry small fixed vocabularies only: never ids, offsets or text.
"""

from __future__ import annotations

from typing import Iterable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

from groundwatch.export.metric_labels import LabelPolicy

from groundwatch.scorers.evidence.recall import OnlineRecall
from groundwatch.scorers.records import ResponseVerdict, Verdict

STAGES = ("decode", "claims", "evidence", "inference", "guards", "sink")
# decode/claims/evidence are per response (sub-millisecond to tens of ms); inference is one
# scorer call for a whole batch and sink one bulk write (tens of ms to tens of seconds).
STAGE_BUCKETS = (0.0002, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
                 10.0, 30.0, 60.0)
# Pairs per NLI model batch; the batcher caps it at scorer.max_batch_size (64 by default).
BATCH_BUCKETS = (1, 2, 4, 8, 16, 32, 48, 64, 96, 128, 256, 512)
# groundwatch serve: one request end to end (a cached or tiny answer in ms, a long one in seconds),
# and responses per scorer call (how many concurrent requests shared one model batch).
HTTP_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
SERVE_BATCH_BUCKETS = (1, 2, 4, 8, 16, 32, 64)
# Known (stage, reason) pairs of dead letters, present at 0 from the start. "score" reasons are
# the scorer's stage that failed (scorers/errors.py ScoringError) or the cap or deadline exceeded.
SCORE_REASONS = ("claims", "embed", "evidence", "pairs", "conflicts", "inference", "verdict",
                 "too_many_claims", "too_many_chunks", "too_many_pairs", "too_many_windows", "deadline", "score")
PAIR_CACHE_MODELS = ("small", "second_opinion")  # the shipped model; scorer.second_opinion's larger one
RESPONSE_VERDICTS = ("all_supported", "has_unsupported")
SEVERITIES = ("high", "normal")  # scorers/verdicts/severity.py
RETRIEVAL_OUTCOMES = ("retrieval_miss", "unsupported_by_corpus")
RESPONSE_FLAGS = ("off_topic", "stale_evidence")
DEAD_LETTER_REASONS = {"decode": ("empty", "too_large", "not_json", "too_deep", "too_many_passages",
                                  "answer_too_long", "passage_too_long", "too_many_claims", "claim_too_long",
                                  "schema"),
                       "score": SCORE_REASONS,
                       "sink": ("rejected", "too_large", "index_refused")}


class Metrics:
    def __init__(self, registry: CollectorRegistry | None = None, labels: LabelPolicy | None = None):
        self.registry = registry or CollectorRegistry()
        r = self.registry
        # Verdict counters: by scorer_version and app (+ tenant, retriever when allow-listed), see metric_labels.py.
        self.label_policy = labels or LabelPolicy()
        extra = self.label_policy.names()
        self.responses = Counter("groundwatch_responses", "Responses scored, by whether every scored claim "
                                 "was supported.", ["verdict", *extra], registry=r)
        self.claims = Counter("groundwatch_claims", "Claims, by verdict and severity.",
                              ["verdict", "severity", *extra], registry=r)
        self._primed: set[tuple[str, ...]] = set()
        self.dead_letters = Counter("groundwatch_dead_letters", "Messages sent to the dead-letter topic.",
                                    ["stage", "reason"], registry=r)
        self.sink_failures = Counter("groundwatch_sink_failures", "Failed sink writes (each is retried).",
                                     ["sink", "reason"], registry=r)
        self.scorer_errors = Counter("groundwatch_scorer_errors", "Responses the scorer failed on.",
                                     ["reason"], registry=r)
        self.context_conflicts = Counter("groundwatch_context_conflicts",
                                         "Pairs of retrieved chunks found contradicting each other.", registry=r)
        self.stage_seconds = Histogram("groundwatch_stage_seconds", "Time per stage: decode, claims and evidence "
                                       "per response; inference per scorer batch (guards: its guard share, also "
                                       "counted in claims and inference); sink per bulk write.",
                                       ["stage"], buckets=STAGE_BUCKETS, registry=r)
        self.batch_size = Histogram("groundwatch_batch_size", "Pairs per NLI model batch.",
                                    buckets=BATCH_BUCKETS, registry=r)
        self.inflight = Gauge("groundwatch_inflight_responses", "Responses polled but not yet committed.",
                              registry=r)
        self.model_info = Gauge("groundwatch_model_info", "The NLI model in use (value 1); fallback names why "
                                "the provider is not the one asked for (none, cuda_unavailable).",
                                ["provider", "precision", "model", "fallback"], registry=r)
        self.actions = Counter("groundwatch_actions", "Policy actions decided per response, by action and the "
                               "rule that decided it.", ["action", "rule"], registry=r)
        self.http_requests = Counter("groundwatch_http_requests", "Requests answered by groundwatch serve.",
                                     ["endpoint", "status"], registry=r)
        self.http_seconds = Histogram("groundwatch_http_request_seconds", "groundwatch serve: time from "
                                      "request to answer.", ["endpoint"], buckets=HTTP_BUCKETS, registry=r)
        self.serve_batch = Histogram("groundwatch_serve_batch_responses", "groundwatch serve: responses "
                                     "scored together in one scorer call.", buckets=SERVE_BATCH_BUCKETS,
                                     registry=r)
        self.recall_at_k = Gauge("groundwatch_recall_at_k", "Share of gold passages among the first k "
                                 "retrieved.", ["k", "source"], registry=r)
        self.recall_probe_mrr = Gauge("groundwatch_recall_probe_mrr", "Mean reciprocal rank of the first "
                                      "gold passage (recall probe).", registry=r)
        self.consumer_lag = Gauge("groundwatch_consumer_lag", "Messages behind the partition's end.",
                                  ["topic", "partition"], registry=r)
        self.retention_deletions = Counter("groundwatch_retention_deletions", "Verdict indices the job deleted "
                                           "for age (servers without ISM).", registry=r)
        self.retrieval_outcomes = Counter("groundwatch_retrieval_outcomes", "Claims the logged passages left "
                                          "unsupported, looked up in the knowledge base: retrieval_miss (the "
                                          "corpus supports them) or unsupported_by_corpus.", ["outcome"], registry=r)
        self.response_flags = Counter("groundwatch_response_flags", "Responses flagged off_topic or "
                                      "stale_evidence.", ["flag"], registry=r)
        self.trace_joins = Counter("groundwatch_trace_joins", "Traces released from the join buffer: released "
                                   "(root span ended), timed_out (no span for traces.release_wait_s), evicted "
                                   "(buffer full) or too_large.", ["outcome"], registry=r)
        self.late_span_count = Counter("groundwatch_late_spans", "Spans that arrived after their trace was "
                                       "released.", registry=r)
        self.phoenix_missing = Counter("groundwatch_phoenix_spans_missing", "Verdicts not annotated in Phoenix: "
                                       "it does not hold the judged span.", registry=r)
        self.held_trace_count = Gauge("groundwatch_held_traces", "Traces waiting in the join buffer.", registry=r)
        self.conflicting_duplicates = Counter("groundwatch_conflicting_duplicates", "Verdicts stored beside a "
                                              "different response under the same request id (both flagged "
                                              "conflicting_duplicate).", registry=r)
        # Over groundwatch_claims_total: the share of claims the larger model re-read (scorer.second_opinion).
        self.second_opinion = Counter("groundwatch_second_opinion_claims", "Claims the second opinion's larger model "
                                      "re-read, by why and outcome (rescored: its verdict counts).",
                                      ["reason", "outcome"], registry=r)
        # hit / (hit + miss + joined): the share of pairs the model did not score again (scorer.pair_cache_size).
        self.pair_cache_lookups = Counter("groundwatch_pair_cache_lookups", "Pairs looked up in a model's pair-score "
                                          "cache: hit (cached), miss (sent to the model) or joined (a copy already "
                                          "on its way).", ["model", "outcome"], registry=r)
        self.pair_cache_entries = Gauge("groundwatch_pair_cache_entries", "Pair scores held in a model's cache.",
                                        ["model"], registry=r)
        self._online_recall = OnlineRecall()  # k = 1, 3, 5 over the last 1000 responses with gold ids
        self._start_at_zero()

    def _start_at_zero(self) -> None:
        # Rate and increase() see a label set's first event only if the series existed at 0.
        for stage in STAGES:
            self.stage_seconds.labels(stage)
        for stage, reasons in DEAD_LETTER_REASONS.items():
            for reason in reasons:
                self.dead_letters.labels(stage, reason)
        self.sink_failures.labels("opensearch", "unavailable")
        for outcome in RETRIEVAL_OUTCOMES:
            self.retrieval_outcomes.labels(outcome)
        for flag in RESPONSE_FLAGS:
            self.response_flags.labels(flag)
        for reason in SCORE_REASONS:
            self.scorer_errors.labels(reason)
        for outcome in ("released", "timed_out", "evicted", "too_large"):
            self.trace_joins.labels(outcome)
        for model in PAIR_CACHE_MODELS:
            for outcome in ("hit", "miss", "joined"):
                self.pair_cache_lookups.labels(model, outcome)
            self.pair_cache_entries.labels(model)

    def names(self) -> set[str]:
        """Metric family names as exported (counters without the `_total` suffix added back)."""
        out = set()
        for metric in self.registry.collect():
            out.add(metric.name + "_total" if metric.type == "counter" else metric.name)
        return out

    # -- updates --------------------------------------------------------------

    def observe_stage(self, stage: str, seconds: float) -> None:
        self.stage_seconds.labels(stage).observe(seconds)

    def observe_nli_batch(self, size: int, seconds: float) -> None:
        self.batch_size.observe(size)

    def observe_pair_cache(self, model: str, hits: int, misses: int, joined: int, entries: int) -> None:
        """One PairScorer call's lookups (Scorer's on_pair_cache)."""
        for outcome, n in (("hit", hits), ("miss", misses), ("joined", joined)):
            if n:
                self.pair_cache_lookups.labels(model, outcome).inc(n)
        self.pair_cache_entries.labels(model).set(entries)

    def scored(self, verdicts: Iterable[ResponseVerdict]) -> None:
        for v in verdicts:
            key = self.label_policy.values(v.scorer_version, v.metadata)
            self._prime(key)
            self.responses.labels("all_supported" if v.response.all_supported else "has_unsupported", *key).inc()
            for claim in v.claims:
                self.claims.labels(claim.verdict.value, claim.severity, *key).inc()
                if claim.second_opinion:
                    self.second_opinion.labels(claim.second_opinion["reason"], claim.second_opinion["outcome"]).inc()
            if v.context_conflicts:
                self.context_conflicts.inc(len(v.context_conflicts))
            if v.action is not None:
                self.actions.labels(v.action.action, v.action.rule).inc()
            self._recall(v)
            self._signals(v)

    def _prime(self, key: tuple[str, ...]) -> None:
        # A (version, app, ...) seen for the first time gets every verdict and severity at 0, so ratios and
        # the z-test see all of its series from its first scrape on.
        if key in self._primed:
            return
        self._primed.add(key)
        for verdict in RESPONSE_VERDICTS:
            self.responses.labels(verdict, *key)
        for verdict in Verdict:
            for sev in SEVERITIES:
                self.claims.labels(verdict.value, sev, *key)

    def start_version_at_zero(self, scorer_version: str) -> None:
        """The running scorer's series (allow-listed apps, or app "none"), present at 0 from start-up."""
        for app in self.label_policy.apps or ("none",):
            self._prime(self.label_policy.values(scorer_version, {"app": app}))

    def _signals(self, v: ResponseVerdict) -> None:
        for claim in v.claims:
            outcome = (claim.corpus or {}).get("outcome")
            if outcome in RETRIEVAL_OUTCOMES:
                self.retrieval_outcomes.labels(outcome).inc()
        for flag in RESPONSE_FLAGS:
            if flag in v.flags:
                self.response_flags.labels(flag).inc()

    def retention_deletion(self, index: str) -> None:
        """One verdict index deleted for age (the index name is logged, never a label)."""
        self.retention_deletions.inc()

    def conflicting_duplicate(self, documents: int) -> None:
        self.conflicting_duplicates.inc(documents)

    def _recall(self, v: ResponseVerdict) -> None:
        means = self._online_recall.add(v.passage_ids, v.gold_passage_ids)
        for k, mean in (means or {}).items():
            self.recall_at_k.labels(str(k), "online").set(mean)

    def dead_letter(self, stage: str, reason: str) -> None:
        self.dead_letters.labels(stage, reason).inc()

    def sink_failure(self, sink: str, reason: str) -> None:
        self.sink_failures.labels(sink, reason).inc()

    def scorer_error(self, reason: str) -> None:
        self.scorer_errors.labels(reason).inc()

    def trace_join(self, outcome: str) -> None:
        self.trace_joins.labels(outcome=outcome).inc()

    def late_spans(self, n: int) -> None:
        self.late_span_count.inc(n)

    def phoenix_spans_missing(self, n: int) -> None:
        self.phoenix_missing.inc(n)

    def held_traces(self, n: int) -> None:
        self.held_trace_count.set(n)

    def set_inflight(self, n: int) -> None:
        self.inflight.set(n)

    def set_model(self, provider: str, precision: str, model: str, fallback: str = "none") -> None:
        self.model_info.labels(provider, precision, model, fallback).set(1)

    def start_actions_at_zero(self, actions, rules) -> None:
        """Every (action, rule) a policy can decide, present at 0 (its rules are known at start-up)."""
        for action in actions:
            for rule in rules:
                self.actions.labels(action, rule)

    def action(self, action: str, rule: str) -> None:
        """An action decided outside `scored` (serve's on_timeout / on_error fallbacks)."""
        self.actions.labels(action, rule).inc()

    def http_request(self, endpoint: str, status: int, seconds: float) -> None:
        self.http_requests.labels(endpoint, str(status)).inc()
        self.http_seconds.labels(endpoint).observe(seconds)

    def observe_serve_batch(self, responses: int) -> None:
        self.serve_batch.observe(responses)

    def set_lag(self, topic: str, partition: int, lag: int) -> None:
        self.consumer_lag.labels(topic, str(partition)).set(lag)

    def forget_lag(self, topic: str, partition: int) -> None:
        """A revoked partition's lag belongs to its new owner."""
        try:
            self.consumer_lag.remove(topic, str(partition))
        except KeyError:
            pass

