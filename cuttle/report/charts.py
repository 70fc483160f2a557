"""Small SVG charts for the report pages, drawn here (no plotting library needed).

`interval_chart` draws estimates with their confidence intervals, one row each (a
"forest plot"), under headings; `share_bar` one stacked bar of shares (how games
ended).  Estimates are `cuttle.stats.Estimate`s; numbers are printed by
`cuttle.formatting`.
"""

from __future__ import annotations

import math
from html import escape
from typing import TYPE_CHECKING

from ..formatting import finite, fixed, share, tick

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ..stats import Estimate

__all__ = ["interval_chart", "share_bar"]

FONT = "system-ui,-apple-system,Segoe UI,Roboto,DejaVu Sans,sans-serif"
INK, GRID, DOT, BASE = "#222", "#d9d9d9", "#1f5f9e", "#777"
PALETTE = ("#1f5f9e", "#c0392b", "#8e8e8e", "#2e8b57", "#d68910", "#7d3c98", "#16a085")
ROW = 24
CHAR = 6.6                  # the width of a character of the labels (12 px), roughly

def nice_ticks(lo: float, hi: float, count: int = 6) -> list[float]:
    """Round tick values covering [lo, hi] (steps of 1, 2 or 5 times a power of ten)."""
    if not (finite(lo) and finite(hi)) or hi <= lo:
        lo, hi = (lo - 1, lo + 1) if finite(lo) else (0.0, 1.0)
    raw = (hi - lo) / max(1, count - 1)
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw)
    first = math.floor(lo / step + 1e-9) * step
    ticks = []
    t = first
    while t < hi + step * 0.999:
        ticks.append(round(t, 10))
        t += step
    return ticks


def _label(text: str, x: float, y: float, room: float, heading: bool = False) -> str:
    """A row's label, right-aligned at x (a heading: in bold, from the left edge); cut
    with an ellipsis to fit `room` pixels (the whole text in its tooltip)."""
    fits = int(room / CHAR)
    shown = text if len(text) <= fits else text[:max(1, fits - 1)] + "…"
    tip = f"<title>{escape(text)}</title>" if shown != text else ""
    where = f'x="4" y="{y:.1f}" font-weight="600"' if heading else \
        f'x="{x}" y="{y:.1f}" text-anchor="end"'
    return f'<text {where} fill="{INK}">{tip}{escape(shown)}</text>'



def interval_chart(title: str, rows: Iterable[tuple[str, Estimate | None]],
                   unit: str = "pct", *, zero: bool = False, width: int = 640,
                   label_width: int = 230) -> str:
    """An SVG chart: one row per (label, estimate), a dot at the value and a bar over the
    interval; a row whose estimate is None is a heading (its label in bold).  unit:
    "pct" (rates, drawn in %), "pp" (differences of rates, drawn in percentage points)
    or "num" (means).  zero: draw (and include) the zero line."""
    scale = 100.0 if unit in ("pct", "pp") else 1.0
    pts = list(rows)
    xs = [x * scale for _, e in pts if e is not None for x in e if finite(x)]
    if zero:
        xs.append(0.0)
    lo, hi = (min(xs), max(xs)) if xs else (0.0, 1.0)
    pad = (hi - lo) * 0.06 or 1.0
    lo, hi = lo - pad, hi + pad
    if unit == "pct":
        lo, hi = max(lo, 0.0), min(hi, 100.0)
    ticks = nice_ticks(lo, hi)
    lo, hi = min(lo, ticks[0]), max(hi, ticks[-1])
    x0, x1 = label_width, width - 70
    top = 30
    height = top + ROW * len(pts) + 30

    def X(v):
        return x0 + (v - lo) / (hi - lo) * (x1 - x0)

    o = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="{width}" '
         f'height="{height}" viewBox="0 0 {width} {height}" font-family="{FONT}" '
         f'font-size="12">',
         f'<text x="4" y="16" font-size="13" font-weight="600" fill="{INK}">'
         f'{escape(title)}</text>']
    bottom = top + ROW * len(pts)
    for t in ticks:
        x = X(t)
        strong = zero and abs(t) < 1e-12
        o.append(f'<line x1="{x:.1f}" y1="{top - 4}" x2="{x:.1f}" y2="{bottom}" '
                 f'stroke="{BASE if strong else GRID}" stroke-width="{1.2 if strong else 1}"/>')
        o.append(f'<text x="{x:.1f}" y="{bottom + 16}" text-anchor="middle" fill="#555">'
                 f'{tick(t, unit)}</text>')
    for i, (label, e) in enumerate(pts):
        y = top + ROW * i + ROW / 2
        o.append(_label(label, x0 - 10, y + 4, x0 - 14, heading=e is None))
        if e is None:
            continue
        v, l, h = e
        if finite(l) and finite(h):
            o.append(f'<line x1="{X(l * scale):.1f}" y1="{y:.1f}" x2="{X(h * scale):.1f}" '
                     f'y2="{y:.1f}" stroke="{DOT}" stroke-width="3" stroke-opacity="0.45" '
                     f'stroke-linecap="round"/>')
        if finite(v):
            o.append(f'<circle class="estimate" cx="{X(v * scale):.1f}" cy="{y:.1f}" r="4.5" '
                     f'fill="{DOT}"/>')
            text = fixed(v * scale, 2, unit == "pp")
            o.append(f'<text x="{x1 + 8}" y="{y + 4:.1f}" fill="{INK}">'
                     f'{text}{"%" if unit == "pct" else " pp" if unit == "pp" else ""}</text>')
    o.append("</svg>")
    return "".join(o)


def share_bar(title: str, shares: Iterable[tuple[str, float]], width: int = 640) -> str:
    """One stacked bar of (label, share) pairs (shares in [0, 1]), with a legend."""
    shares = [(lab, s) for lab, s in shares if finite(s) and s > 0]
    x0, x1, top = 4, width - 4, 26
    o = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="{width}" '
         f'height="{top + 56}" viewBox="0 0 {width} {top + 56}" font-family="{FONT}" '
         f'font-size="12">',
         f'<text x="4" y="16" font-size="13" font-weight="600" fill="{INK}">'
         f'{escape(title)}</text>']
    x: float = x0
    total = sum(s for _, s in shares) or 1.0
    for i, (lab, s) in enumerate(shares):
        w = (x1 - x0) * s / total
        o.append(f'<rect x="{x:.1f}" y="{top}" width="{max(w, 1):.1f}" height="20" '
                 f'fill="{PALETTE[i % len(PALETTE)]}"><title>{escape(lab)}: '
                 f'{share(s)}</title></rect>')
        x += w
    lx = x0
    for i, (lab, s) in enumerate(shares):
        text = f"{lab} {share(s)}"
        o.append(f'<rect x="{lx}" y="{top + 32}" width="11" height="11" '
                 f'fill="{PALETTE[i % len(PALETTE)]}"/>'
                 f'<text x="{lx + 15}" y="{top + 42}" fill="{INK}">{escape(text)}</text>')
        lx += 30 + 7 * len(text)
    o.append("</svg>")
    return "".join(o)
