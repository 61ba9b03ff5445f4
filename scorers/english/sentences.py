"""Sentence boundaries with character offsets, tolerant of abbreviations and UI labels.

Linear in the text: every pattern is matched at a position (never on a slice
of the rest of the text), and a run of end punctuation is tried once, from
its first character.
"""

from __future__ import annotations

import re

from groundwatch.scorers.english.markdown import ITEM, PROSE, blocks

_ABBREVIATIONS = ("e.g.", "i.e.", "etc.", "vs.", "v.", "Mr.", "Mrs.", "Ms.", "Dr.", "Inc.", "Ltd.", "Co.",
                  "St.", "approx.", "U.S.", "a.m.", "p.m.", "Jan.", "Feb.", "Aug.", "Sept.", "Oct.",
                  "Nov.", "Dec.", "Fig.", "No.")
# (?<![.!?]): a match always takes the whole run, so starting inside a run could only fail again.
_END = re.compile(r"(?<![.!?])[.!?]+[\"')\]”’*_]*(?:\s*\[[^\]]{1,40}\])*(?=\s|$)")  # *_: "**bold.**"
_NEXT_STARTS_SENTENCE = re.compile(r"\s+[\"'“‘(\[]?[A-Z0-9]")
_NUMBER_NEXT = re.compile(r"\s*\d")


_INITIAL_BEFORE = re.compile(r"(?:^|[\s.])[A-Z]\.\s*$")
_INITIAL_NEXT = re.compile(r"\s*[A-Z]\.")


def _initial(text: str, end: int) -> bool:
    """One capital and a dot beside another such ("J.K. Rowling", "J. K. Rowling", "J.R.R. Tolkien"): a name's
    initials. A lone one ("plan B. It") still ends a sentence."""
    if not text[end - 2].isupper() or (end > 2 and text[end - 3].isalpha()):
        return False
    return bool(_INITIAL_BEFORE.search(text, max(0, end - 6), end - 2) or _INITIAL_NEXT.match(text, end))


def _is_abbreviation(text: str, end: int) -> bool:
    # Every abbreviation ends in a letter and ".": most candidates ("1.", "word.\"") are out at once.
    if end < 2 or text[end - 1] != "." or not text[end - 2].isalpha():
        return False
    if _initial(text, end):
        return True
    before = text[max(0, end - 8):end]
    for a in _ABBREVIATIONS:
        if before.endswith(a) and (end - len(a) == 0 or not text[end - len(a) - 1].isalpha()):
            # "No." ends a sentence unless a number follows ("No. 5").
            return not (a == "No." and not _NUMBER_NEXT.match(text, end))
    return False


def _list_number(text: str, start: int, dot: int, end: int) -> bool:
    """'1. 2. 3.': a digit before the dot and a digit after the space is a list marker, not a boundary."""
    return (dot > start and text[dot] == "." and text[dot - 1].isdecimal()
            and text[end:end + 2].strip()[:1].isdigit())


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Sentence boundaries of `text`, its Markdown markers left out (scorers/english/markdown.py)."""
    return [(start, end) for start, end, _ in sentences(text)]


def sentences(text: str) -> list[tuple[int, int, str]]:
    """(start, end, block kind) of each sentence: prose and list items are split into sentences; any
    other block (a heading, a table row, a code block ...) is one."""
    out = []
    for block in blocks(text):
        if block.kind in (PROSE, ITEM):
            out.extend((s, e, block.kind) for s, e in _prose_spans(text, block.start, block.end))
        else:
            out.append((block.start, block.end, block.kind))
    return out


def _prose_spans(text: str, start: int, stop: int) -> list[tuple[int, int]]:
    spans, first = [], start
    for m in _END.finditer(text, start, stop):
        end = m.end()
        if end < stop:
            if _is_abbreviation(text, end):
                continue
            # A boundary needs a capital, digit or quote next: "click Forgot password? on the page" is one.
            if not _NEXT_STARTS_SENTENCE.match(text, end, stop):
                continue
            if _list_number(text, first, m.start(), end):
                continue
        spans.append((first, end))
        first = end
    if text[first:stop].strip():
        spans.append((first, stop))
    return [strip_span(text, s, e) for s, e in spans if text[s:e].strip()]


def strip_span(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end
