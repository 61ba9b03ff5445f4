"""How a verdict is stored in OpenSearch: index template, index name, document.

The document is the verdict record itself (`ResponseVerdict.to_dict()`), so
`groundwatch trace` renders what it reads back, with a layout clients cannot grow:

- the known metadata keys (app, model, retriever, tenant) are keywords under
  `metadata`; every other key goes into the one `flat_object` field
  `metadata_extra`, at most `max_metadata_keys` of them, each value cut to
  `max_metadata_value_chars` (so 1,000 distinct keys never reach the index's
  field limit);
- a response timestamp more than `timestamp_max_age_days` before or
  `timestamp_max_ahead_days` after the Kafka message's timestamp (or, without
  one, the time it was scored) is replaced by that time, so a crafted date
  cannot create an index for its month; relative to the message, not to now, a
  replay lands in the same index.

What was changed is named in `store_flags` (and the replaced timestamp kept in
`original_timestamp`), both absent when nothing was.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

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
        "request_id": _KEYWORD, "scorer_version": _KEYWORD, "model": _KEYWORD, "content_hash": _KEYWORD,
        "scored_at": _DATE, "timestamp": _DATE,
        "metadata": {"type": "object", "dynamic": False, "properties": {
            "app": _KEYWORD, "model": _KEYWORD, "retriever": _KEYWORD, "tenant": _KEYWORD}},
        # Every other metadata key, in one field however many keys clients send (see the module docstring).
        "metadata_extra": {"type": "flat_object"},
        "store_flags": _KEYWORD, "original_timestamp": _KEYWORD,
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
}

KNOWN_METADATA = ("app", "model", "retriever", "tenant")
# store_flags values
KEYS_DROPPED, VALUE_CUT, TIMESTAMP_REPLACED = "metadata_keys_dropped", "metadata_value_truncated", "timestamp_replaced"
MAX_KEY_CHARS = 256  # a longer metadata key is dropped (and flagged), never indexed


@dataclass(frozen=True)
class StoreLayout:
    """The bounds of a stored document (the opensearch section's store-layout settings)."""

    max_metadata_keys: int = 32
    max_metadata_value_chars: int = 1024
    timestamp_max_age_days: float = 400.0
    timestamp_max_ahead_days: float = 1.0

    @classmethod
    def from_settings(cls, settings) -> "StoreLayout":
        return cls(settings.max_metadata_keys, settings.max_metadata_value_chars,
                   settings.timestamp_max_age_days, settings.timestamp_max_ahead_days)


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


def _utc(moment: datetime) -> datetime:
    return (moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)).astimezone(timezone.utc)


def stored_time(verdict: ResponseVerdict, event_time: datetime | None = None,
                layout: StoreLayout | None = None) -> tuple[datetime | None, bool]:
    """(the time that dates the document, whether the response's own timestamp was replaced).

    The response's timestamp, unless it lies outside the layout's window around the reference
    time (`event_time`, the Kafka message's timestamp; else scored_at) or cannot be read: then the
    reference. Without a timestamp: `event_time`, else None (undated); never scored_at or the
    clock for an undated response, or a replay in another month would write a second copy."""
    own = parse_time(verdict.timestamp)
    if own is None:
        return (_utc(event_time) if event_time else None), verdict.timestamp is not None and event_time is not None
    own = _utc(own)
    reference = event_time or parse_time(verdict.scored_at)
    if layout is None or reference is None:
        return own, False
    reference = _utc(reference)
    if reference - timedelta(days=layout.timestamp_max_age_days) <= own <= \
            reference + timedelta(days=layout.timestamp_max_ahead_days):
        return own, False
    return reference, True


def index_name(verdict: ResponseVerdict, index_prefix: str, period: str = "month",
               event_time: datetime | None = None, layout: StoreLayout | None = None) -> str:
    """`{prefix}-YYYY.MM` (or `.DD`) from a time a replay reproduces (stored_time), else
    `{prefix}-undated`. Never scored_at or the clock for an undated response: a replay in another
    month would put the same `_id` into a second index behind the alias."""
    if period not in PERIOD_FORMATS:
        raise ValueError(f"opensearch.index_period must be 'day' or 'month', got {period!r}")
    when, _ = stored_time(verdict, event_time, layout)
    if when is None:
        return f"{index_prefix}-{UNDATED}"
    return f"{index_prefix}-{when.strftime(PERIOD_FORMATS[period])}"


def _as_keyword(value) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def to_document(verdict: ResponseVerdict, event_time: datetime | None = None,
                layout: StoreLayout | None = None) -> dict:
    """The stored document; with a layout, bounded as the module docstring says."""
    doc = verdict.to_dict()
    metadata = {key: _as_keyword(value) for key, value in (doc.get("metadata") or {}).items() if value is not None}
    if layout is None:
        doc["metadata"] = metadata
        return doc
    flags: list[str] = []
    doc["metadata"] = {k: v for k, v in metadata.items() if k in KNOWN_METADATA}
    extra = _extra_metadata({k: v for k, v in metadata.items() if k not in KNOWN_METADATA}, layout, flags)
    if extra:
        doc["metadata_extra"] = extra
    when, replaced = stored_time(verdict, event_time, layout)
    if replaced:
        doc["original_timestamp"] = str(verdict.timestamp)[:layout.max_metadata_value_chars]
        doc["timestamp"] = when.isoformat()
        flags.append(TIMESTAMP_REPLACED)
    if flags:
        doc["store_flags"] = flags
    return doc


def _extra_metadata(extra: dict[str, str], layout: StoreLayout, flags: list[str]) -> dict[str, str]:
    # flat_object reads dots as a path: "a.b" is fine, "", ".a" or "a..b" are not keys it can index.
    kept = {k: v for k, v in extra.items() if 0 < len(k) <= MAX_KEY_CHARS and all(k.split("."))}
    if len(kept) > layout.max_metadata_keys:
        kept = dict(list(kept.items())[:layout.max_metadata_keys])
    if len(kept) < len(extra):
        flags.append(KEYS_DROPPED)
    cap = layout.max_metadata_value_chars
    if any(len(v) > cap for v in kept.values()):
        flags.append(VALUE_CUT)
        kept = {k: v[:cap] for k, v in kept.items()}
    return kept
