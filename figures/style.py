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
from plotly.colors import get_colorscale, sample_colorscale

from i18n import t

Kind = Literal["signed", "weights", "cosine", "plain"]
KINDS: tuple[str, ...] = ("signed", "weights", "cosine", "plain")

DIGITS = 4  # significant digits carried in figure JSON
GRID_COLOR = "#e6e6e6"

# Diverging, for signed values and cosines: negative = blue, zero = exactly white, positive = orange. Blue against
# orange stays apart for every kind of colour blindness, and the two ends differ in lightness too (L* 20 against 52
# on white; 48 against 72 on the dark screen), so the sign survives in grey. On the dark screen every colour keeps
# 3:1 against the background (the darkest of ColorBrewer's blues had 1.5:1 there).
DIVERGING: list[list] = [
    [0.0, "#053061"], [0.1, "#2166ac"], [0.2, "#4393c3"], [0.3, "#92c5de"], [0.4, "#d1e5f0"], [0.5, "rgb(255,255,255)"],
    [0.6, "#fde0c0"], [0.7, "#fbb871"], [0.8, "#ef9a3c"], [0.9, "#db7a20"], [1.0, "#c2600c"],
]  # fmt: skip
DIVERGING_DARK: list[list] = [
    [0.0, "#2f6bcc"], [0.1, "#4a86dc"], [0.2, "#79a7e6"], [0.3, "#a9c8f0"], [0.4, "#d6e5f8"], [0.5, "rgb(255,255,255)"],
    [0.6, "#fdf0de"], [0.7, "#fbdcb2"], [0.8, "#f7c685"], [0.9, "#f4b15f"], [1.0, "#f0a040"],
]  # fmt: skip
WEIGHTS_SCALE = "Blues"  # attention weights, 0 = white .. 1 = dark blue
PLAIN_SCALE = "Viridis"
# Masked cells: grey with a hatch (a pattern, not a shade of grey alone: 1.7:1 against white was too faint).
MASKED_COLOR = "#bdbdbd"  # what shows through a NaN (masked) heatmap cell
MASKED_HATCH = {"light": ("#bdbdbd", "#4d4d4d"), "dark": ("#3a3f4b", "#9aa0aa")}  # (ground, hatch lines)
# One colour per head, the same head in every figure: Okabe & Ito's colour-blind-safe set in the shades that keep
# 3:1 against the figure's background (on white without its yellow and sky blue, on the dark screen without black
# and dark blue). Every pair stays apart under deuteranopia and protanopia (tests/test_a11y_colours.py), and every
# head has a dash pattern of its own as well: colour is never the only cue.
HEAD_COLORS: tuple[str, ...] = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#000000", "#8B5A00")
HEAD_COLORS_DARK: tuple[str, ...] = ("#56B4E9", "#E69F00", "#009E73", "#CC79A7", "#E0E0E0", "#F0E442")
HEAD_DASHES: tuple[str, ...] = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")
# A second cue where lines cross or bars stack: a marker symbol per series, a fill pattern per stacked bar.
SERIES_SYMBOLS: tuple[str, ...] = ("circle", "square", "diamond", "triangle-up", "x", "star", "triangle-down", "cross")
SERIES_PATTERNS: tuple[str, ...] = ("", "/", "\\", "x", "-", "|", "+", ".")

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
    # the angles plotly may turn crowded x labels to; on a narrow screen upright or vertical only: at 30° the
    # neighbours of 20 px apart overlapped (10 px between their lines of 12 px text)
    tick_angles: tuple[int, ...] = (0, 30, 90)

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
                   marker_size=6, max_tile_cols=2, tick_angles=(0, 90))

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
    def reference_color(self) -> str:
        """Reference lines and marks (√d_k, uniform attention, a chosen step): 3:1 against the background."""
        return "#a0a0a0" if self.dark else "#6b6b6b"

    @property
    def grid_color(self) -> str:
        return "#2c3340" if self.dark else GRID_COLOR

    @property
    def background(self) -> str:
        return "#0e1117" if self.dark else "white"

    def head_color(self, i: int) -> str:
        return head_color(i, self.dark)

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


# Notation in a chart title drawn as plotly's sub- and superscripts (its titles understand <sub> and <sup>):
# W^O -> W<sup>O</sup>, W_i^Q -> W<sub>i</sub><sup>Q</sup>, d_k -> d<sub>k</sub>; d_model stays (a name).
_SUPERSCRIPT = re.compile(r"(?<=[A-Za-z0-9)ᵢ])\^([A-Za-z0-9]+|\([^)]*\))")
_SUBSCRIPT = re.compile(r"(?<=[A-Za-z>])_([A-Za-z0-9])(?![A-Za-z0-9])")


def plot_math(safe_text: str) -> str:
    """A safe (escaped) title with its math notation as sub/superscripts; text without ^ or _ is unchanged."""
    if "^" not in safe_text and "_" not in safe_text:
        return safe_text
    return _SUBSCRIPT.sub(r"<sub>\1</sub>", _SUPERSCRIPT.sub(r"<sup>\1</sup>", safe_text))


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


