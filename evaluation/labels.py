"""Gold labels of the labelled JSONL: binary, plus a 3-way label where a set has one."""

from __future__ import annotations

SUPPORTED = "supported"
UNSUPPORTED = "unsupported"
CONTRADICTED = "contradicted"
NOT_ENOUGH_INFO = "not_enough_info"

BINARY = (SUPPORTED, UNSUPPORTED)
THREE_WAY = (SUPPORTED, CONTRADICTED, NOT_ENOUGH_INFO)


def is_unsupported(label: str) -> bool:
    """Any label but `supported` counts as the positive (unsupported) class."""
    if label not in BINARY + THREE_WAY:
        raise ValueError(f"label {label!r}: expected one of {sorted(set(BINARY + THREE_WAY))}")
    return label != SUPPORTED
