"""Superseded versions: documents that are copies of one another with different dates or values.

Two documents are versions when their texts overlap strongly (MinHash of
word 3-shingles, at least `overlap`), or when their titles match after
dropping years and version marks and the texts still overlap (`title_overlap`).
Pairs join into families; the newest by updated_at is current, the rest are
superseded. Identical texts with equal dates are duplicates, not versions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timezone

import numpy as np

from groundwatch.audit.documents import Document
from groundwatch.audit.minhash import LSH, MinHasher, normalise, shingles, similarity
from groundwatch.audit.store import StatementStore
from groundwatch.audit.unionfind import UnionFind
from groundwatch.scorers.english.facts import mismatches
from groundwatch.scorers.times import parse_time

_TITLE_NOISE = re.compile(r"\(.*?\)|\[.*?\]|\b(?:19|20)\d\d\b|\bv\d+(?:\.\d+)*\b|\bversion\s+\d+\b"
                          r"|\b(?:old|new|archived?|legacy|draft|updated|copy|outdated)\b", re.I)
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def title_key(title: str) -> str:
    return normalise(_TITLE_NOISE.sub(" ", title))


@dataclass
class VersionFamily:
    documents: list[dict]          # doc_id, title, updated_at; newest first
    current: str | None            # the newest by updated_at; None when that is not decidable
    superseded: list[str]          # older versions still in the corpus
    overlap: float                 # lowest estimated text overlap between linked versions
    reasons: list[str]             # "text overlap", "same title"
    changed_values: list[dict] = field(default_factory=list)  # key, value per document


@dataclass
class _Seen:
    title: str
    updated_at: str | None
    signature: np.ndarray
    text_hash: int


class VersionFinder:
    def __init__(self, overlap: float = 0.6, title_overlap: float = 0.3, hasher: MinHasher | None = None):
        self.overlap = overlap
        self.title_overlap = title_overlap
        self._hasher = hasher or MinHasher()
        self._lsh = LSH(bands=16)
        self._seen: dict[str, _Seen] = {}
        self._titles: dict[str, list[str]] = {}
        self._links: dict[tuple[str, str], tuple[float, str]] = {}

    def add(self, doc: Document) -> None:
        grams = shingles(doc.text)
        if len(grams) < 3:
            return  # empty or a stub: nothing to compare
        seen = _Seen(doc.title, doc.updated_at, self._hasher.signature(grams), hash(normalise(doc.text)))
        key = title_key(doc.title)
        candidates = self._lsh.add(doc.doc_id, seen.signature) | set(self._titles.get(key, []) if key else [])
        for other in candidates:
            self._consider(other, doc.doc_id, seen, same_title=bool(key) and title_key(self._seen[other].title) == key)
        self._seen[doc.doc_id] = seen
        if key:
            self._titles.setdefault(key, []).append(doc.doc_id)

    def _consider(self, other_id: str, doc_id: str, seen: _Seen, same_title: bool) -> None:
        other = self._seen[other_id]
        if other.text_hash == seen.text_hash and other.updated_at == seen.updated_at:
            return  # an exact copy: a duplicate, reported with the duplicated passages
        overlap = similarity(other.signature, seen.signature)
        if overlap >= self.overlap:
            self._links[(other_id, doc_id)] = (overlap, "text overlap")
        elif same_title and overlap >= self.title_overlap:
            self._links[(other_id, doc_id)] = (overlap, "same title")

    def families(self, store: StatementStore | None = None) -> list[VersionFamily]:
        sets = UnionFind()
        for a, b in self._links:
            sets.union(a, b)
        out = []
        for members in sets.groups():
            docs = sorted(members, key=lambda d: (parse_time(self._seen[d].updated_at) is None,
                                                  -(parse_time(self._seen[d].updated_at) or _EPOCH).timestamp(), d))
            dates = [parse_time(self._seen[d].updated_at) for d in docs]
            decidable = dates[0] is not None and (len(dates) < 2 or dates[1] is None or dates[0] > dates[1])
            links = [v for k, v in self._links.items() if k[0] in members]
            out.append(VersionFamily(
                documents=[{"doc_id": d, "title": self._seen[d].title, "updated_at": self._seen[d].updated_at}
                           for d in docs],
                current=docs[0] if decidable else None,
                superseded=[d for d, t in zip(docs[1:], dates[1:]) if decidable and t is not None],
                overlap=round(min(o for o, _ in links), 3),
                reasons=sorted({r for _, r in links}),
                changed_values=_changed_values(docs, store) if store else []))
        out.sort(key=lambda f: f.documents[0]["doc_id"])
        return out


def _changed_values(docs: list[str], store: StatementStore) -> list[dict]:
    """Facts whose value differs between the versions, keyed once, with each document's value."""
    facts = {d: [f for s in store.of_document(d) for f in s.facts] for d in docs}
    changed: dict[str, dict[str, str]] = {}
    for i, a in enumerate(docs):
        for b in docs[i + 1:]:
            for fa, fb in mismatches(facts[a], facts[b]):
                changed.setdefault(fa.key, {}).update({a: fa.value.text, b: fb.value.text})
    return [{"key": k, "values": v} for k, v in sorted(changed.items())]
