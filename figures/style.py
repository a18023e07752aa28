"""Shared look of every figure: sizes, colour scales, safe labels, compact numbers.

Builders treat every text argument (tokens, titles, axis names) as plain text and pass it through
`safe_label`, so a token like `<script>` shows as text. Numbers go into the figure as rounded Python
lists (`json_values`): at most `DIGITS` significant digits, non-finite values as None.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

import numpy as np
from plotly.colors import qualitative, sequential

from i18n import t

Kind = Literal["signed", "weights", "cosine", "plain"]
KINDS: tuple[str, ...] = ("signed", "weights", "cosine", "plain")

DIGITS = 4  # significant digits carried in figure JSON
MASKED_COLOR = "#c8c8c8"  # what shows through a NaN (masked) heatmap cell
GRID_COLOR = "#e6e6e6"

# Diverging: negative = blue, zero = exactly white, positive = red (RdBu reversed, white centre).
_RDBU = sequential.RdBu[::-1]  # 11 colours, blue .. red
DIVERGING: list[list] = [[i / (len(_RDBU) - 1), c] for i, c in enumerate(_RDBU)]
DIVERGING[len(_RDBU) // 2][1] = "rgb(255,255,255)"
WEIGHTS_SCALE = "Blues"  # attention weights, 0 = white .. 1 = dark blue
PLAIN_SCALE = "Viridis"
# One colour per head, the same head gets the same colour in every figure: the 10 of D3 / Tableau,
# then 6 more dark enough to read on white on a projector.
HEAD_COLORS: tuple[str, ...] = (*qualitative.D3, "#393b79", "#8c6d31", "#7b4173", "#637939", "#ad494a", "#3182bd")

FONT_FAMILY = (
    '"Helvetica Neue", Arial, "PingFang SC", "Microsoft YaHei", "Noto Sans CJK SC", "Noto Sans SC", '
    '"Source Han Sans SC", sans-serif'
)


@dataclass(frozen=True)
class FigureStyle:
    """Sizes in pixels. `width_px` is the plot width we expect (charts stretch to their container);
    it is only used to estimate how many tick labels fit."""

    font_size: int = 14
    cell_px: int = 26  # height of one heatmap row when there is room
    min_height: int = 320
    max_height: int = 1000
    width_px: int = 1100
    line_width: float = 2.0
    marker_size: int = 7
    font_family: str = FONT_FAMILY
    dark: bool = False  # a dark, high-contrast screen: light text on a near-black background
    max_tile_cols: int = 4  # heads side by side at most (a phone: 2)
    # the smallest tick label before labels are thinned to every k-th instead: a projector's are read from the back
    # row (9 px labels of every token were not), a screen's from arm's length
    min_tick_font: int = 9

    @classmethod
    def large(cls) -> FigureStyle:
        """Projector mode: big fonts, taller rows."""
        return cls(font_size=22, cell_px=38, min_height=420, max_height=1300, width_px=1250,
                   line_width=3.5, marker_size=11, min_tick_font=15)

    @classmethod
    def present(cls) -> FigureStyle:
        """Presentation mode: big fonts, but every chart short enough to share a 1280 x 720 screen with its
        formula and one line of text (ui/present.py)."""
        return cls(font_size=18, cell_px=30, min_height=260, max_height=420, width_px=1150,
                   line_width=3.0, marker_size=9, min_tick_font=15)

    @classmethod
    def phone(cls) -> FigureStyle:
        """A phone (about 360 px of chart width): smaller fonts, fewer tick labels, two heads per row."""
        return cls(font_size=12, cell_px=20, min_height=260, max_height=760, width_px=340, line_width=2.0,
                   marker_size=6, max_tile_cols=2)

    def with_(self, **changes) -> FigureStyle:
        return replace(self, **changes)

    @property
    def title_size(self) -> int:
        return round(self.font_size * 1.25)

    @property
    def small_size(self) -> int:
        return max(9, round(self.font_size * 0.8))

    @property
    def text_color(self) -> str:
        return "#f2f2f2" if self.dark else "#222"

    @property
    def muted_color(self) -> str:
        return "#bbbbbb" if self.dark else "#555"

    @property
    def background(self) -> str:
        return "#0e1117" if self.dark else "white"

    @property
    def label_px(self) -> float:
        """Pixels one tick label needs across its text line (font height plus spacing)."""
        return self.font_size * 1.35

    def margins(self, has_title: bool = True) -> dict[str, int]:
        top = round(self.title_size * 2.6) if has_title else self.font_size
        return {"t": top, "b": round(self.font_size * 1.5), "l": round(self.font_size), "r": round(self.font_size)}

    def heatmap_height(self, n_rows: int, extra_px: int = 0) -> int:
        """Figure height for a heatmap of n_rows: room for every row label when possible, clamped."""
        m = self.margins()
        # x tick labels (possibly rotated tokens) and the axis title take about 6 lines at the bottom
        chrome = m["t"] + m["b"] + round(self.font_size * 6)
        want = chrome + n_rows * self.cell_px + extra_px
        return int(min(self.max_height, max(self.min_height, want)))


def label_step(n_labels: int, extent_px: float, style: FigureStyle) -> int:
    """Show every k-th tick label so that labels of `style.label_px` fit into `extent_px` pixels."""
    if n_labels <= 0 or extent_px <= 0:
        return 1
    return max(1, math.ceil(n_labels * style.label_px / extent_px))


ALL_LABELS_UP_TO = 24  # a sentence of up to this many tokens gets every token labelled (smaller text if need be)
MIN_TICK_FONT = 9


def tick_plan(n_labels: int, extent_px: float, style: FigureStyle) -> tuple[int, int]:
    """(step, font size) of the tick labels of one axis: up to ALL_LABELS_UP_TO labels every one is shown, in a
    smaller font when the full size does not fit (down to the style's min_tick_font; where even that does not fit,
    every k-th label at that size); beyond ALL_LABELS_UP_TO every k-th."""
    if 0 < n_labels <= ALL_LABELS_UP_TO and extent_px > 0:
        fits = math.floor(extent_px / n_labels / 1.35)  # the font size whose lines fit one per label
        if fits >= style.min_tick_font or style.min_tick_font <= MIN_TICK_FONT:
            return 1, int(min(style.font_size, max(MIN_TICK_FONT, fits)))
        return max(1, math.ceil(n_labels * style.min_tick_font * 1.35 / extent_px)), style.min_tick_font
    return label_step(n_labels, extent_px, style), style.font_size


def safe_label(s: object) -> str:
    """Plain text for plotly's HTML-like text rendering: & < > " ' become entities that plotly shows
    as those characters (plotly knows numeric entities but not &quot;, hence &#34; and &#39;)."""
    text = str(s)
    return (
        text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&#34;")
        .replace("'", "&#39;")
        .replace("\n", " ")
        .replace("\r", " ")
    )


def shorten(s: str, max_len: int) -> str:
    """Cut a long token for a tick label; hover shows it in full."""
    return s if len(s) <= max_len else s[: max_len - 1] + "…"


def token_ticks(tokens: Sequence[object], max_len: int = 14) -> list[str]:
    """Tick text "0:the", "1:cat", ...: the position keeps duplicate tokens apart; escaped."""
    return [f"{i}:{safe_label(shorten(str(tok), max_len))}" for i, tok in enumerate(tokens)]


def hover_labels(tokens: Sequence[object]) -> list[str]:
    """Like token_ticks but never shortened (hover has room)."""
    return [f"{i}:{safe_label(tok)}" for i, tok in enumerate(tokens)]


def round_sig(values: object, digits: int = DIGITS) -> np.ndarray:
    """Float array rounded to `digits` significant digits; non-finite (e.g. -inf of a mask) -> NaN."""
    a = np.array(values, dtype=float)  # copy
    bad = ~np.isfinite(a)
    a[bad] = 0.0
    nonzero = a != 0
    exp = np.zeros(a.shape, dtype=int)
    exp[nonzero] = np.floor(np.log10(np.abs(a[nonzero]))).astype(int)
    p = digits - 1 - exp  # decimals to keep
    # Multiply/divide by exact powers of ten so the result prints as the short decimal it is.
    up = p >= 0
    out = np.empty_like(a)
    f_up = 10.0 ** p[up]
    out[up] = np.round(a[up] * f_up) / f_up
    f_down = 10.0 ** (-p[~up])
    out[~up] = np.round(a[~up] / f_down) * f_down
    out[bad] = np.nan
    return out


def json_values(values: object, digits: int = DIGITS) -> list | float | None:
    """Nested Python lists of rounded floats with None for NaN/inf: short, plain JSON."""
    return _none_for_nan(round_sig(values, digits).tolist())


def _none_for_nan(x: object) -> object:
    if isinstance(x, list):
        if x and isinstance(x[0], list):
            return [_none_for_nan(row) for row in x]
        return [None if v != v else v for v in x]
    return None if x != x else x


def safe_template(s: object) -> str:
    """safe_label for text placed inside a hovertemplate: braces become entities, so a '%{' in
    user text is never read as a template variable."""
    return safe_label(s).replace("{", "&#123;").replace("}", "&#125;")


def format_value(v: float, lang: str = "en", digits: int = DIGITS) -> str:
    """Hover text of one number; non-finite means masked."""
    if not math.isfinite(v):
        return t("fig.masked", lang)
    return f"{v:.{digits}g}"


def format_values(values: np.ndarray, lang: str = "en", digits: int = DIGITS) -> np.ndarray:
    """format_value over an array, as an object array of str of the same shape."""
    a = np.asarray(values, dtype=float)
    masked = t("fig.masked", lang)
    flat = [f"{v:.{digits}g}" if math.isfinite(v) else masked for v in a.ravel().tolist()]
    return np.array(flat, dtype=object).reshape(a.shape)


def cell_texts(values: np.ndarray) -> list[list[str]]:
    """Numbers written inside heatmap cells: 2 decimals for small values, fewer for big ones."""
    a = np.asarray(values, dtype=float)
    finite = a[np.isfinite(a)]
    biggest = float(np.max(np.abs(finite))) if finite.size else 0.0
    decimals = 2 if biggest < 10 else 1 if biggest < 100 else 0
    return [[f"{v:.{decimals}f}".replace("-", "−") if math.isfinite(v) else ("−∞" if v < 0 else "∞")
             for v in row] for row in a.tolist()]


def color_range(kind: str, values: np.ndarray, zmin: float | None = None,
                zmax: float | None = None) -> tuple[object, float, float]:
    """(colorscale, zmin, zmax) of a kind: signed -> diverging, symmetric around 0; cosine -> diverging
    -1..1; weights -> sequential 0..1; plain -> sequential over the data. Explicit limits win."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    a = np.asarray(values, dtype=float)
    finite = a[np.isfinite(a)]
    if kind == "weights":
        colorscale, lo, hi = WEIGHTS_SCALE, 0.0, 1.0
    elif kind == "cosine":
        colorscale, lo, hi = DIVERGING, -1.0, 1.0
    elif kind == "signed":
        m = float(np.max(np.abs(finite))) if finite.size else 1.0
        m = m if m > 0 else 1.0
        colorscale, lo, hi = DIVERGING, -m, m
    else:
        lo = float(finite.min()) if finite.size else 0.0
        hi = float(finite.max()) if finite.size else 1.0
        hi = hi if hi > lo else lo + 1.0
        colorscale = PLAIN_SCALE
    if zmin is not None:
        lo = float(zmin)
    if zmax is not None:
        hi = float(zmax)
    return colorscale, lo, hi


def head_color(i: int) -> str:
    return HEAD_COLORS[i % len(HEAD_COLORS)]


def _text_width_em(text: str) -> float:
    """Approximate width of plain text in em: CJK characters are square, Latin ones about half as wide."""
    return sum(1.0 if ord(c) >= 0x2E80 else 0.55 for c in text)


def wrap_title(text: str, size: int, width_px: float) -> str:
    """A (safe) title broken into lines (<br>) that fit `width_px` at font `size`: long titles wrap instead of
    running under the chart's toolbar or out of a phone's screen. Breaks at spaces; CJK text anywhere."""
    if "<br>" in text or _text_width_em(text) * size <= width_px:
        return text
    per_line = max(8.0, width_px / size)  # em per line
    lines, line = [], ""
    tokens = re.findall(r"&[#\w]+;|[\u2e80-\uffff]|\S+\s*|\s+", text)
    for tok in tokens:
        if line and _text_width_em(line + tok.rstrip()) > per_line:
            lines.append(line.rstrip())
            line = tok.lstrip()
        else:
            line += tok
    lines.append(line.rstrip())
    return "<br>".join(x for x in lines if x)


def base_layout(style: FigureStyle, title: str | None, height: int, subtitle: str | None = None) -> dict:
    """Layout shared by all figures; `title` and `subtitle` must already be safe (escaped). The title
    pushes the top margin (automargin), so a long or two-line title is never cut off."""
    layout: dict = {
        "height": height,
        "font": {"size": style.font_size, "family": style.font_family, "color": style.text_color},
        "margin": style.margins(has_title=False),
        "paper_bgcolor": style.background,
        "plot_bgcolor": style.background,
        "hoverlabel": {"font": {"size": style.font_size, "family": style.font_family}},
        "template": {"layout": {}},  # no default template: smaller JSON, our own look
    }
    if title or subtitle:
        layout["title"] = {
            "text": wrap_title(title or "", style.title_size, style.width_px * 0.75),
            "x": 0.0, "xanchor": "left", "xref": "paper", "yref": "paper",
            "automargin": True, "font": {"size": style.title_size},
            "pad": {"b": style.font_size // 2 + (style.font_size * 2 if subtitle else 0)},
        }
        if subtitle:
            subtitle_font = {"size": style.small_size, "color": style.muted_color}
            layout["title"]["subtitle"] = {"text": subtitle, "font": subtitle_font}
    return layout


def colorbar(title: str, style: FigureStyle) -> dict:
    """A colorbar with its (safe) title on top; the half-line spacer under the title keeps it clear
    of the top tick label, which sticks out above the bar."""
    spacer = f"<br><span style='font-size:{style.small_size // 2}px'> </span>"
    return {"title": {"text": title + spacer, "side": "top"}, "thickness": round(style.font_size * 1.1),
            "tickfont": {"size": style.small_size}}


def axis(title: str | None, style: FigureStyle, **kw) -> dict:
    """A plain axis: no grid, automargin so long tick labels are never cut off."""
    base = {
        "automargin": True,
        "showgrid": False,
        "zeroline": False,
        "ticks": "",
        "tickfont": {"size": style.font_size},
        "ticklabeloverflow": "allow",  # automargin keeps labels inside; skips plotly measuring every label again
    }
    if title:
        base["title"] = {"text": title, "font": {"size": style.font_size}}
    base.update(kw)
    return base
