"""Markdown blocks: where the prose of an answer or passage sits, without its markup.

Generated answers come as Markdown (headings, lists, quotes, tables, code). A
sentence never runs from one block into the next (a heading into its first
paragraph, one list item into the next), and a block's marker ("2.", "-", ">",
"##") is not part of any sentence: "2." alone is not a claim. Plain text is one
block per paragraph (a blank line ends it; a single line break is a soft wrap).

Linear in the text: one pass over its lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PROSE, ITEM, HEADING, LEAD_IN, TABLE, CODE, SOURCES = (
    "prose", "item", "heading", "lead_in", "table", "code", "sources")
NOT_CLAIMS = frozenset({HEADING, LEAD_IN, CODE, SOURCES})  # they state nothing of their own to check

_FENCE = re.compile(r"[ \t]{0,3}(```|~~~)")
_HEADING = re.compile(r"[ \t]{0,3}#{1,6}(?:[ \t]+|$)")
_RULE = re.compile(r"[ \t]{0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_QUOTE = re.compile(r"[ \t]*(?:>[ \t]?)+")
_BULLET = re.compile(r"[ \t]*[-*+•][ \t]+")
_NUMBERED = re.compile(r"[ \t]*(\d{1,3})[.)][ \t]+")
_TABLE_ROW = re.compile(r"[ \t]*\|")
_TABLE_RULE = re.compile(r"[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)*\|?[ \t]*$")
HEADING_WORDS = 20  # a longer "## ..." line is a page flattened into one line (scraped text), read as prose
_CLOSING_HASHES = re.compile(r"[ \t]+#+[ \t]*$")
# "**Refund window**" alone on its line: a title (a bold sentence, with its full stop, is a claim).
# No number: "**Refunds take 30 days**" is checked, as a decorative sentence with a number is.
_BOLD_LINE = re.compile(r"(\*\*|__)[^*_\n.!?\d]{1,60}:?\1:?[ \t]*$")
TITLE_WORDS = 8
_SOURCES_LABEL = re.compile(
    r"(?:#{1,6}[ \t]+)?(?:\*\*|__)?(?:sources?|references?|citations?|further reading|learn more|read more)"
    r"[ \t]*(?:(:?[ \t]*(?:\*\*|__)?:?[ \t]*$)|:)", re.I)  # group 1: the label alone; else "Sources: kb-7"
_FOOTNOTE = re.compile(r"[ \t]{0,3}\[\^[^\]\n]{1,40}\]:")


@dataclass(frozen=True)
class Block:
    start: int   # offsets in the text, markers and surrounding blanks excluded
    end: int
    kind: str    # PROSE, ITEM (a list item), HEADING (a table's header row too), LEAD_IN (the line ending in ":"
                 # before a list or table), TABLE (one row), CODE (a fenced block, fences included) or
                 # SOURCES (a footnote, or a line of a "Sources" section)


def blocks(text: str) -> list[Block]:
    out: list[Block] = []
    prose: list | None = None  # [start, end, kind] of the paragraph or list item being read
    in_list = False     # since the last blank line, a list item was read
    in_sources = False  # under a "Sources" / "References" label, until the next heading
    fence: tuple[str, int] | None = None

    def close_prose() -> None:
        nonlocal prose
        if prose:
            out.append(Block(*prose))
        prose = None

    pos = 0
    for line in text.split("\n"):
        start, end = pos, pos + len(line.rstrip())
        pos += len(line) + 1
        if fence:
            if _FENCE.match(text, start, end) and text[start:end].strip().startswith(fence[0]):
                out.append(Block(fence[1], end, CODE))
                fence = None
            continue
        if m := _FENCE.match(text, start, end):
            close_prose()
            fence = (m.group(1), start + len(line) - len(line.lstrip()))
            continue
        if start == end or not text[start:end].strip():
            close_prose()
            in_list = False
            continue
        quote = _QUOTE.match(text, start, end)
        if quote:
            start = quote.end()
            if start == end:
                close_prose()
                continue
        if _RULE.match(text, start, end) or _TABLE_RULE.match(text, start, end):
            if prose is None and out and out[-1].kind == TABLE and "|" in text[start:end]:
                out[-1] = Block(out[-1].start, out[-1].end, HEADING)  # the row above the rule is the table's header
            close_prose()
            continue
        heading = _HEADING.match(text, start, end)
        if heading and len(text[heading.end():end].split()) > HEADING_WORDS:
            heading = None
        if _SOURCES_LABEL.match(text, _skip_blanks(text, start, end), end) or _FOOTNOTE.match(text, start, end):
            label = _SOURCES_LABEL.match(text, _skip_blanks(text, start, end), end)
            in_sources = in_sources or bool(label and label.group(1) is not None)
            close_prose()
            _add(out, text, start, end, SOURCES)
            continue
        if heading or (_BOLD_LINE.match(text, _skip_blanks(text, start, end), end)
                       and len(text[start:end].split()) <= TITLE_WORDS):
            close_prose()
            in_sources = False
            closing = _CLOSING_HASHES.search(text, heading.end(), end) if heading else None
            _add(out, text, heading.end() if heading else start, closing.start() if closing else end, HEADING)
            continue
        if in_sources:
            close_prose()
            _add(out, text, start, end, SOURCES)
            continue
        if _TABLE_ROW.match(text, start, end):
            close_prose()
            _add(out, text, start, end, TABLE)
            continue
        item = _BULLET.match(text, start, end) or _NUMBERED.match(text, start, end)
        if item and item.re is _NUMBERED and prose is not None and not in_list and item.group(1) != "1":
            item = None  # "1999. The company ..." wrapped onto a new line continues its paragraph
        if item:
            close_prose()
            in_list = True
            start = item.end()
        if prose is None:
            prose = [_skip_blanks(text, start, end), end, ITEM if item else PROSE]
        else:
            prose[1] = end  # a soft-wrapped line, or a list item's continuation
    if fence:  # an unclosed fence runs to the end
        out.append(Block(fence[1], len(text.rstrip()), CODE))
    close_prose()
    return _lead_ins(text, sorted(out, key=lambda b: b.start))


def _lead_ins(text: str, found: list[Block]) -> list[Block]:
    """A paragraph ending in ":" right before a list or table introduces it ("The rules are:"): the
    statements are the items."""
    return [Block(b.start, b.end, LEAD_IN)
            if b.kind == PROSE and text[b.start:b.end].endswith(":") and i + 1 < len(found)
            and found[i + 1].kind in (ITEM, TABLE, HEADING)
            else b for i, b in enumerate(found)]


def _skip_blanks(text: str, start: int, end: int) -> int:
    while start < end and text[start].isspace():
        start += 1
    return start


def _add(out: list[Block], text: str, start: int, end: int, kind: str) -> None:
    start = _skip_blanks(text, start, end)
    if end > start:
        out.append(Block(start, end, kind))


_LINK = re.compile(r"!?\[([^\[\]\n]{1,200})\]\([^()\s]*(?:\([^()\s]*\)[^()\s]*)*(?:[ \t]+\"[^\"\n]*\")?\)")
# Not inside a word ("max_retry_count" keeps its underscores), and not around blanks ("2 * 3 * 4").
# At most 200 characters between the marks, so text full of unclosed marks is read in linear time.
_EMPHASIS = re.compile(r"(?<!\w)(\*\*|__|~~|\*|_)(?=\S)(.{1,200}?)(?<=\S)\1(?!\w)")
_WRAPPED_LINE = re.compile(r"[ \t]*\n[ \t]*(?:>[ \t]?)*[ \t]*")


def plain(text: str) -> str:
    """The words of a sentence without inline markup: link text for a link, emphasis marks dropped, a
    quote's line marks and soft line breaks read as spaces, a table row's cells joined by commas. Code
    spans keep their backticks: a backtick also opens a quotation in older text (`like this')."""
    if text.startswith("|"):
        text = ", ".join(cell.strip() for cell in text.strip("| \t").split("|") if cell.strip())
    text = _LINK.sub(r"\1", text)
    for _ in range(3):  # nested: "***bold italic***", "**_both_**"
        text, n = _EMPHASIS.subn(r"\2", text)
        if not n:
            break
    return _WRAPPED_LINE.sub(" ", text)
