"""Plain-text tables for the terminal (and for pasting into docs/measurements.md)."""

from __future__ import annotations


def fmt(value, digits: int = 3) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(isinstance(v, float) for v in value):
        return f"[{value[0]:.{digits}f}, {value[1]:.{digits}f}]"
    return str(value)


def render(headers: list[str], rows: list[list], digits: int = 3) -> str:
    cells = [[fmt(v, digits) for v in row] for row in rows]
    widths = [max(len(h), *(len(r[i]) for r in cells)) if cells else len(h) for i, h in enumerate(headers)]
    line = lambda values: "  ".join(v.rjust(w) if i else v.ljust(w)  # noqa: E731
                                    for i, (v, w) in enumerate(zip(values, widths)))
    return "\n".join([line(headers), line(["-" * w for w in widths])] + [line(r) for r in cells])
