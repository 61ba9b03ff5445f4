"""Rewriting an answer for the action policy: cut claims out by their spans, or add a notice.

A sentence whose every claim is cut goes whole. A clause cut out of a sentence
takes its connector with it (", and" before it, or the one after it when it
opened the sentence); the sentence keeps its final punctuation and the next
clause is capitalised. Citation markers inside a cut clause go with it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from groundwatch.scorers.english.sentences import sentence_spans

_TERMINAL = re.compile(r"([.!?]+)[\"')”’]*(?:\s*\[[^\[\]]{1,40}\])*\s*$")
# A list marker or quote mark left alone on its line by a cut ("2.", "-", "> ").
_EMPTY_BULLET = re.compile(r"^[ \t]*(?:>[ \t]*)*(?:(?:[-*+•]|\d+[.)])[ \t]*|>[ \t]*)$", re.M)


@dataclass(frozen=True)
class _Cut:
    start: int
    end: int
    insert: str = ""          # text put in the cut's place (a sentence's final punctuation)
    capitalise: bool = False  # upper-case the first letter after the cut


def _sentence_cuts(text: str, s0: int, s1: int, members: list[tuple[tuple[int, int], bool]]) -> list[_Cut]:
    """Cuts inside one sentence; members are (span, removed) in answer order."""
    if all(removed for _, removed in members):
        return [_Cut(s0, s1)]
    cuts, i, n = [], 0, len(members)
    while i < n:
        if not members[i][1]:
            i += 1
            continue
        j = i
        while j + 1 < n and members[j + 1][1]:
            j += 1
        if i > 0:  # a kept clause before: cut from its end, so the connector goes too
            start, end = members[i - 1][0][1], members[j][0][1]
            insert = ""
            if j == n - 1:  # the run ends the sentence: keep its final punctuation
                end = max(end, s1)
                match = _TERMINAL.search(text, start, end)
                insert = match.group(1) if match else ""
            cuts.append(_Cut(start, end, insert))
        else:  # the run opens the sentence: cut up to the next kept clause
            cuts.append(_Cut(members[0][0][0], members[j + 1][0][0], capitalise=True))
        i = j + 1
    return cuts


def strip_spans(text: str, spans: list[tuple[int, int]], remove: set[int]) -> str:
    """`text` without the spans whose index is in `remove` (spans are claim spans in `text`)."""
    sentences = sentence_spans(text) or [(0, len(text))]
    cuts: list[_Cut] = []
    for s0, s1 in sentences:
        members = sorted((tuple(spans[i]), i in remove) for i in range(len(spans))
                         if spans[i][0] < s1 and spans[i][1] > max(s0, spans[i][0]))  # overlaps it
        if any(removed for _, removed in members):
            cuts.extend(_sentence_cuts(text, s0, s1, members))
    out, cursor, capitalise = "", 0, False
    for cut in sorted(cuts, key=lambda c: c.start):
        if cut.start < cursor:  # overlapping spans (producer-given claims): already cut
            cursor = max(cursor, cut.end)
            continue
        out = _join(out, text[cursor:cut.start], capitalise) + cut.insert
        cursor, capitalise = cut.end, cut.capitalise
    out = _join(out, text[cursor:], capitalise)
    out = _EMPTY_BULLET.sub("", out)
    return re.sub(r"\n{3,}", "\n\n", out).strip()


def _join(left: str, right: str, capitalise: bool) -> str:
    if not left or left[-1].isspace():
        right = right.lstrip(" \t") if left else right.lstrip()
    if capitalise:
        stripped = right.lstrip()
        if stripped[:1].islower():
            right = right[: len(right) - len(stripped)] + stripped[0].upper() + stripped[1:]
    return left + right


def hedge(text: str, notice: str, position: str = "append") -> str:
    """The answer with the policy's notice before or after it, a blank line between."""
    if not notice:
        return text
    return f"{notice}\n\n{text}" if position == "prepend" else f"{text}\n\n{notice}"
