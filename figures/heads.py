"""Many heads at once: all tiles in ONE heatmap, separated by NaN gaps (subplots are too slow in the
browser for 16 heads). Tile titles are annotations; tick labels only on the outer edges, thinned out
so that they stay legible. Masked cells (-inf), if any, are a second grey heatmap layer with its own
hover (NaN cells of the main heatmap have none)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from i18n import t

from .heatmap import axis_labels, default_names
from .resolution import block_labels, reduce_axes
from .style import (
    MASKED_HATCH,
    FigureStyle,
    axis,
    base_layout,
    color_range,
    colorbar,
    colorscale,
    format_values,
    json_values,
    label_margins,
    masked_hatch,
    plot_math,
    safe_label,
    safe_template,
    tick_plan,
)

_VALIDATE = False  # see tiled_heads
# Above this many cells a hover label carries positions, not tokens: one label per cell is most of a figure's
# message (72 maps of 48 x 48 wordpieces were 11 MB of JSON with tokens in every label).
HOVER_TOKENS_MAX_CELLS = 65_536


@dataclass(frozen=True)
class TileGeometry:
    """Where the tiles go: gaps are whole cells (gap_cols between tile columns, gap_rows above each tile row,
    room for its title), pixel sizes for tick thinning, and the figure height."""

    grid_rows: int
    grid_cols: int
    gap_cols: int
    gap_rows: int
    px_per_unit_x: float
    tile_h_px: float
    height: int


def tile_geometry(
    n: int, n_rows: int, n_cols: int, *, max_cols: int = 4, shared_scale: bool = True, style: FigureStyle
) -> TileGeometry:
    """The layout of n tiles of n_rows x n_cols cells, at most max_cols per row, for a figure of this style."""
    grid_cols = min(n, max_cols)
    grid_rows = math.ceil(n / grid_cols)
    plot_w = style.width_px * 0.88
    gap_x_px = style.font_size * 1.2
    units_w = grid_cols * n_cols
    gap_cols = max(1, round(gap_x_px * units_w / max(plot_w - (grid_cols - 1) * gap_x_px, 1.0)))
    px_per_unit_x = plot_w / (units_w + (grid_cols - 1) * gap_cols)
    title_lines = 1 if shared_scale else 2
    title_px = style.font_size * (1.35 * title_lines + 0.6)
    chrome = sum(style.margins().values()) + style.font_size * 7
    max_tile_h = (style.max_height - chrome) / grid_rows - title_px
    tile_h_px = float(np.clip(n_rows * px_per_unit_x, min(60.0, max_tile_h), max(max_tile_h, 60.0)))  # square if room
    px_per_unit_y = tile_h_px / n_rows
    for _ in range(4):  # whole gap rows round the title room up: shrink the cells until the figure fits again
        gap_rows = max(1, math.ceil(title_px / px_per_unit_y))
        fit = (style.max_height - chrome) / (grid_rows * (n_rows + gap_rows))
        if px_per_unit_y <= fit or n_rows * fit < 30:
            break
        px_per_unit_y = fit
    tile_h_px = px_per_unit_y * n_rows
    height = round(grid_rows * (n_rows + gap_rows) * px_per_unit_y + chrome)
    return TileGeometry(grid_rows, grid_cols, gap_cols, gap_rows, px_per_unit_x, tile_h_px, height)


def tile_color_range(kind: str, tile: np.ndarray) -> tuple[float, float]:
    """The raw range a tile's colours span when each head has its own scale: weights 0..max,
    signed/cosine -max|v|..max|v| (0 stays white), plain min..max."""
    finite = tile[np.isfinite(tile)]
    if not finite.size:
        return 0.0, 1.0
    if kind == "weights":
        return 0.0, float(finite.max())
    if kind in ("signed", "cosine"):
        m = float(np.abs(finite).max())
        return -m, m
    return float(finite.min()), float(finite.max())


def _normalise(tile: np.ndarray, lo: float, hi: float, kind: str) -> np.ndarray:
    """Map [lo, hi] to the fixed colour range of the kind: [-1, 1] diverging, else [0, 1]."""
    span = hi - lo
    if span <= 0:
        return np.where(np.isfinite(tile), 0.0, np.nan)
    unit = (tile - lo) / span  # 0..1
    return unit * 2 - 1 if kind in ("signed", "cosine") else unit


def tiled_heads(
    stack: np.ndarray,
    row_labels: Sequence[object] | None = None,
    col_labels: Sequence[object] | None = None,
    *,
    tile_titles: Sequence[str] | None = None,
    kind: str = "weights",
    shared_scale: bool = True,
    max_cols: int = 4,
    title: str | None = None,
    row_title: str | None = None,
    col_title: str | None = None,
    value_name: str | None = None,
    lang: str = "en",
    style: FigureStyle | None = None,
    numbered: bool = True,
    highlight_row: int | None = None,
) -> go.Figure:
    """stack (n, R, C), e.g. the weights of n heads, as a grid of tiles with at most max_cols per row.

    shared_scale: one colour scale for all tiles (colorbar); False: each tile coloured over its own
    range, written under its title (hover always shows raw values). Text arguments are plain text.
    numbered: labels as "i:label" (tokens, duplicates kept apart); False: the labels as given.
    highlight_row: a row (the chosen query) framed in every tile.
    """
    style = style or FigureStyle()
    a = np.asarray(stack, dtype=float)
    if a.ndim != 3:
        raise ValueError(f"stack must be 3-D (n, R, C), got shape {a.shape}")
    n, n_rows, n_cols = a.shape
    if max_cols < 1:
        raise ValueError("max_cols must be >= 1")
    titles = list(tile_titles) if tile_titles is not None else [t("fig.head_n", lang, n=k + 1) for k in range(n)]
    if len(titles) != n:
        raise ValueError(f"expected {n} tile titles, got {len(titles)}")
    row_ticks, row_hover = axis_labels(row_labels, n_rows, numbered=numbered)
    col_ticks, col_hover = axis_labels(col_labels, n_cols, numbered=numbered)
    row_name, col_name, val_name = default_names(kind, lang, row_title, col_title, value_name)
    # unlabelled axes wider than a tile's pixels are drawn as blocks of adjacent entries (figures/resolution.py)
    geo = tile_geometry(n, n_rows, n_cols, max_cols=max_cols, shared_scale=shared_scale, style=style)
    tile_w_px = (style.width_px * 0.88 - (geo.grid_cols - 1) * style.font_size * 1.2) / geo.grid_cols
    # (rows are tokens, or at most 256 input dimensions on /why: only columns are merged)
    a, reduction = reduce_axes(a, geo.tile_h_px, tile_w_px, rows_free=False, cols_free=col_labels is None)
    row_ticks, row_hover = block_labels(row_ticks, row_hover, reduction.row_factor)
    col_ticks, col_hover = block_labels(col_ticks, col_hover, reduction.col_factor)
    n_rows, n_cols = a.shape[1:]
    has_masked = not bool(np.isfinite(a).all())

    max_cols = min(max_cols, style.max_tile_cols)
    geo = tile_geometry(n, n_rows, n_cols, max_cols=max_cols, shared_scale=shared_scale, style=style)
    grid_rows, grid_cols, kx, ky = geo.grid_rows, geo.grid_cols, geo.gap_cols, geo.gap_rows
    tile_h_px, px_per_unit_x, height = geo.tile_h_px, geo.px_per_unit_x, geo.height
    x_starts = [tc * (n_cols + kx) for tc in range(grid_cols)]
    y_starts = [tr * (n_rows + ky) for tr in range(grid_rows)]
    x_end, y_end = grid_cols * (n_cols + kx) - kx, grid_rows * (n_rows + ky) - ky

    # One big z with NaN gaps of whole cells (uniform bricks let plotly draw the heatmap as one small
    # pixelated image instead of one rectangle per cell: much faster); tile k at z[y_starts, x_starts].
    z = np.full((y_end, x_end), np.nan)
    ranges: list[tuple[float, float]] = []
    for k in range(n):
        tr, tc = divmod(k, grid_cols)
        rs, cs = y_starts[tr], x_starts[tc]
        if shared_scale:
            z[rs:rs + n_rows, cs:cs + n_cols] = a[k]
        else:
            ranges.append(tile_color_range(kind, a[k]))
            z[rs:rs + n_rows, cs:cs + n_cols] = _normalise(a[k], *ranges[k], kind)
    z[~np.isfinite(z)] = np.nan

    # Hover: ONE tag-free string per cell, "head 1 · 3:cat → 5:sat" (lists of fields per cell
    # would triple the validation time; "<br>" inside data is escaped as \u003cbr\u003e in the JSON).
    # With an own scale per head, z holds colours only: the raw value goes into `text`.
    labels = np.full(z.shape, None, dtype=object)
    in_tile = np.zeros(z.shape, dtype=bool)
    raw_cells = np.full(z.shape, None, dtype=object) if not shared_scale else None
    raw = format_values(a, lang) if not shared_scale else None
    if a.size > HOVER_TOKENS_MAX_CELLS:  # e.g. 72 maps of 48 x 48: positions only, the ticks show the tokens
        row_hover, col_hover = [str(i) for i in range(n_rows)], [str(j) for j in range(n_cols)]
    for k in range(n):
        tr, tc = divmod(k, grid_cols)
        rs, cs = y_starts[tr], x_starts[tc]
        prefix = safe_template(titles[k])
        labels[rs:rs + n_rows, cs:cs + n_cols] = [[f"{prefix} · {r} → {c}" for c in col_hover] for r in row_hover]
        in_tile[rs:rs + n_rows, cs:cs + n_cols] = True
        if raw_cells is not None and raw is not None:
            raw_cells[rs:rs + n_rows, cs:cs + n_cols] = raw[k]
    finite = np.isfinite(z)
    masked = in_tile & ~finite  # NaN cells get no hover (gaps): masked cells hover on their own layer

    if shared_scale:
        scale, lo, hi = color_range(kind, a, dark=style.dark)
    else:
        scale = colorscale(kind, style.dark)
        lo, hi = (-1.0, 1.0) if kind in ("signed", "cosine") else (0.0, 1.0)
    value_ref = "%{z:.4g}" if shared_scale else "%{text}"
    trace = {
        "type": "heatmap",
        "z": json_values(z),
        "x0": 0.5, "dx": 1, "y0": 0.5, "dy": 1,  # cell j spans [j, j + 1]
        "customdata": np.where(finite, labels, None).tolist(),
        **({"text": np.where(finite, raw_cells, None).tolist()} if raw_cells is not None else {}),
        # spelled out (figures.style.colorscale): unvalidated, a name would reach plotly.js, whose "Blues" differs
        "colorscale": scale,
        "zmin": lo,
        "zmax": hi,
        "hoverongaps": False,
        "hovertemplate": (f"%{{customdata}}<br>({row_name} → {col_name})"
                          f"<br>{val_name}: {value_ref}<extra></extra>"),
        "showscale": shared_scale,
        "colorbar": colorbar(val_name, style),
    }

    # Ticks: rows on the left of every tile row, columns under the bottom tile of every column.
    y_step, y_font = tick_plan(n_rows, tile_h_px, style)
    x_step, x_font = tick_plan(n_cols, n_cols * px_per_unit_x, style)
    y_vals = [y0 + i + 0.5 for y0 in y_starts for i in range(0, n_rows, y_step)]
    y_text = [row_ticks[i] for _ in y_starts for i in range(0, n_rows, y_step)]
    x_vals = [x0 + j + 0.5 for x0 in x_starts for j in range(0, n_cols, x_step)]
    x_text = [col_ticks[j] for _ in x_starts for j in range(0, n_cols, x_step)]

    notes = []
    if not shared_scale:
        notes.append(safe_label(t("fig.per_head_scale_note", lang)))
    if has_masked:
        notes.append(safe_label(t("a11y.masked_note", lang)))
    if reduction.reduced:
        notes.append(safe_label(reduction.note(lang)))

    data = [trace]
    ground = MASKED_HATCH["dark" if style.dark else "light"][0]
    if has_masked:
        # Masked cells (-inf scores): a grey layer of their own, so that they have a hover too.
        data.append({
            "type": "heatmap", "z": np.where(masked, 0.0, None).tolist(), "x0": 0.5, "dx": 1, "y0": 0.5, "dy": 1,
            "customdata": np.where(masked, labels, None).tolist(),
            "colorscale": [[0, ground], [1, ground]], "zmin": 0, "zmax": 1, "showscale": False,
            "hoverongaps": False,
            "hovertemplate": (f"%{{customdata}}<br>({row_name} → {col_name})"
                              f"<br>{val_name}: {safe_template(t('fig.masked', lang))}<extra></extra>"),
        })
        data.append(masked_hatch(masked, style, x0=0.0, y0=0.0))  # a pattern over them, not grey alone
    # Our own dicts of plain lists: validating them cell by cell cost ~70 % of this function (65k cells at h = 16,
    # L = 64). tests/test_figures_heads.py checks that the figure is the same with validation on.
    fig = go.Figure(data=data, _validate=_VALIDATE)
    layout = base_layout(style, safe_label(title) if title else None, height, " · ".join(notes) or None)
    layout["margin"] = label_margins(style, y_text=y_text, y_font=y_font, x_text=x_text, x_font=x_font,
                                     x_spacing_px=px_per_unit_x * x_step,
                                     colorbar_title=val_name if shared_scale else None)  # fmt: skip
    fig.update_layout(
        **layout,
        meta={"tiles": n, "rows": n_rows, "cols": n_cols},  # the tiles' grid, for the text alternative (describe)
        barmode="overlay",
        xaxis=axis(safe_label(col_title) if col_title else None, style, tickvals=json_values(x_vals),
                   ticktext=x_text, range=[0, x_end], tickfont={"size": x_font}),
        yaxis=axis(safe_label(row_title) if row_title else None, style, tickvals=json_values(y_vals),
                   ticktext=y_text, range=[y_end, -ky], tickfont={"size": y_font}),
    )
    annotations = []
    for k in range(n):
        tr, tc = divmod(k, grid_cols)
        text = plot_math(safe_label(titles[k]))  # "head_1 W^O_1": sub/superscripts
        if not shared_scale:
            lo_k, hi_k = ranges[k]
            rng = t("fig.tile_range", lang, lo=f"{lo_k:.3g}", hi=f"{hi_k:.3g}").replace("-", "−")
            text += f"<br><span style='font-size:{style.small_size}px'>{safe_label(rng)}</span>"
        annotations.append({
            "x": x_starts[tc] + n_cols / 2, "y": y_starts[tr], "xref": "x", "yref": "y",
            "text": text, "showarrow": False, "yanchor": "bottom", "yshift": 2,
            "font": {"size": style.font_size},
        })
    fig.update_layout(annotations=annotations)
    if highlight_row is not None and 0 <= highlight_row < n_rows:
        # two tones, a line of the background under one of the text colour: it stands out from pale and dark cells
        # alike, on either screen
        width = max(2, style.font_size // 7)
        frames = ({"color": style.background, "width": width + 3}, {"color": style.text_color, "width": width})
        shapes = []
        for k in range(n):
            x0, y0 = x_starts[k % grid_cols], y_starts[k // grid_cols] + highlight_row
            shapes += [{"type": "rect", "xref": "x", "yref": "y", "x0": x0, "x1": x0 + n_cols, "y0": y0, "y1": y0 + 1,
                        "line": frame, "fillcolor": "rgba(0,0,0,0)"} for frame in frames]  # fmt: skip
        fig.update_layout(shapes=shapes)
    return fig
