"""The verdict document, its index name and the index template it is stored under."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest

from groundwatch.export.base import SinkError
from groundwatch.export.opensearch_mapping import MAPPINGS, index_name, index_template, to_document
from groundwatch.export.opensearch_sink import bulk_failures
from groundwatch.scorers.records import ContextConflict, Verdict
from tests.unit.verdicts import claim, verdict


def _sample():
    return verdict([claim(0, Verdict.CONTRADICTED, "high"), claim(1, Verdict.SKIPPED)],
                   conflicts=[ContextConflict(["p1", "p2"], ["a", "b"], 0.9, 0)], gold=["p1"])


def test_document_is_the_verdict_record_as_trace_reads_it():
    v = _sample()
    doc = json.loads(json.dumps(to_document(v)))  # plain JSON
    assert doc == json.loads(json.dumps(v.to_dict()))  # the record's own structure
    assert doc["claims"][0]["verdict"] == "CONTRADICTED"
    assert doc["claims"][0]["evidence"][1]["passage_ids"] == ["p1", "p2"]


def test_metadata_values_become_keywords():
    v = verdict([claim(0, Verdict.SUPPORTED)],
                metadata={"app": "shop", "tenant": "acme", "shard": 3, "flags": {"beta": True}, "note": None})
    assert to_document(v)["metadata"] == {"app": "shop", "tenant": "acme", "shard": "3",
                                          "flags": '{"beta":true}'}


KAFKA_TIME = datetime(2026, 1, 31, 23, 59, 59, tzinfo=timezone.utc)


@pytest.mark.parametrize(("timestamp", "period", "event_time", "expected"), [
    ("2026-03-05T23:30:00+00:00", "month", KAFKA_TIME, "gw-2026.03"),  # the response's own time first
    ("2026-03-05T23:30:00+00:00", "day", None, "gw-2026.03.05"),
    ("2026-03-06T01:30:00+02:00", "day", None, "gw-2026.03.05"),  # UTC decides the day
    ("2026-03-05T23:30:00", "day", None, "gw-2026.03.05"),         # no zone: UTC
    (None, "month", KAFKA_TIME, "gw-2026.01"),                     # no timestamp: the Kafka message's
    ("not a date", "day", KAFKA_TIME, "gw-2026.01.31"),
    (None, "month", None, "gw-undated"),                           # never scored_at (2026-04) or the clock
])
def test_index_name_from_a_time_a_replay_reproduces(timestamp, period, event_time, expected):
    v = verdict([claim(0, Verdict.SUPPORTED)], timestamp=timestamp)
    assert v.scored_at.startswith("2026-04")
    assert index_name(v, "gw", period, event_time) == expected


def test_index_period_must_be_day_or_month():
    with pytest.raises(ValueError, match="index_period"):
        index_name(_sample(), "gw", "week")


def test_template_covers_the_prefix_and_attaches_the_alias():
    t = index_template("groundwatch-verdicts", "groundwatch-verdicts-all", shards=2, replicas=0)
    assert t["index_patterns"] == ["groundwatch-verdicts-*"]
    assert t["template"]["aliases"] == {"groundwatch-verdicts-all": {}}
    assert t["template"]["settings"] == {"number_of_shards": 2, "number_of_replicas": 0}


def test_mapping_types():
    p = MAPPINGS["properties"]
    assert p["claims"]["type"] == "nested"
    claims = p["claims"]["properties"]
    for field in ("verdict", "severity", "flags"):
        assert claims[field]["type"] == "keyword"
    assert claims["evidence"]["properties"]["passage_ids"]["type"] == "keyword"
    for field in ("entailment", "contradiction"):
        assert claims[field]["type"] == "float"
        assert claims["evidence"]["properties"][field]["type"] == "float"
    for field in ("request_id", "model", "scorer_version", "flags", "passage_ids", "gold_passage_ids"):
        assert p[field]["type"] == "keyword"
    for field in ("app", "model", "retriever", "tenant"):
        assert p["metadata"]["properties"][field]["type"] == "keyword"
    assert p["timestamp"]["type"] == p["scored_at"]["type"] == "date"
    assert claims["text"]["type"] == "text"
    assert p["passages"]["properties"]["text"] == {"type": "text", "index": False}


def _unmapped(doc, mapping: dict, path: str = "") -> list[str]:
    out = []
    for key, value in doc.items():
        spec = mapping.get(key)
        where = f"{path}{key}"
        if spec is None:
            out.append(where)
        elif isinstance(value, dict) and "properties" in spec:
            out += _unmapped(value, spec["properties"], where + ".")
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            for item in value:
                out += _unmapped(item, spec["properties"], where + ".")
    return out


def test_every_field_of_the_document_is_mapped():
    # The mapping is dynamic: false, so an unmapped field would be stored but never searchable.
    assert _unmapped(to_document(_sample()), MAPPINGS["properties"]) == []


def test_bulk_failures_lists_refused_items_only():
    answer = {"errors": True, "items": [
        {"index": {"_id": "a:1", "status": 201, "result": "created"}},
        {"index": {"_id": "b:1", "status": 400, "error": {"type": "mapper_parsing_exception", "reason": "bad"}}},
        {"index": {"_id": "c:1", "status": 429, "error": {"type": "es_rejected_execution_exception"}}},
    ]}
    failures = bulk_failures(answer)
    assert [(f.doc_id, f.status, f.error_type, f.retryable) for f in failures] == [
        ("b:1", 400, "mapper_parsing_exception", False), ("c:1", 429, "es_rejected_execution_exception", True)]
    assert bulk_failures({"errors": False, "items": answer["items"][:1]}) == []
    assert not SinkError("opensearch", "x", failures=failures).permanent
    assert SinkError("opensearch", "x", failures=failures[:1]).permanent


def test_guard_checks_and_evidence_sentences_are_mapped():
    claims = MAPPINGS["properties"]["claims"]["properties"]
    sentence = claims["evidence_sentences"]["properties"]
    assert sentence["passage_id"]["type"] == "keyword" and sentence["start"]["type"] == "integer"
    assert sentence["text"] == {"type": "text", "index": False}
    checks = claims["checks"]["properties"]
    assert checks["flag"]["type"] == "keyword" and checks["verdict"]["type"] == "keyword"
    assert checks["evidence"] == claims["evidence_sentences"]
    assert checks["found"] == {"type": "object", "enabled": False}
