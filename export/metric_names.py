"""The one list of metric names groundwatch exports.

The metrics module, the Grafana dashboard and the alert rules are checked against
it, so a renamed metric fails a test instead of silently emptying a panel.
"""

METRIC_NAMES: frozenset[str] = frozenset({
    # verdict counters also carry scorer_version, app (+ tenant, retriever when allow-listed): metric_labels.py
    "groundwatch_responses_total",  # {verdict="all_supported|has_unsupported", scorer_version, app}
    "groundwatch_claims_total",  # {verdict="SUPPORTED|CONTRADICTED|NOT_ENOUGH_INFO|SKIPPED", severity, scorer_version, app}
    "groundwatch_dead_letters_total",  # {stage, reason}
    "groundwatch_sink_failures_total",  # {sink, reason}
    "groundwatch_scorer_errors_total",  # {reason}
    "groundwatch_stage_seconds",  # histogram {stage=decode|claims|evidence|inference|sink}
    "groundwatch_batch_size",  # histogram
    "groundwatch_inflight_responses",  # gauge
    "groundwatch_model_info",  # gauge {provider, precision, model, fallback="none|cuda_unavailable"}
    "groundwatch_recall_at_k",  # gauge {k, source="probe|online"}
    "groundwatch_recall_probe_mrr",  # gauge
    "groundwatch_consumer_lag",  # gauge {topic, partition}
    "groundwatch_context_conflicts_total",  # counter
    "groundwatch_actions_total",  # {action="pass|log|hedge|strip|block", rule}
    "groundwatch_http_requests_total",  # groundwatch serve {endpoint, status}
    "groundwatch_http_request_seconds",  # histogram {endpoint}
    "groundwatch_serve_batch_responses",  # histogram: responses per scorer call in serve
    "groundwatch_retention_deletions_total",  # counter: indices deleted for age without ISM
    "groundwatch_retrieval_outcomes_total",  # {outcome="retrieval_miss|unsupported_by_corpus"}
    "groundwatch_response_flags_total",  # {flag="off_topic|stale_evidence"}
    "groundwatch_trace_joins_total",  # {outcome="released|timed_out|evicted|too_large"}: traces read from spans
    "groundwatch_late_spans_total",  # spans that arrived after their trace was released
    "groundwatch_phoenix_spans_missing_total",  # verdicts not annotated: Phoenix does not hold the judged span
    "groundwatch_held_traces",  # gauge: traces waiting in the join buffer
    "groundwatch_conflicting_duplicates_total",  # counter: verdicts stored beside another response of their request id
    "groundwatch_pair_cache_lookups_total",  # {model="small|second_opinion", outcome="hit|miss|joined"}
    "groundwatch_pair_cache_entries",  # gauge {model}: pair scores held (scorer.pair_cache_size caps it)
    "groundwatch_second_opinion_claims_total",  # {reason="contradicted|uncertain", outcome="rescored|failed|deadline"}
})
