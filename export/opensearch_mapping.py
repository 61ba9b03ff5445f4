"""How a verdict is stored in OpenSearch: index template, index name, document.

The document is the verdict record itself (`ResponseVerdict.to_dict()`), so
`groundwatch trace` renders what it reads back; only metadata values are
turned into strings so every `metadata.*` field can be a keyword.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone

from groundwatch.scorers.records import ResponseVerdict
from groundwatch.scorers.times import parse_time

PERIOD_FORMATS = {"month": "%Y.%m", "day": "%Y.%m.%d"}

_KEYWORD = {"type": "keyword", "ignore_above": 1024}
_FLOAT = {"type": "float"}
_INT = {"type": "integer"}
_DATE = {"type": "date"}
_STORED_TEXT = {"type": "text", "index": False}  # kept for traces, not searched

_EVIDENCE = {"properties": {
    "passage_ids": _KEYWORD, "offsets": _INT, "entailment": _FLOAT, "neutral": _FLOAT,
    "contradiction": _FLOAT, "retrieval_score": _FLOAT, "kind": _KEYWORD, "rank": _INT,
}}

# An evidence sentence: where it sits in which passage (the text is kept for explain, not searched).
_SENTENCE = {"properties": {
    "passage_id": _KEYWORD, "start": _INT, "end": _INT, "text": _STORED_TEXT, "shared": _INT, "coverage": _FLOAT,
}}

_CLAIM = {
    # Nested so a query can ask for one claim that is both high severity and contradicted;
    # include_in_parent also lets plain queries such as `claims.verdict:CONTRADICTED`
    # (the Dashboards saved search) match the response.
    "type": "nested", "include_in_parent": True,
    "properties": {
        "index": _INT, "text": {"type": "text"}, "span": _INT, "severity": _KEYWORD,
        "verdict": _KEYWORD, "entailment": _FLOAT, "contradiction": _FLOAT, "reason": _KEYWORD,
        # per-claim lookup in the knowledge base: outcome, corpus evidence ids and best scores
        "corpus": {"properties": {"outcome": _KEYWORD, "reason": _KEYWORD, "evidence_ids": _KEYWORD,
                                  "entailment": _FLOAT, "contradiction": _FLOAT, "index": _KEYWORD}},
        "flags": _KEYWORD, "evidence": _EVIDENCE, "evidence_sentences": _SENTENCE,
        # guards add the verdict they impose, their flag, the sentence they read and what fired
        # (`found`: kept in _source for explain, not indexed)
        "checks": {"properties": {"name": _KEYWORD, "passed": {"type": "boolean"}, "detail": _STORED_TEXT,
                                  "verdict": _KEYWORD, "flag": _KEYWORD, "evidence": _SENTENCE,
                                  "found": {"type": "object", "enabled": False}}},
    },
}

MAPPINGS = {
    # Fields the template does not name are kept in _source but not indexed, so a
    # record that grows a field never makes a bulk item fail.
    "dynamic": False,
    "properties": {
        "request_id": _KEYWORD, "scorer_version": _KEYWORD, "model": _KEYWORD,
        "scored_at": _DATE, "timestamp": _DATE,
        "metadata": {"type": "object", "dynamic": True, "properties": {
            "app": _KEYWORD, "model": _KEYWORD, "retriever": _KEYWORD, "tenant": _KEYWORD}},
        "response": {"properties": {
            "all_supported": {"type": "boolean"}, "score": _FLOAT, "high_severity_unsupported": _INT,
            "counts": {"properties": {v: _INT for v in
                                      ("SUPPORTED", "CONTRADICTED", "NOT_ENOUGH_INFO", "SKIPPED")}},
            "retrieval": {"properties": {"top": _FLOAT, "mean": _FLOAT, "variance": _FLOAT, "n": _INT}},
        }},
        "claims": _CLAIM,
        "flags": _KEYWORD,
        "context_conflicts": {"properties": {
            "passage_ids": _KEYWORD, "sentences": _STORED_TEXT, "contradiction": _FLOAT, "claim_index": _INT,
            "signals": _KEYWORD, "key": _KEYWORD, "values": _KEYWORD, "similarities": _FLOAT,
            "claim_similarity": {"properties": {"top": _FLOAT, "mean": _FLOAT, "variance": _FLOAT, "n": _INT}}}},
        "gold_passage_ids": _KEYWORD,
        "passage_ids": _KEYWORD,
        "stale_evidence": {"properties": {
            "claim_index": _INT, "key": _KEYWORD, "passage_id": _KEYWORD, "updated_at": _KEYWORD, "value": _KEYWORD,
            "newer_id": _KEYWORD, "newer_updated_at": _KEYWORD, "newer_value": _KEYWORD, "source": _KEYWORD}},
        "relevance": {"properties": {"similarity": _FLOAT, "threshold": _FLOAT, "off_topic": {"type": "boolean"}}},
        "action": {"properties": {"action": _KEYWORD, "rule": _KEYWORD, "reason": _STORED_TEXT,
                                  "claims": _INT, "stripped": _INT}},
        "passages": {"properties": {
            "id": _KEYWORD, "text": _STORED_TEXT, "score": _FLOAT, "doc_id": _KEYWORD,
            "title": {"type": "text"}, "updated_at": _KEYWORD}},
    },
    # Extra metadata keys (the schema allows them) become keywords too.
    "dynamic_templates": [{"metadata_as_keyword": {"path_match": "metadata.*", "mapping": _KEYWORD}}],
}


def index_template(index_prefix: str, alias: str, shards: int = 1, replicas: int = 1) -> dict:
    """Composable index template: mappings, settings and the alias for `{prefix}-*`."""
    return {
        "index_patterns": [f"{index_prefix}-*"],
        "priority": 100,
        "template": {
            "settings": {"number_of_shards": shards, "number_of_replicas": replicas},
            "mappings": MAPPINGS,
            "aliases": {alias: {}},
        },
        "_meta": {"managed_by": "groundwatch"},
    }


UNDATED = "undated"


def index_name(verdict: ResponseVerdict, index_prefix: str, period: str = "month",
               event_time: datetime | None = None) -> str:
    """`{prefix}-YYYY.MM` (or `.DD`) from a time a replay reproduces: the response's timestamp, else
    `event_time` (the Kafka message's timestamp), else `{prefix}-undated`. Never scored_at or the
    clock: a replay in another month would put the same `_id` into a second index behind the alias."""
    if period not in PERIOD_FORMATS:
        raise ValueError(f"opensearch.index_period must be 'day' or 'month', got {period!r}")
    when = parse_time(verdict.timestamp) or event_time
    if when is None:
        return f"{index_prefix}-{UNDATED}"
    when = when if when.tzinfo else when.replace(tzinfo=timezone.utc)
    return f"{index_prefix}-{when.astimezone(timezone.utc).strftime(PERIOD_FORMATS[period])}"


def _as_keyword(value) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def to_document(verdict: ResponseVerdict) -> dict:
    doc = verdict.to_dict()
    doc["metadata"] = {key: _as_keyword(value) for key, value in (doc.get("metadata") or {}).items()
                       if value is not None}
    return doc
