"""Disjoint sets: pairs found one by one become groups (conflicts, versions, duplicates)."""

from __future__ import annotations

from typing import Hashable, Iterable


class UnionFind:
    def __init__(self):
        self._parent: dict[Hashable, Hashable] = {}

    def find(self, x: Hashable) -> Hashable:
        self._parent.setdefault(x, x)
        while self._parent[x] != x:
            self._parent[x] = self._parent[self._parent[x]]
            x = self._parent[x]
        return x

    def union(self, a: Hashable, b: Hashable) -> None:
        self._parent[self.find(a)] = self.find(b)

    def groups(self, members: Iterable[Hashable] | None = None) -> list[set]:
        out: dict[Hashable, set] = {}
        for x in list(self._parent) if members is None else members:
            out.setdefault(self.find(x), set()).add(x)
        return list(out.values())
