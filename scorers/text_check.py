"""Is a string text? Checked once, at decode, for every string of a record.

A lone surrogate cannot be encoded as UTF-8, so it fails wherever text is
written or tokenized; a NUL or other C0 control character is nothing a writer
means and ends up in stored ids and claim texts. Both are refused with the
reason `schema`, in every field, so the dead-letter reason never depends on
which field holds them. Ids allow no control character at all; texts allow
tab, line feed and carriage return (CRLF line ends are ordinary text).

Any decoder of records (the JSON schema, a trace decoder) calls `check_text`
on each string it keeps, or `check_record_text` on a raw JSON record.
"""

from __future__ import annotations

import re
from typing import Any

from groundwatch.scorers.errors import InvalidResponse

_NOT_IN_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff]")
_NOT_IN_ID = re.compile("[\x00-\x1f\ud800-\udfff]")

# Paths (list indexes as "*") of the record's id fields; every other string is text.
ID_FIELDS = frozenset({("request_id",), ("passages", "*", "id"), ("passages", "*", "doc_id"),
                       ("citations", "*", "passage_id"), ("gold_passage_ids", "*")})


def check_text(value: str, field: str, *, is_id: bool = False) -> None:
    """Raise InvalidResponse (reason schema) if `value` holds a lone surrogate or a control character.

    The message names the field, the code point and its position, never the text around it.
    """
    found = (_NOT_IN_ID if is_id else _NOT_IN_TEXT).search(value)
    if found is None:
        return
    char = found.group()
    what = "a lone surrogate" if "\ud800" <= char <= "\udfff" else "a control character"
    raise InvalidResponse(f"{field}: {what} (U+{ord(char):04X}) at position {found.start()}", field)


def check_record_text(record: Any) -> None:
    """check_text on every string of a raw JSON record, keys included; iterative, so depth costs no stack."""
    stack: list[tuple[Any, tuple]] = [(record, ())]
    while stack:
        node, path = stack.pop()
        if isinstance(node, str):
            shape = tuple("*" if isinstance(p, int) else p for p in path)
            check_text(node, ".".join(map(str, path)) or "<record>", is_id=shape in ID_FIELDS)
        elif isinstance(node, dict):
            for key, value in node.items():
                if isinstance(key, str):
                    check_text(key, ".".join(map(str, (*path, key))))
                stack.append((value, (*path, key)))
        elif isinstance(node, (list, tuple)):
            stack.extend((value, (*path, i)) for i, value in enumerate(node))
