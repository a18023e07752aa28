"""One matrix as a heatmap: rows and columns are positions with "i:token" tick text."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from i18n import t

from .resolution import block_labels, reduce_axes
from .style import (
    MASKED_HATCH,
    FigureStyle,
    axis,
    base_layout,
    cell_texts,
    color_range,
    colorbar,
    format_values,
    hover_labels,
    json_values,
    label_margins,
    masked_hatch,
    safe_label,
    safe_template,
    shorten,
    tick_plan,
    token_ticks,
    widest_em,
)

SHOW_VALUES_MAX_CELLS = 150  # auto: numbers inside cells only while they stay readable


def axis_labels(labels: Sequence[object] | None, n: int, numbered: bool) -> tuple[list[str], list[str]]:
    """(tick text, hover text) of n positions; None -> the positions themselves."""
    if labels is None:
        plain = [str(i) for i in range(n)]
        return plain, plain
    if len(labels) != n:
        raise ValueError(f"expected {n} labels, got {len(labels)}")
    if numbered:
        return token_ticks(labels), hover_labels(labels)
    return [safe_label(shorten(str(s), 14)) for s in labels], [safe_label(s) for s in labels]


def strided(ticktext: list[str], step: int) -> tuple[list[int], list[str]]:
    """Every step-th tick (positions, text)."""
    vals = list(range(0, len(ticktext), step))
    return vals, [ticktext[i] for i in vals]


def default_names(kind: str, lang: str, row_title: str | None, col_title: str | None,
                  value_name: str | None) -> tuple[str, str, str]:
    """Hover names (safe for a hovertemplate) of rows, columns and values; attention weights default
    to query / key / weight, anything else to row / column / value."""
    weights = kind == "weights"
    row = row_title or t("fig.query" if weights else "fig.row", lang)
    col = col_title or t("fig.key" if weights else "fig.column", lang)
    val = value_name or t("fig.weight" if weights else "fig.value", lang)
    return safe_template(row), safe_template(col), safe_template(val)


def matrix_heatmap(
    values: np.ndarray,
    row_labels: Sequence[object] | None = None,
    col_labels: Sequence[object] | None = None,
    *,
    title: str | None = None,
    kind: str = "plain",
    row_title: str | None = None,
    col_title: str | None = None,
    value_name: str | None = None,
    show_values: bool | None = None,
    zmin: float | None = None,
    zmax: float | None = None,
    numbered: bool = True,
    lang: str = "en",
    style: FigureStyle | None = None,
    width_fraction: float = 1.0,
) -> go.Figure:
    """Heatmap of values (R, C); row i is labelled "i:row_labels[i]" (numbered=False: the label alone).

    kind: "signed" (diverging, symmetric around 0), "weights" (sequential 0..1), "cosine" (diverging
    -1..1), "plain" (sequential over the data). Non-finite values (masked scores) show grey and hover
    says "masked". All text arguments are plain text.
    """
    style = style or FigureStyle()
    a = np.asarray(values, dtype=float)
    if a.ndim != 2:
        raise ValueError(f"values must be 2-D (R, C), got shape {a.shape}")
    row_ticks, row_hover = axis_labels(row_labels, a.shape[0], numbered)
    col_ticks, col_hover = axis_labels(col_labels, a.shape[1], numbered)
    height = style.heatmap_height(a.shape[0])
    plot_h = height - sum(style.margins().values()) - style.font_size * 6
    plot_w = style.width_px * 0.85 * width_fraction
    # unlabelled axes wider than the screen are drawn as blocks of adjacent entries (figures/resolution.py)
    a, reduction = reduce_axes(a, plot_h, plot_w, rows_free=row_labels is None, cols_free=col_labels is None)
    row_ticks, row_hover = block_labels(row_ticks, row_hover, reduction.row_factor)
    col_ticks, col_hover = block_labels(col_ticks, col_hover, reduction.col_factor)
    n_rows, n_cols = a.shape
    has_masked = not bool(np.isfinite(a).all())
    colorscale, lo, hi = color_range(kind, a, zmin, zmax, dark=style.dark)
    auto_values = show_values is None
    if auto_values:
        show_values = n_rows * n_cols <= SHOW_VALUES_MAX_CELLS

    row_name, col_name, val_name = default_names(kind, lang, row_title, col_title, value_name)

    # Hover: labels from customdata (per cell) only where they are not just the position numbers.
    fields: list[np.ndarray] = []
    if row_labels is not None or reduction.row_factor > 1:
        fields.append(np.broadcast_to(np.array(row_hover, dtype=object)[:, None], a.shape))
        row_ref = f"%{{customdata[{len(fields) - 1}]}}"
    else:
        row_ref = "%{y}"
    if col_labels is not None or reduction.col_factor > 1:
        fields.append(np.broadcast_to(np.array(col_hover, dtype=object)[None, :], a.shape))
        col_ref = f"%{{customdata[{len(fields) - 1}]}}"
    else:
        col_ref = "%{x}"
    if has_masked:
        fields.append(format_values(a, lang))
        val_ref = f"%{{customdata[{len(fields) - 1}]}}"
    else:
        val_ref = "%{z:.4g}"
    hovertemplate = f"{row_name}: {row_ref}<br>{col_name}: {col_ref}<br>{val_name}: {val_ref}<extra></extra>"

    y_step, y_font = tick_plan(n_rows, plot_h, style)
    x_step, x_font = tick_plan(n_cols, plot_w, style)
    y_vals, y_text = strided(row_ticks, y_step)
    x_vals, x_text = strided(col_ticks, x_step)

    bar_title = safe_label(value_name) if value_name else val_name
    trace = go.Heatmap(
        z=json_values(a),
        colorscale=colorscale,
        zmin=lo,
        zmax=hi,
        hovertemplate=hovertemplate,
        colorbar=colorbar(bar_title, style),
    )
    if fields:
        trace.customdata = np.stack(fields, axis=-1)  # an object array: validated at once, not cell by cell
    notes = [safe_label(t("a11y.masked_note", lang))] if has_masked else []
    if reduction.reduced:
        notes.append(safe_label(reduction.note(lang)))
    note = " · ".join(notes) or None
    fig = go.Figure(trace)
    layout = base_layout(style, safe_label(title) if title else None, height, note)
    layout["margin"] = label_margins(style, y_text=y_text, y_font=y_font, x_text=x_text, x_font=x_font,
                                     x_spacing_px=plot_w / max(n_cols, 1) * x_step,
                                     colorbar_title=bar_title,
                                     y_title=bool(row_title), x_title=bool(col_title), title=layout.get("title"))
    texts = cell_texts(a) if show_values else None
    if texts and auto_values:  # auto: a number only where it fits its cell (8 heads on a phone: they ran together)
        cell_px = (style.width_px * width_fraction - layout["margin"]["l"] - layout["margin"]["r"]) / max(n_cols, 1)
        if widest_em([v for row in texts for v in row]) * style.small_size > cell_px - 2:
            texts = None
    if texts:
        fig.data[0].update(text=texts, texttemplate="%{text}", textfont={"size": style.small_size})
    fig.update_layout(
        **layout,
        xaxis=axis(safe_label(col_title) if col_title else None, style,
                   tickvals=x_vals, ticktext=x_text, range=[-0.5, n_cols - 0.5], tickfont={"size": x_font}),
        yaxis=axis(safe_label(row_title) if row_title else None, style,
                   tickvals=y_vals, ticktext=y_text, range=[n_rows - 0.5, -0.5], tickfont={"size": y_font}),
    )
    if has_masked:
        fig.add_shape(type="rect", x0=-0.5, x1=n_cols - 0.5, y0=-0.5, y1=n_rows - 0.5, layer="below",
                      fillcolor=MASKED_HATCH["dark" if style.dark else "light"][0], line={"width": 0})
        fig.add_trace(masked_hatch(~np.isfinite(a), style))  # a pattern over the masked cells, not grey alone
        fig.update_layout(barmode="overlay")
    return fig
