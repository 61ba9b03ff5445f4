"""Split an answer into atomic claims, each with its character span in the answer.

Sentences first, then clauses joined by ';', ', and', 'but', 'so'. Conditions
(if / unless / subject to / only when ...) stay attached to their predicate,
and a clause that starts with a pronoun gets the subject of the sentence.
"""

from __future__ import annotations

import hashlib
import re
from collections import OrderedDict
from dataclasses import dataclass


@dataclass(frozen=True)
class Claim:
    text: str          # what is checked (pronoun resolved, citation markers removed)
    span: tuple[int, int]  # where it sits in the answer

    @property
    def source_text(self) -> str:
        return self.text


_ABBREVIATIONS = ("e.g.", "i.e.", "etc.", "vs.", "Mr.", "Mrs.", "Ms.", "Dr.", "Inc.", "Ltd.", "Co.",
                  "St.", "No.", "approx.", "U.S.", "a.m.", "p.m.", "Jan.", "Feb.", "Aug.", "Sept.", "Oct.",
                  "Nov.", "Dec.")
_SENTENCE_END = re.compile(r"[.!?]+[\"')\]]*(?:\s*\[[^\]]{1,40}\])*(?=\s+|$)")
_CLAUSE_SPLIT = re.compile(r";\s+|,\s+and\s+|,?\s+but\s+|,\s+so\s+|,\s+while\s+|,\s+whereas\s+")
_CONDITION_START = re.compile(
    r"^(?:if|unless|only if|only when|when|provided|as long as|subject to|except|in case|once)\b", re.I)
_PRONOUN_START = re.compile(r"^(it|they|this|these|he|she)\b\s*", re.I)
_VERB_HINT = re.compile(
    r"\b(is|are|was|were|be|been|has|have|had|can|cannot|can't|could|will|won't|would|should|must|may|"
    r"might|does|do|did|doesn't|don't|didn't|isn't|aren't|wasn't|weren't|need|needs|require|requires|"
    r"[a-z]{2,}(?:ed|es)|"
    r"(?:allow|return|include|require|provide|support|offer|cover|take|run|get|use|need|mean|apply|"
    r"contain|cost|charge|last|expire|start|end|remain|become|seem|work|help|keep|let|make|send|store|"
    r"show|stay|limit|grant|accept|reject|block|hold|lose|pay|earn|rank|sit|lie|stand|serve|ship|arrive|"
    r"deliver|open|close|process|cancel|renew|exclude|depend|happen|occur|change|increase|decrease|"
    r"reduce|rise|fall|grow|move|go|come|stop|begin|continue|enable|disable|protect|encrypt|replicate|"
    r"sync|load|handle|receive|reach|exceed|follow|lead|live|operate|qualify|bill|say|state|list|"
    r"report|display|appear|ask|answer|give|find|know|think|see|want|like|love|call|try|leave|put|"
    r"bring|write|read|pay|meet|create|build|add|remove|delete|update|upgrade|migrate|restore|fail)s?)\b",
    re.I)
_SUBJECT_END = re.compile(
    r"\b(is|are|was|were|has|have|had|can|cannot|could|will|would|should|must|may|might|does|do|did)\b", re.I)
_CITATION_MARK = re.compile(r"\s*\[([^\[\]]{1,40})\]")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    spans, start = [], 0
    for m in _SENTENCE_END.finditer(text):
        end = m.end()
        if any(text[max(0, end - len(a) - 1):end].strip().endswith(a) for a in _ABBREVIATIONS):
            continue
        if re.search(r"\d\.$", text[start:m.start() + 1]) and end < len(text) and text[end:end + 2].strip()[:1].isdigit():
            continue
        spans.append((start, end))
        start = end
    if text[start:].strip():
        spans.append((start, len(text)))
    return [_strip(text, s, e) for s, e in spans if text[s:e].strip()]


def _strip(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


_CLAUSE_START = re.compile(
    r"^(it|they|he|she|we|you|i|this|these|those|there|that|the|a|an|our|your|its|their|his|her|each|every|"
    r"all|some|no|most|many|[A-Z]\w*)\b")


def _is_clause(text: str) -> bool:
    """Has a subject and a predicate, roughly: 3+ words starting like a subject or containing a verb."""
    text = text.strip()
    return len(text.split()) >= 3 and bool(_CLAUSE_START.match(text) or _VERB_HINT.search(text))


def clause_spans(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Split one sentence into clauses; keep a split only if both sides are clauses."""
    pieces: list[tuple[int, int]] = []
    cursor = start
    for m in _CLAUSE_SPLIT.finditer(text, start, end):
        left = text[cursor:m.start()]
        right_start = m.end()
        right = text[right_start:end]
        if not (_is_clause(left) and _is_clause(right)):
            continue
        if _CONDITION_START.match(right.strip()) or _CONDITION_START.match(left.strip()):
            continue  # the condition belongs to its predicate
        pieces.append(_strip(text, cursor, m.start()))
        cursor = right_start
    pieces.append(_strip(text, cursor, end))
    return [p for p in pieces if p[1] > p[0]]


def _subject(clause: str) -> str | None:
    """The words before the first verb, skipping the first word (a subject has at least one)."""
    first = re.match(r"\s*\S+", clause)
    begin = first.end() if first else 0
    hits = [m for m in (_SUBJECT_END.search(clause, begin), _VERB_HINT.search(clause, begin)) if m]
    if not hits:
        return None
    m = min(hits, key=lambda h: h.start())
    subject = clause[:m.start()].strip(" ,")
    return subject if 0 < len(subject.split()) <= 8 else None


def _tidy(text: str) -> str:
    text = _CITATION_MARK.sub("", text).strip()
    text = text.rstrip(",;: ")
    if text and text[0].islower():
        text = text[0].upper() + text[1:]
    if text and text[-1] not in ".!?\"'":
        text += "."
    return text


def cited_markers(text: str) -> list[str]:
    """Inline citation markers such as [p2] or [doc-3] inside a claim's text."""
    return [m.group(1).strip() for m in _CITATION_MARK.finditer(text)]


def decompose(answer: str) -> list[Claim]:
    claims: list[Claim] = []
    for s_start, s_end in sentence_spans(answer):
        sentence_subject = None
        for i, (c_start, c_end) in enumerate(clause_spans(answer, s_start, s_end)):
            raw = answer[c_start:c_end]
            text = raw
            if i == 0:
                sentence_subject = _subject(raw)
            else:
                m = _PRONOUN_START.match(raw)
                if m and sentence_subject:
                    text = sentence_subject + " " + raw[m.end():]
            tidy = _tidy(text)
            if tidy.strip(". "):
                claims.append(Claim(tidy, (c_start, c_end)))
    return claims


def given_claims(answer: str, claims: list[str]) -> list[Claim]:
    """Producer-supplied claims, used as given; span found in the answer when possible."""
    out = []
    for text in claims:
        pos = answer.find(text)
        span = (pos, pos + len(text)) if pos >= 0 else (0, 0)
        out.append(Claim(text.strip(), span))
    return out


class ClaimCache:
    """Decompositions cached by answer hash (identical answers are common in traffic)."""

    def __init__(self, size: int = 4096):
        self._size = size
        self._items: OrderedDict[str, list[Claim]] = OrderedDict()

    def get(self, answer: str) -> list[Claim]:
        key = hashlib.sha1(answer.encode("utf-8")).hexdigest()
        if key in self._items:
            self._items.move_to_end(key)
            return self._items[key]
        claims = decompose(answer)
        self._items[key] = claims
        if len(self._items) > self._size:
            self._items.popitem(last=False)
        return claims
