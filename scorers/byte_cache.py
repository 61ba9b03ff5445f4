"""Caches bounded in bytes: least recently used out first.

The scorer's caches are keyed by whole sentences, chunks and answers. A passage without
punctuation is one sentence of 100,000 characters, and its analysis is megabytes, so a count
limit (lru_cache's maxsize) bounds nothing: a stream of such texts grows memory without end.
Here each entry's size is estimated once, when it is stored (`deep_size` of key and value, or
the cache's own cheaper `sizer`), and the least recently used entries leave until the total fits
the budget. An entry larger than `max_entry` of the budget is returned but not kept: it would
empty the cache for one text.

`byte_cached(budget)` replaces `functools.lru_cache(maxsize=...)` on a function of hashable
positional arguments and keeps `cache_clear()` and a `cache_info()` (hits, misses, entries,
bytes, budget). Every live ByteLRU is in `CACHES`, so a test can add up what they hold.
"""

from __future__ import annotations

import enum
import functools
import sys
import threading
import types
import weakref
from collections import OrderedDict
from typing import Any, Callable, NamedTuple

MB = 1 << 20
_LEAVES = (str, bytes, bytearray, int, float, complex, bool, type(None))
_SHARED = (type, enum.Enum, types.ModuleType, types.FunctionType, types.BuiltinFunctionType)


def deep_size(obj: Any) -> int:
    """Bytes of an object and everything it holds (containers, dataclass fields), each object once.

    An upper estimate: strings shared with other entries (lemmas from the lemma table) are counted
    in each entry that holds them. Classes, enum members, functions and modules are not counted.
    """
    seen: set[int] = set()
    total = 0
    stack = [obj]
    while stack:
        o = stack.pop()
        if isinstance(o, _SHARED) or o is None or o is True or o is False or id(o) in seen:
            continue
        seen.add(id(o))
        total += sys.getsizeof(o)
        if isinstance(o, _LEAVES):
            continue
        if isinstance(o, dict):
            stack.extend(o.keys())
            stack.extend(o.values())
        elif isinstance(o, (tuple, list, set, frozenset)):
            stack.extend(o)
        else:
            d = getattr(o, "__dict__", None)
            if d is not None:
                stack.append(d)
            for name in getattr(type(o), "__slots__", ()):
                stack.append(getattr(o, name, None))
    return total


class CacheInfo(NamedTuple):
    hits: int
    misses: int
    entries: int
    nbytes: int
    budget: int


class ByteLRU:
    """A mapping of at most `budget` estimated bytes; thread-safe."""

    def __init__(self, budget: int, name: str = "", max_entry: float = 0.25,
                 sizer: Callable[[Any, Any], int] | None = None):
        if budget < 0:
            raise ValueError(f"cache {name!r}: budget {budget} is negative")
        self.budget = budget
        self.name = name
        self._max_share = max_entry
        self._max_entry = int(budget * max_entry)
        self._sizer = sizer or (lambda key, value: deep_size((key, value)))
        self._items: OrderedDict[Any, tuple[Any, int]] = OrderedDict()
        self._nbytes = 0
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0
        CACHES.add(self)

    def get(self, key: Any, default: Any = None) -> Any:
        with self._lock:
            hit = self._items.get(key)
            if hit is None:
                self.misses += 1
                return default
            self._items.move_to_end(key)
            self.hits += 1
            return hit[0]

    def put(self, key: Any, value: Any) -> bool:
        """Store `value` under `key` unless it alone is over max_entry; False when not kept."""
        size = self._sizer(key, value)  # outside the lock: walking a large value takes time
        if size > self._max_entry:
            return False
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self._nbytes -= old[1]
            self._items[key] = (value, size)
            self._nbytes += size
            self._evict()
        return True

    def resize(self, budget: int) -> None:
        with self._lock:
            self.budget = budget
            self._max_entry = int(budget * self._max_share)
            self._evict()

    def _evict(self) -> None:
        while self._nbytes > self.budget:
            _, (_, gone) = self._items.popitem(last=False)
            self._nbytes -= gone

    @property
    def nbytes(self) -> int:
        return self._nbytes

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: Any) -> bool:
        with self._lock:
            return key in self._items

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._nbytes = 0
            self.hits = self.misses = 0

    def info(self) -> CacheInfo:
        return CacheInfo(self.hits, self.misses, len(self._items), self._nbytes, self.budget)


# Every ByteLRU alive: the module-level caches, and one claim cache and embedder cache per scorer.
CACHES: weakref.WeakSet[ByteLRU] = weakref.WeakSet()
_MISSING = object()


def byte_cached(budget: int, sizer: Callable[[Any, Any], int] | None = None):
    """Decorator: cache a function of hashable positional arguments in a ByteLRU of `budget` bytes."""
    def wrap(fn):
        cache = ByteLRU(budget, f"{fn.__module__}.{fn.__qualname__}", sizer=sizer)

        @functools.wraps(fn)
        def cached(*args):
            key = args[0] if len(args) == 1 else args
            value = cache.get(key, _MISSING)
            if value is _MISSING:
                value = fn(*args)
                cache.put(key, value)
            return value

        cached.cache = cache
        cached.cache_clear = cache.clear
        cached.cache_info = cache.info
        return cached
    return wrap


def total_budget() -> int:
    return sum(c.budget for c in list(CACHES))


def total_bytes() -> int:
    return sum(c.nbytes for c in list(CACHES))


def scale_budgets(factor: float) -> None:
    """Multiply every live cache's budget (a memory test fills small budgets quickly)."""
    for cache in list(CACHES):
        cache.resize(int(cache.budget * factor))
