from __future__ import annotations

from datetime import datetime, timezone

import pytest

from groundwatch.scorers.jsonl import JsonlError, read_jsonl
from groundwatch.scorers.times import parse_time


def _file(tmp_path, text: str):
    path = tmp_path / "records.jsonl"
    path.write_text(text, encoding="utf-8")
    return path


def test_blank_lines_are_skipped_and_numbers_count_every_line(tmp_path):
    path = _file(tmp_path, '{"a": 1}\n\n   \n[2]\n')
    assert list(read_jsonl(path)) == [(1, {"a": 1}), (4, [2])]


def test_raise_names_the_first_broken_line(tmp_path):
    path = _file(tmp_path, '{"a": 1}\n{"a": \n{"b": 2}\n')
    with pytest.raises(JsonlError) as info:
        list(read_jsonl(path))
    assert info.value.line == 2 and "line 2: not JSON" in str(info.value)
    assert isinstance(info.value, ValueError)


def test_yield_hands_back_the_error_and_reads_on(tmp_path):
    path = _file(tmp_path, '{"a": 1}\nnope\n{"b": 2}\n')
    items = list(read_jsonl(path, errors="yield"))
    assert [n for n, _ in items] == [1, 2, 3]
    assert isinstance(items[1][1], JsonlError) and items[1][1].colno == 1
    assert items[2] == (3, {"b": 2})


def test_a_byte_order_mark_opening_the_file_is_not_part_of_the_first_record(tmp_path):
    path = tmp_path / "with-bom.jsonl"
    path.write_bytes(b'\xef\xbb\xbf{"a": 1}\n\xef\xbb\xbf{"b": 2}\n')  # "UTF-8 with BOM"; a second mark is content
    items = list(read_jsonl(path, errors="yield"))
    assert items[0] == (1, {"a": 1})
    assert isinstance(items[1][1], JsonlError) and items[1][0] == 2


def test_unknown_policy_is_refused(tmp_path):
    with pytest.raises(ValueError):
        list(read_jsonl(_file(tmp_path, "{}\n"), errors="skip"))


def test_times_without_zone_are_utc_and_all_compare():
    assert parse_time("2025-06-01") == datetime(2025, 6, 1, tzinfo=timezone.utc)
    assert parse_time("2025-06-01") < parse_time("2025-06-01T10:00:00Z") < parse_time("2025-06-02T02:00:00+02:00")
    assert parse_time(" 2025-06-01T10:00:00+00:00 ") == parse_time("2025-06-01T10:00:00Z")


@pytest.mark.parametrize("value", [None, ""])
def test_empty_is_none_in_both_modes(value):
    assert parse_time(value) is None and parse_time(value, strict=True) is None


@pytest.mark.parametrize("value", ["last tuesday", 20250601, "2025-13-01"])
def test_malformed_is_none_unless_strict(value):
    assert parse_time(value) is None
    with pytest.raises(ValueError):
        parse_time(value, strict=True)
