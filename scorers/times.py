"""The one parser for ISO 8601 times in records, settings and arguments."""

from __future__ import annotations

from datetime import datetime, timezone


def parse_time(value: str | None, *, strict: bool = False) -> datetime | None:
    """An aware datetime (a time without zone is UTC); None for an empty value.

    A malformed value raises ValueError when `strict` (command-line arguments), else gives
    None (stored records, where a bad date must not stop the run).
    """
    if value is None or value == "":
        return None
    try:
        if not isinstance(value, str):
            raise ValueError(f"expected an ISO 8601 string, got {type(value).__name__}")
        moment = datetime.fromisoformat(value.strip())
    except ValueError:
        if strict:
            raise
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)
