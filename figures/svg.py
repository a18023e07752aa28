"""Heatmaps as inline SVG, for pages that must print and work offline without plotly.js (the lesson handout).

Plain numpy arrays and labels in, an `<svg>` string out; no Streamlit, no plotly, no math beyond formatting. The
colours follow the app's rules: attention weights on a sequential scale 0..1, signed values on a diverging scale
centred on 0 with a symmetric range. Colour is never the only cue: small matrices print their numbers in the
cells, masked cells say "−∞", and every figure carries a legend with its range and a <title> for screen readers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

import numpy as np

LABEL_PX = 11  # font size of tick labels
TITLE_PX = 12
MAX_CELL = 30
NUMBERS_MIN_CELL = 26  # a cell this wide (px) or wider shows its number
MAX_LABELS = 32  # axis labels beyond this are thinned to every k-th
_BLUE, _WHITE, _RED = (33, 102, 172), (247, 247, 247), (178, 24, 43)
_SEQ_LOW, _SEQ_HIGH = (247, 251, 255), (8, 48, 107)


def _mix(a: tuple[int, int, int], b: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    t = min(max(t, 0.0), 1.0)
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def colour(value: float, kind: str, vmax: float) -> tuple[int, int, int]:
    """The fill of one cell: weights 0..1 white to dark blue; signed -vmax..vmax blue, white, red."""
    if kind == "weights":
        return _mix(_SEQ_LOW, _SEQ_HIGH, value)
    t = value / vmax if vmax > 0 else 0.0
    return _mix(_WHITE, _RED, t) if t >= 0 else _mix(_WHITE, _BLUE, -t)


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def _ink(rgb: tuple[int, int, int]) -> str:
    """Black or white text, whichever contrasts more with the fill (relative luminance, WCAG)."""
    def lin(c: int) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    lum = 0.2126 * lin(rgb[0]) + 0.7152 * lin(rgb[1]) + 0.0722 * lin(rgb[2])
    return "#000000" if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else "#ffffff"


def _num(value: float) -> str:
    text = f"{value:.2f}".replace("-", "−")
    return "0.00" if text == "−0.00" else text


def _every(n: int) -> int:
    return max(1, math.ceil(n / MAX_LABELS))


def value_range(stack: np.ndarray, kind: str) -> float:
    """The colour range: 1 for weights, the largest finite |value| for signed values."""
    if kind == "weights":
        return 1.0
    finite = np.abs(stack[np.isfinite(stack)])
    return float(finite.max()) if finite.size else 1.0


def _matrix(m: np.ndarray, x0: float, y0: float, cell: float, kind: str, vmax: float, numbers: bool) -> list[str]:
    out = []
    for r in range(m.shape[0]):
        for c in range(m.shape[1]):
            v = float(m[r, c])
            x, y = x0 + c * cell, y0 + r * cell
            if not math.isfinite(v):  # a masked score (−∞)
                out.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{cell:.1f}" height="{cell:.1f}" fill="#d9d9d9" '
                           f'stroke="#ffffff" stroke-width="0.5"/>')  # fmt: skip
                if numbers:
                    out.append(f'<text x="{x + cell / 2:.1f}" y="{y + cell / 2 + 4:.1f}" font-size="{LABEL_PX - 1}" '
                               f'text-anchor="middle" fill="#333333">−∞</text>')  # fmt: skip
                else:
                    out.append(f'<line x1="{x:.1f}" y1="{y + cell:.1f}" x2="{x + cell:.1f}" y2="{y:.1f}" '
                               f'stroke="#7f7f7f" stroke-width="0.8"/>')  # fmt: skip
                continue
            rgb = colour(v, kind, vmax)
            out.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{cell:.1f}" height="{cell:.1f}" fill="{_hex(rgb)}"/>')
            if numbers:
                out.append(f'<text x="{x + cell / 2:.1f}" y="{y + cell / 2 + 3.5:.1f}" font-size="{LABEL_PX - 2}" '
                           f'text-anchor="middle" fill="{_ink(rgb)}">{_num(v)}</text>')  # fmt: skip
    return out


def _legend(x: float, y: float, kind: str, vmax: float, low_text: str, high_text: str) -> list[str]:
    """A colour bar with its end values, so that a reader never needs the colour alone."""
    low = 0.0 if kind == "weights" else -vmax
    steps = 24
    out = [f'<text x="{x:.1f}" y="{y + 9:.1f}" font-size="{LABEL_PX}" text-anchor="end" fill="#000000">'
           f"{escape(low_text or _num(low))}</text>"]  # fmt: skip
    for i in range(steps):
        v = low + (vmax - low) * (i + 0.5) / steps
        out.append(f'<rect x="{x + 4 + i * 6:.1f}" y="{y:.1f}" width="6" height="10" '
                   f'fill="{_hex(colour(v, kind, vmax))}"/>')  # fmt: skip
    out.append(f'<rect x="{x + 4:.1f}" y="{y:.1f}" width="{steps * 6}" height="10" fill="none" stroke="#555555" '
               f'stroke-width="0.5"/>')  # fmt: skip
    out.append(f'<text x="{x + 8 + steps * 6:.1f}" y="{y + 9:.1f}" font-size="{LABEL_PX}" fill="#000000">'
               f"{escape(high_text or _num(vmax))}</text>")  # fmt: skip
    return out


def tiles_svg(stack: np.ndarray, rows: Sequence[str], cols: Sequence[str] | None, tile_titles: Sequence[str], *,
              kind: str = "signed", title: str = "", max_width: float = 680.0, per_row: int = 4,
              row_title: str = "", col_title: str = "") -> str:  # fmt: skip
    """Small multiples of a (n, R, C) stack on one colour scale (one tile per head), as an <svg> string.
    rows / cols: tick labels (cols None: numbered 0..C-1); kind "weights" (0..1) or "signed"."""
    stack = np.asarray(stack, dtype=float)
    if stack.ndim == 2:
        stack = stack[None]
    n, n_rows, n_cols = stack.shape
    cols = list(cols) if cols is not None else [str(j) for j in range(n_cols)]
    per_row = max(1, min(per_row, n))
    grid_rows = math.ceil(n / per_row)
    label_w = min(110.0, 7.0 * max((len(str(r)) for r in rows), default=1) + 8)
    gap = 18.0
    cell = min(MAX_CELL, (max_width - label_w - gap * (per_row - 1)) / (per_row * n_cols),
               (max_width * 0.9) / max(n_rows, 1))  # fmt: skip
    cell = max(cell, 2.0)
    numbers = cell >= NUMBERS_MIN_CELL and n_rows * n_cols <= 100
    tile_w, tile_h = n_cols * cell, n_rows * cell
    top = (TITLE_PX + 10) if title else 4
    col_label_h = 8 + 6.5 * max((len(str(c)) for c in cols[:: _every(n_cols)]), default=1)
    head_h = TITLE_PX + 6
    block_h = head_h + tile_h + col_label_h + 8
    legend_end = label_w + 30 + 4 + 24 * 6 + 8 + 6.5 * len(_num(value_range(stack, kind)))
    title_w = 7.5 * len(title) if title else 0  # a generous guess of the bold title's width
    width = max(label_w + per_row * tile_w + (per_row - 1) * gap + 4, legend_end + 4, title_w)
    legend_y = top + grid_rows * block_h + 6
    height = legend_y + 26
    vmax = value_range(stack, kind)
    name = escape(title or (tile_titles[0] if tile_titles else ""))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{width:.0f}" height="{height:.0f}" '
           f'viewBox="0 0 {width:.1f} {height:.1f}" style="display: block"><title>{name}</title>']  # fmt: skip
    if title:
        out.append(f'<text x="0" y="{TITLE_PX + 2}" font-size="{TITLE_PX + 1}" font-weight="bold" fill="#000000">'
                   f"{escape(title)}</text>")  # fmt: skip
    for t in range(n):
        gr, gc = divmod(t, per_row)
        x0 = label_w + gc * (tile_w + gap)
        y0 = top + gr * block_h + head_h
        if t < len(tile_titles):
            out.append(f'<text x="{x0 + tile_w / 2:.1f}" y="{y0 - 5:.1f}" font-size="{TITLE_PX}" '
                       f'text-anchor="middle" fill="#000000">{escape(str(tile_titles[t]))}</text>')  # fmt: skip
        out += _matrix(stack[t], x0, y0, cell, kind, vmax, numbers)
        out.append(f'<rect x="{x0:.1f}" y="{y0:.1f}" width="{tile_w:.1f}" height="{tile_h:.1f}" fill="none" '
                   f'stroke="#555555" stroke-width="0.6"/>')  # fmt: skip
        if gc == 0:
            k = _every(n_rows)
            for r in range(0, n_rows, k):
                out.append(f'<text x="{x0 - 4:.1f}" y="{y0 + (r + 0.5) * cell + 4:.1f}" font-size="{LABEL_PX}" '
                           f'text-anchor="end" fill="#000000">{escape(str(rows[r]))}</text>')  # fmt: skip
        k = _every(n_cols)
        for c in range(0, n_cols, k):
            cx, cy = x0 + (c + 0.5) * cell, y0 + tile_h + 6
            out.append(f'<text x="{cx:.1f}" y="{cy:.1f}" font-size="{LABEL_PX}" text-anchor="end" fill="#000000" '
                       f'transform="rotate(-60 {cx:.1f} {cy:.1f})">{escape(str(cols[c]))}</text>')  # fmt: skip
    if row_title or col_title:
        out.append(f'<text x="{width - 2:.1f}" y="{legend_y + 9:.1f}" font-size="{LABEL_PX}" text-anchor="end" '
                   f'fill="#333333">{escape(" · ".join(x for x in (row_title, col_title) if x))}</text>')  # fmt: skip
    out += _legend(label_w + 30, legend_y, kind, vmax, "", "")
    out.append("</svg>")
    return "".join(out)


def heatmap_svg(m: np.ndarray, rows: Sequence[str], cols: Sequence[str] | None, *, kind: str = "signed",
                title: str = "", max_width: float = 680.0, row_title: str = "",
                col_title: str = "") -> str:  # fmt: skip
    """One matrix (R, C) as an <svg> heatmap: a single tile."""
    return tiles_svg(np.asarray(m)[None], rows, cols, [], kind=kind, title=title, max_width=max_width, per_row=1,
                     row_title=row_title, col_title=col_title)  # fmt: skip
