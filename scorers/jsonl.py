"""The one JSONL reader: (line number, parsed value) per non-blank line, with an explicit error policy.

errors="raise" stops at the first line that is not JSON with a JsonlError naming it (for
files that must be whole: probe sets, corpora, labelled sets, verdict files);
errors="yield" hands the JsonlError back in place of the value and reads on (for traffic
files, where one broken record must not hide the others).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator, Literal


class JsonlError(ValueError):
    """A line that is not JSON; `line` counts from 1, `msg` and `colno` come from the JSON decoder.

    `msg` drops the decoder's trailing " at" ("Unterminated string starting at"), so that
    "{msg} at column {colno}" reads "... starting at column 174", not "at at".
    """

    def __init__(self, path: str | Path, line: int, msg: str, colno: int):
        self.path, self.line, self.msg, self.colno = str(path), line, msg.removesuffix(" at"), colno
        super().__init__(f"{path} line {line}: not JSON: {self.msg} at column {colno}")


def read_jsonl(path: str | Path, errors: Literal["raise", "yield"] = "raise") -> Iterator[tuple[int, Any]]:
    """(line number, value) for each non-blank line of a UTF-8 file, in file order. A byte-order mark
    opening the file (editors write "UTF-8 with BOM") is not part of the first record."""
    if errors not in ("raise", "yield"):
        raise ValueError(f"errors must be 'raise' or 'yield', got {errors!r}")
    with open(path, encoding="utf-8-sig") as f:
        for number, line in enumerate(f, start=1):
            if not line.strip():
                continue
            try:
                value = json.loads(line)
            except json.JSONDecodeError as exc:
                error = JsonlError(path, number, exc.msg, exc.colno)
                if errors == "raise":
                    raise error from None
                yield number, error
                continue
            yield number, value
