"""The bounded store layout: extra metadata in one flat_object field, timestamps held to a window
around the Kafka message's time, and what was changed named in store_flags."""

from __future__ import annotations

from datetime import datetime, timezone

from groundwatch.config.settings import OpenSearchSettings
from groundwatch.export.base import ItemFailure
from groundwatch.export.opensearch_mapping import (MAPPINGS, StoreLayout, index_name, stored_time,
                                                   to_document)
from groundwatch.scorers.records import Verdict
from tests.unit.verdicts import claim, verdict

LAYOUT = StoreLayout.from_settings(OpenSearchSettings())
KAFKA = datetime(2026, 3, 10, 12, 0, tzinfo=timezone.utc)


def _v(timestamp="2026-03-05T23:30:00+00:00", metadata=None):
    return verdict([claim(0, Verdict.SUPPORTED)], timestamp=timestamp, metadata=metadata)


def test_defaults_are_the_documented_window_and_key_limit():
    assert (LAYOUT.timestamp_max_age_days, LAYOUT.timestamp_max_ahead_days) == (400.0, 1.0)
    assert LAYOUT.max_metadata_keys == 32


def test_unknown_metadata_keys_go_into_one_flat_object_field():
    assert MAPPINGS["properties"]["metadata_extra"] == {"type": "flat_object"}
    assert MAPPINGS["properties"]["metadata"]["dynamic"] is False and "dynamic_templates" not in MAPPINGS
    doc = to_document(_v(metadata={"app": "shop", "tenant": "acme", "shard": 3, "ab": {"x": True}}), KAFKA, LAYOUT)
    assert doc["metadata"] == {"app": "shop", "tenant": "acme"}
    assert doc["metadata_extra"] == {"shard": "3", "ab": '{"x":true}'}
    assert "store_flags" not in doc and "original_timestamp" not in doc


def test_a_thousand_keys_are_cut_to_the_limit_and_flagged():
    metadata = {f"k{i}": "v" for i in range(1000)} | {"app": "shop"}
    doc = to_document(_v(metadata=metadata), KAFKA, LAYOUT)
    assert list(doc["metadata_extra"]) == [f"k{i}" for i in range(32)]
    assert doc["store_flags"] == ["metadata_keys_dropped"] and doc["metadata"] == {"app": "shop"}


def test_unindexable_keys_are_dropped_and_long_values_cut():
    metadata = {"": "a", ".x": "b", "a..b": "c", "k" * 257: "d", "user.id": "e", "note": "n" * 5000}
    doc = to_document(_v(metadata=metadata), KAFKA, LAYOUT)
    assert doc["metadata_extra"] == {"user.id": "e", "note": "n" * 1024}
    assert doc["store_flags"] == ["metadata_keys_dropped", "metadata_value_truncated"]


def test_a_timestamp_outside_the_window_is_replaced_by_the_kafka_time_and_flagged():
    for crafted in ("1900-01-01T00:00:00+00:00", "2025-02-01T00:00:00+00:00", "2026-03-11T12:00:01+00:00",
                    "9999-12-31T00:00:00+00:00"):
        v = _v(timestamp=crafted)
        assert stored_time(v, KAFKA, LAYOUT) == (KAFKA, True), crafted
        assert index_name(v, "gw", "month", KAFKA, LAYOUT) == "gw-2026.03"
        doc = to_document(v, KAFKA, LAYOUT)
        assert (doc["timestamp"], doc["original_timestamp"]) == (KAFKA.isoformat(), crafted)
        assert doc["store_flags"] == ["timestamp_replaced"]


def test_the_window_is_relative_to_the_message_not_to_now():
    # 399 days before its message: kept, whatever today's date is, so a replay next year lands in the same index.
    v = _v(timestamp="2025-02-04T12:00:00+00:00")
    assert stored_time(v, KAFKA, LAYOUT) == (datetime(2025, 2, 4, 12, tzinfo=timezone.utc), False)
    assert index_name(v, "gw", "month", KAFKA, LAYOUT) == "gw-2025.02"
    assert stored_time(_v(timestamp="2026-03-11T11:59:00+00:00"), KAFKA, LAYOUT)[1] is False  # within a day ahead


def test_without_a_kafka_time_the_scored_at_time_is_the_reference():
    v = _v(timestamp="2020-01-01T00:00:00+00:00")  # scored 2026-04-01 (tests/unit/verdicts.py)
    when, replaced = stored_time(v, None, LAYOUT)
    assert replaced and when == datetime(2026, 4, 1, 8, tzinfo=timezone.utc)
    assert stored_time(_v(timestamp=None), None, LAYOUT) == (None, False)  # undated stays undated


def test_index_refused_is_its_own_dead_letter_reason():
    failure = ItemFailure("id", 400, "index_refused", "invalid_index_name_exception")
    assert failure.permanent and failure.label == "index_refused"
    assert ItemFailure("id", 400, "mapper_parsing_exception", "").label == "rejected"


def test_every_field_of_a_bounded_document_is_mapped():
    from tests.unit.test_export_opensearch_mapping import _unmapped

    doc = to_document(_v(timestamp="1901-01-01T00:00:00+00:00", metadata={"app": "a", **{f"k{i}": i for i in range(40)}}),
                      KAFKA, LAYOUT)
    assert {"metadata_extra", "store_flags", "original_timestamp"} <= set(doc)
    assert _unmapped(doc, MAPPINGS["properties"]) == []
