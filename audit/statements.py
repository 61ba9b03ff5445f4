"""Source-linked atomic statements: each sentence of a document, with where it came from.

Lines are split first (a heading or list item without a full stop must not
run into the next sentence), then sentences; list markers are left out of the
span. Headings, questions and fragments (under three words) are not statements.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from groundwatch.audit.documents import Document
from groundwatch.scorers.answer.claims import sentence_spans
from groundwatch.scorers.english.facts import Fact, sentence_facts

_LIST_MARKER = re.compile(r"^\s*(?:[-*•]|\d{1,2}[.)])\s+")
_TERMINAL = re.compile(r"[.!?…][\"'”’)\]]*$")


@dataclass(frozen=True)
class Statement:
    doc_id: str
    index: int           # sentence number in the document, from 0
    start: int           # character offsets in the document text
    end: int
    text: str

    @property
    def facts(self) -> tuple[Fact, ...]:
        return sentence_facts(self.text)

    def ref(self) -> dict:
        return {"doc_id": self.doc_id, "sentence": self.index, "offsets": [self.start, self.end], "text": self.text}


def line_spans(text: str) -> list[tuple[int, int]]:
    """Non-blank lines, list markers excluded."""
    out, pos = [], 0
    for line in text.split("\n"):
        marker = _LIST_MARKER.match(line)
        start = pos + (marker.end() if marker else 0)
        end = pos + len(line.rstrip())
        while start < end and text[start].isspace():
            start += 1
        if end > start:
            out.append((start, end))
        pos += len(line) + 1
    return out


def sentences(text: str) -> list[tuple[int, int]]:
    return [(s + a, s + b) for s, e in line_spans(text) for a, b in sentence_spans(text[s:e])]


def is_statement(sentence: str) -> bool:
    """A claim about the world: three words or more, not a question, not a bare heading."""
    words = sentence.split()
    if len(words) < 3 or sentence.rstrip("\"'”’)] ").endswith("?"):
        return False
    return bool(_TERMINAL.search(sentence)) or len(words) >= 6


def statements_of(document: Document) -> list[Statement]:
    out = []
    for i, (start, end) in enumerate(sentences(document.text)):
        text = document.text[start:end]
        if is_statement(text):
            out.append(Statement(document.doc_id, i, start, end, text))
    return out