def colorscale(kind: str, dark: bool = False) -> list[list]:
    """The colour scale of a kind on a light or a dark screen: signed/cosine diverging, weights sequential blues,
    plain viridis; on the dark screen without the colours that fall under 3:1 against its background."""
    if kind in ("signed", "cosine"):
        return DIVERGING_DARK if dark else DIVERGING
    name = WEIGHTS_SCALE if kind == "weights" else PLAIN_SCALE
    if not dark:
        return get_colorscale(name)
    start, stop = (0.0, 0.75) if kind == "weights" else (0.33, 1.0)  # Blues' darkest quarter, viridis' darkest third
    stops = [start + (stop - start) * i / 10 for i in range(11)]
    return [[i / 10, c] for i, c in enumerate(sample_colorscale(name, stops))]


def color_range(kind: str, values: np.ndarray, zmin: float | None = None,
                zmax: float | None = None, dark: bool = False) -> tuple[object, float, float]:
    """(colorscale, zmin, zmax) of a kind: signed -> diverging, symmetric around 0; cosine -> diverging
    -1..1; weights -> sequential 0..1; plain -> sequential over the data. Explicit limits win."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    a = np.asarray(values, dtype=float)
    finite = a[np.isfinite(a)]
    if kind == "weights":
        lo, hi = 0.0, 1.0
    elif kind == "cosine":
        lo, hi = -1.0, 1.0
    elif kind == "signed":
        m = float(np.max(np.abs(finite))) if finite.size else 1.0
        m = m if m > 0 else 1.0
        lo, hi = -m, m
    else:
        lo = float(finite.min()) if finite.size else 0.0
        hi = float(finite.max()) if finite.size else 1.0
        hi = hi if hi > lo else lo + 1.0
    if zmin is not None:
        lo = float(zmin)
    if zmax is not None:
        hi = float(zmax)
    return colorscale(kind, dark), lo, hi


def head_color(i: int, dark: bool = False) -> str:
    """Head i's colour (0-based); past the palette the colours repeat shifted by one, so that with head_dash every
    (colour, dash) pair is new up to 36 heads."""
    palette = HEAD_COLORS_DARK if dark else HEAD_COLORS
    return palette[(i + i // len(palette)) % len(palette)]


def head_dash(i: int) -> str:
    """Head i's dash pattern: with the colour, what tells the heads apart (also in grey, also colour-blind)."""
    return HEAD_DASHES[i % len(HEAD_DASHES)]


def masked_hatch(masked: np.ndarray, style: FigureStyle, x0: float = -0.5, y0: float = -0.5) -> dict | None:
    """A hatched layer over the masked cells of a heatmap grid (True = masked; cell (i, j) spans x0 + j .. x0 + j + 1
    and y0 + i .. y0 + i + 1): one horizontal bar per run of masked cells in a row, drawn with a diagonal pattern.
    It takes no hover (the heatmap under it says "masked"); None when nothing is masked."""
    m = np.asarray(masked, dtype=bool)
    ys, starts, lengths = [], [], []
    for i, row in enumerate(m):
        edges = np.flatnonzero(np.diff(np.concatenate([[0], row.astype(np.int8), [0]])))
        for first, end in zip(edges[::2], edges[1::2], strict=True):
            ys.append(y0 + i + 0.5)
            starts.append(x0 + int(first))
            lengths.append(int(end - first))
    if not ys:
        return None
    ground, lines = MASKED_HATCH["dark" if style.dark else "light"]
    return {
        "type": "bar", "orientation": "h", "y": json_values(ys), "x": lengths, "base": json_values(starts),
        "width": 1, "hoverinfo": "skip", "showlegend": False,
        "marker": {"color": ground, "line": {"width": 0},
                   "pattern": {"shape": "/", "fgcolor": lines, "bgcolor": ground, "size": 6, "solidity": 0.35}},
    }  # fmt: skip


def _text_width_em(text: str, latin: float = 0.55) -> float:
    """Approximate width of plain text in em: CJK characters are square, Latin ones about half as wide (`latin`: 0.55
    is a little over for most Latin text, 0.47 its likely width)."""
    return sum(1.0 if ord(c) >= 0x2E80 else latin for c in text)


def widest_em(texts: Sequence[object], latin: float = 0.55) -> float:
    """The widest of `texts` in em (_text_width_em); 0 for none."""
    return max((_text_width_em(str(t), latin) for t in texts), default=0.0)


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
            "text": plot_math(wrap_title(title or "", style.title_size, style.width_px * 0.75)),
            "x": 0.0, "xanchor": "left", "xref": "paper", "yref": "paper",
            "automargin": True, "font": {"size": style.title_size},
            "pad": {"b": style.font_size // 2 + (style.font_size * 2 if subtitle else 0)},
        }
        if subtitle:
            subtitle_font = {"size": style.small_size, "color": style.muted_color}
            layout["title"]["subtitle"] = {"text": subtitle, "font": subtitle_font}
    return layout


