"""Deterministic sampling: the same (limit, seed) always picks the same items, in file order."""

from __future__ import annotations

import random
from typing import Sequence, TypeVar

T = TypeVar("T")


def sample(items: Sequence[T], limit: int | None, seed: int = 0) -> list[T]:
    if limit is None or limit >= len(items):
        return list(items)
    picked = sorted(random.Random(seed).sample(range(len(items)), limit))
    return [items[i] for i in picked]
