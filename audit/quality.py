"""Document quality: empty, very short or truncated documents, and duplicated passages.

A document is truncated when its last line reads like prose (six words or
more, or ends in a comma or connective) yet has no closing punctuation;
headings and list items may end bare. Passages are blank-line paragraphs of
at least `min_words` words: exact copies match on normalised text, near
copies on MinHash overlap; copies inside one document are an intra-document
problem, copies across documents an inter-document one.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

from groundwatch.audit.documents import Document
from groundwatch.audit.minhash import LSH, MinHasher, normalise, shingles, similarity
from groundwatch.audit.statements import line_spans
from groundwatch.audit.unionfind import UnionFind

_CLOSED = re.compile(r"[.!?…:;)\]\"'”’]$")
_OPEN_END = re.compile(r"(?:,|\b(?:and|or|but|the|a|an|to|of|for|with|within|in|on|by|is|are|was|were))$", re.I)
_LIST_MARKER = re.compile(r"^\s*(?:[-*•]|\d{1,2}[.)])\s+")


@dataclass
class Issue:
    kind: str                  # empty | very_short | truncated | duplicate_paragraph
    scope: str                 # "intra" (inside a document) or "inter" (across documents)
    doc_ids: list[str]
    detail: str
    where: list[dict] = field(default_factory=list)  # doc_id, paragraph, offsets, text excerpt


def paragraphs(text: str) -> list[tuple[int, int]]:
    out = []
    for m in re.finditer(r"\S(?:.*?\S)?(?=\n\s*\n|\s*$)", text, re.S):
        out.append((m.start(), m.end()))
    return out


def excerpt(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def document_issues(doc: Document, min_words: int = 20) -> list[Issue]:
    words = len(doc.text.split())
    if words == 0:
        return [Issue("empty", "intra", [doc.doc_id], "no text")]
    issues = []
    if words < min_words:
        issues.append(Issue("very_short", "intra", [doc.doc_id], f"{words} words (under {min_words})"))
    lines = line_spans(doc.text)
    start, end = lines[-1]
    last = doc.text[start:end]
    listed = bool(_LIST_MARKER.match(doc.text[doc.text.rfind("\n", 0, start) + 1:end]))
    prose = len(last.split()) >= 6 or bool(_OPEN_END.search(last))
    if not _CLOSED.search(last) and prose and not listed:
        issues.append(Issue("truncated", "intra", [doc.doc_id], "ends mid-sentence",
                            [{"doc_id": doc.doc_id, "offsets": [start, end], "text": excerpt(last[-160:])}]))
    return issues


@dataclass
class _Passage:
    doc_id: str
    index: int
    start: int
    end: int
    text: str


class DuplicateFinder:
    def __init__(self, min_words: int = 8, near: float = 0.8, hasher: MinHasher | None = None):
        self.min_words = min_words
        self.near = near
        self._hasher = hasher or MinHasher()
        self._lsh = LSH(bands=16)
        self._exact: dict[bytes, int] = {}
        self._signatures: dict[int, object] = {}
        self._passages: list[_Passage] = []
        self._sets = UnionFind()

    def add(self, doc: Document) -> None:
        for index, (start, end) in enumerate(paragraphs(doc.text)):
            text = doc.text[start:end]
            if len(text.split()) < self.min_words:
                continue
            pid = len(self._passages)
            self._passages.append(_Passage(doc.doc_id, index, start, end, excerpt(text)))
            key = hashlib.blake2b(normalise(text).encode(), digest_size=16).digest()
            if key in self._exact:
                self._sets.union(pid, self._exact[key])
                continue
            self._exact[key] = pid
            signature = self._hasher.signature(shingles(text))
            for other in self._lsh.add(pid, signature):
                if similarity(signature, self._signatures[other]) >= self.near:
                    self._sets.union(pid, other)
            self._signatures[pid] = signature

    def issues(self, families: list[set[str]] = ()) -> list[Issue]:
        """Groups of copied passages; those only between versions of one document are left out."""
        out = []
        for group in self._sets.groups():
            if len(group) < 2:
                continue
            passages = sorted((self._passages[p] for p in group), key=lambda p: (p.doc_id, p.index))
            doc_ids = sorted({p.doc_id for p in passages})
            if len(doc_ids) > 1 and any(set(doc_ids) <= family for family in families):
                continue
            scope = "intra" if len(doc_ids) == 1 else "inter"
            where = [{"doc_id": p.doc_id, "paragraph": p.index, "offsets": [p.start, p.end], "text": p.text}
                     for p in passages]
            out.append(Issue("duplicate_paragraph", scope, doc_ids,
                             f"{len(passages)} copies of one passage" + ("" if scope == "intra" else
                                                                          f" across {len(doc_ids)} documents"),
                             where))
        out.sort(key=lambda i: (i.scope, i.doc_ids))
        return out