# Where plotly puts what pushes a margin (measured with plotly.js 4.1 in Chromium, tests/test_figure_margins.py): a tick
# label's box starts LABEL_GAP px from the plot, an x label's under it; a colorbar stands at x = COLORBAR_X of the
# plot's width, COLORBAR_PAD px of padding on each side of its bar or title, the widest tick label CB_TICK_CHARS long.
LABEL_GAP = 10
X_LABEL_GAP = 16
COLORBAR_X = 1.02
COLORBAR_PAD = 10
CB_TICK_CHARS = 5
OVER = 1.1  # the estimate's room for a wider font than the one it assumes (_text_width_em)


def label_margins(style: FigureStyle, *, y_text: Sequence[str], y_font: int, x_text: Sequence[str], x_font: int,
                  x_spacing_px: float, colorbar_title: str | None = None, y_title: bool = False,
                  x_title: bool = False, title: dict | None = None) -> dict[str, int]:  # fmt: skip
    """The margins plotly's automargin will push a heatmap's to, estimated a little over from its labels: tick labels
    on the left and below (turned as plotly turns them when they overlap: style.tick_angles, x_spacing_px apart at the
    width the style expects) with the axes' titles beyond them, a colorbar on the right, the figure's `title` (as
    base_layout made it) on top. Plotly lays a figure out, measures what sticks out and, when
    the margins are too small for it, lays the figure out again: given margins that already fit, it draws once
    (Plotly.newPlot of /heads's eight tiles: 48 ms, then 23). An estimate that falls short costs that second pass, as
    before; one that is over leaves a few pixels blank. The axes keep automargin: no label is ever cut off."""
    m = style.margins(has_title=False)
    y_w, x_w = widest_em(y_text) * y_font, widest_em(x_text) * x_font
    left = y_w * OVER + LABEL_GAP if y_text else 0.0
    level = x_font * 1.4 + X_LABEL_GAP  # level labels, and the least any turned ones take
    # turned or not: decided on the labels' likely width (_text_width_em is a little over for Latin text): a chart
    # whose labels plotly turns after all is laid out twice, as without the estimate; one whose labels it leaves level
    # after all would keep a blank band under them
    likely = widest_em(x_text, latin=0.47) * x_font
    if not x_text:
        bottom = 0.0
    elif likely + 4 <= x_spacing_px or tuple(style.tick_angles) == (0,):
        bottom = level
    elif 30 in style.tick_angles and x_spacing_px >= 2.6 * x_font:  # a line apart across the slant
        bottom = max(level, (x_w * 0.5 + x_font * 1.2 * 0.87) * OVER + X_LABEL_GAP)  # turned 30 degrees
    else:
        bottom = max(level, x_w * OVER + X_LABEL_GAP)  # upright
    if y_title and y_text:
        left += style.font_size * 1.3 + 8
    if x_title and x_text:
        bottom += style.font_size * 1.3 + 6
    top = 0.0
    if title and title.get("text"):
        # its first line only: plotly.js 4.1 lifts a wrapped title's first line by its other lines only in the layout
        # pass after the title has pushed the top margin; given a margin that already fits every line, it drew the
        # second line into the plot (a phone's wrapped title over the heatmap's first row). A wrapped title (a
        # phone's, mostly) is laid out twice; plotly's own push then sizes the margin.
        lines = 1 + (1.5 if title.get("subtitle") else 0)
        top = (lines * style.title_size * 1.25 + title.get("pad", {}).get("b", 0)) * OVER + 12
    # the last x label, level and centred on its tick, sticks out by half its width
    right = (_text_width_em(str(x_text[-1])) * x_font * 0.5 * OVER + x_font * 0.6 if x_text else 0.0)
    if colorbar_title is not None:
        title_w = _text_width_em(re.sub(r"<[^>]*>|&[#\w]+;", " ", colorbar_title.split("<br>")[0])) * style.font_size
        bar = round(style.font_size * 1.1) + 4 + CB_TICK_CHARS * 0.55 * style.small_size
        size = (max(title_w, bar) + 2 * COLORBAR_PAD) * OVER
        figure_w = style.width_px * 1.35  # wider than the style expects: the chart stretches to its container
        right = (size + (COLORBAR_X - 1) * (figure_w - left)) / COLORBAR_X
    return {"t": math.ceil(max(m["t"], top)), "l": math.ceil(max(m["l"], left)), "b": math.ceil(max(m["b"], bottom)),
            "r": math.ceil(max(m["r"], right))}


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
        "autotickangles": list(style.tick_angles),
    }
    if title:
        base["title"] = {"text": title, "font": {"size": style.font_size}}
    base.update(kw)
    return base
