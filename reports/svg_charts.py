"""Inline SVG charts for the HTML report: no JavaScript, no external assets."""

from __future__ import annotations

import math
from html import escape
from typing import Sequence

COLOURS = {"SUPPORTED": "#2e7d32", "CONTRADICTED": "#c62828", "NOT_ENOUGH_INFO": "#f2a900",
           "SKIPPED": "#9e9e9e"}
_FONT = 'font-family="system-ui, sans-serif" font-size="11"'


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def _y_max(highs: Sequence[float]) -> float:
    # Small rates (a few % contradicted) would hug the axis on a 0-100% scale.
    top = max(highs, default=0.0)
    return 1.0 if top > 0.5 else max(0.1, math.ceil(top * 10 + 0.5) / 10)


def rate_chart(title: str, labels: Sequence[str], points: Sequence[tuple[float, float, float] | None],
               colour: str = "#1f5fa8", width: int = 560, height: int = 190) -> str:
    """A rate per bucket with its interval as a band; None points leave a gap."""
    left, right, top, bottom = 48, 12, 24, 30
    plot_w, plot_h = width - left - right, height - top - bottom
    y_max = _y_max([p[2] for p in points if p])
    n = len(points)

    def x(i: int) -> float:
        return left + (plot_w / 2 if n == 1 else plot_w * i / (n - 1))

    def y(v: float) -> float:
        return top + plot_h * (1 - min(v, y_max) / y_max)

    parts = [f'<svg class="chart rate-chart" xmlns="http://www.w3.org/2000/svg" width="{width}" '
             f'height="{height}" viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}">',
             f'<text x="{left}" y="14" {_FONT} font-weight="600">{escape(title)}</text>']
    for step in range(5):
        v = y_max * step / 4
        parts.append(f'<line x1="{left}" x2="{width - right}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="#e0e0e0"/>')
        parts.append(f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end" {_FONT}>{_pct(v)}</text>')
    for segment in (s for s in _segments(points) if len(s) > 1):
        upper = " ".join(f"{x(i):.1f},{y(points[i][2]):.1f}" for i in segment)
        lower = " ".join(f"{x(i):.1f},{y(points[i][1]):.1f}" for i in reversed(segment))
        parts.append(f'<polygon class="band" points="{upper} {lower}" fill="{colour}" fill-opacity="0.18"/>')
        line = " ".join(f"{x(i):.1f},{y(points[i][0]):.1f}" for i in segment)
        parts.append(f'<polyline points="{line}" fill="none" stroke="{colour}" stroke-width="2"/>')
    for i, p in enumerate(points):
        if p:
            # A whisker as well as the band: a lone bucket between gaps has no band to show.
            parts.append(f'<line class="whisker" x1="{x(i):.1f}" x2="{x(i):.1f}" y1="{y(p[1]):.1f}" '
                         f'y2="{y(p[2]):.1f}" stroke="{colour}" stroke-opacity="0.45"/>')
            parts.append(f'<circle cx="{x(i):.1f}" cy="{y(p[0]):.1f}" r="2.5" fill="{colour}"><title>'
                         f'{escape(labels[i])}: {_pct(p[0])} ({_pct(p[1])}-{_pct(p[2])})</title></circle>')
    parts += _x_labels(labels, n, x, height)
    parts.append("</svg>")
    return "".join(parts)


def _x_labels(labels: Sequence[str], n: int, x, height: int) -> list[str]:
    """The first, middle and last of n buckets' labels under the x axis."""
    out = []
    for i in sorted({0, n // 2, n - 1}) if n else []:
        anchor = "start" if i == 0 and n > 1 else "end" if i == n - 1 and n > 1 else "middle"
        out.append(f'<text x="{x(i):.1f}" y="{height - 10}" text-anchor="{anchor}" {_FONT}>'
                   f'{escape(labels[i])}</text>')
    return out


def _segments(points) -> list[list[int]]:
    out, current = [], []
    for i, p in enumerate(points):
        if p:
            current.append(i)
        elif current:
            out.append(current)
            current = []
    return out + ([current] if current else [])


def bar_chart(title: str, rows: Sequence[tuple[str, int, str]], width: int = 560) -> str:
    """Horizontal bars: (label, count, colour) per row, scaled to the largest count."""
    label_w, row_h, top = 150, 24, 24
    height = top + row_h * len(rows) + 8
    largest = max((count for _, count, _ in rows), default=0) or 1
    total = sum(count for _, count, _ in rows) or 1
    parts = [f'<svg class="chart bar-chart" xmlns="http://www.w3.org/2000/svg" width="{width}" '
             f'height="{height}" viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}">',
             f'<text x="0" y="14" {_FONT} font-weight="600">{escape(title)}</text>']
    for i, (label, count, colour) in enumerate(rows):
        y = top + i * row_h
        bar = (width - label_w - 110) * count / largest
        parts.append(f'<text x="{label_w - 8}" y="{y + 15}" text-anchor="end" {_FONT}>{escape(label)}</text>')
        parts.append(f'<rect x="{label_w}" y="{y + 3}" width="{bar:.1f}" height="{row_h - 8}" fill="{colour}"/>')
        parts.append(f'<text x="{label_w + bar + 6:.1f}" y="{y + 15}" {_FONT}>{count} ({_pct(count / total)})</text>')
    parts.append("</svg>")
    return "".join(parts)


def stacked_bars(title: str, rows: Sequence[tuple[str, dict[str, int]]], width: int = 560) -> str:
    """One 100% bar per row, split by verdict."""
    label_w, row_h, top = 110, 26, 24
    height = top + row_h * len(rows) + 26
    plot_w = width - label_w - 10
    parts = [f'<svg class="chart stacked-chart" xmlns="http://www.w3.org/2000/svg" width="{width}" '
             f'height="{height}" viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}">',
             f'<text x="0" y="14" {_FONT} font-weight="600">{escape(title)}</text>']
    for i, (label, counts) in enumerate(rows):
        y, x, total = top + i * row_h, float(label_w), sum(counts.values()) or 1
        parts.append(f'<text x="{label_w - 8}" y="{y + 16}" text-anchor="end" {_FONT}>{escape(label)}</text>')
        for verdict, count in counts.items():
            w = plot_w * count / total
            parts.append(f'<rect x="{x:.1f}" y="{y + 4}" width="{w:.1f}" height="{row_h - 8}" '
                         f'fill="{COLOURS.get(verdict, "#607d8b")}"><title>{escape(verdict)}: {count}</title></rect>')
            x += w
    legend_y, x = top + row_h * len(rows) + 12, float(label_w)
    for verdict in dict.fromkeys(v for _, counts in rows for v in counts):
        colour = COLOURS.get(verdict, "#607d8b")
        parts.append(f'<rect x="{x:.1f}" y="{legend_y - 8}" width="10" height="10" fill="{colour}"/>')
        parts.append(f'<text x="{x + 14:.1f}" y="{legend_y + 1}" {_FONT}>{escape(verdict)}</text>')
        x += 24 + 7 * len(verdict)
    parts.append("</svg>")
    return "".join(parts)


LINE_COLOURS = ("#1f5fa8", "#2e7d32", "#6a1b9a", "#f2a900", "#00838f", "#8d6e63")  # red is the alert level


def lines_chart(title: str, labels: Sequence[str], series: dict[str, Sequence[float | None]], width: int = 560,
                height: int = 210, y_min: float = 0.0, percent: bool = True) -> str:
    """Several lines on one scale with a legend; None leaves a gap. A series named "alert level" is dashed red."""
    left, right, top, bottom = 48, 12, 40, 30
    plot_w, plot_h = width - left - right, height - top - bottom
    values = [v for s in series.values() for v in s if v is not None]
    y_max = max(values, default=1.0)
    y_max = (1.0 if y_max <= 1.0 else math.ceil(y_max * 10) / 10) if percent else max(1.0, math.ceil(y_max))
    y_lo = y_min if percent else min(0.0, math.floor(min(values, default=0.0)))
    n = max((len(s) for s in series.values()), default=0)

    def x(i: int) -> float:
        return left + (plot_w / 2 if n <= 1 else plot_w * i / (n - 1))

    def y(v: float) -> float:
        return top + plot_h * (1 - (min(max(v, y_lo), y_max) - y_lo) / ((y_max - y_lo) or 1))

    fmt = _pct if percent else (lambda v: f"{v:.1f}")
    parts = [f'<svg class="chart lines-chart" xmlns="http://www.w3.org/2000/svg" width="{width}" '
             f'height="{height}" viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}">',
             f'<text x="{left}" y="14" {_FONT} font-weight="600">{escape(title)}</text>']
    for step in range(5):
        v = y_lo + (y_max - y_lo) * step / 4
        parts.append(f'<line x1="{left}" x2="{width - right}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="#e0e0e0"/>')
        parts.append(f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end" {_FONT}>{fmt(v)}</text>')
    legend_x = left
    for k, (name, points) in enumerate(series.items()):
        colour = "#c62828" if name == "alert level" else LINE_COLOURS[k % len(LINE_COLOURS)]
        dash = ' stroke-dasharray="6 4"' if name == "alert level" else ""
        for segment in (s for s in _segments(points) if len(s) > 1):
            line = " ".join(f"{x(i):.1f},{y(points[i]):.1f}" for i in segment)
            parts.append(f'<polyline points="{line}" fill="none" stroke="{colour}" stroke-width="1.6"{dash}/>')
        parts.append(f'<rect x="{legend_x}" y="22" width="10" height="10" fill="{colour}"/>'
                     f'<text x="{legend_x + 14}" y="31" {_FONT}>{escape(name)}</text>')
        legend_x += 24 + 6.5 * len(name)
    parts += _x_labels(labels, n, x, height)
    parts.append("</svg>")
    return "".join(parts)
