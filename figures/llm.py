"""Figures of the "From the notes to LLMs" pages: plain numbers in, plotly figures out (no attention math here).

decode_cost_figure     FLOPs of each decoding step with and without the KV cache, and the cache's bytes
change_figure          how much each query head's map moved when its K/V were shared (bars, grouped by K/V head)
alibi_figure           ALiBi's penalty -m_i d against the distance d, one line per head
rope_wavelength_figure each RoPE pair's wavelength against a trained length (log scale)
online_softmax_figure  one query row's scores read block by block: the running max and the running sum
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from i18n import t

from .style import (
    MASKED_COLOR,
    FigureStyle,
    axis,
    base_layout,
    json_values,
    safe_label,
    safe_template,
)

CACHED, RECOMPUTED = 0, 3  # head colours (style.head_color: the theme's colour-blind-safe set)


def _gridlines(style: FigureStyle) -> dict:
    return {"showgrid": True, "gridcolor": style.grid_color}
DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")  # colour is never the only cue


def _line(x, y, name: str, color: str, style: FigureStyle, *, dash: str = "solid", symbol: str = "circle",
          mode: str = "lines+markers", shape: str = "linear", legend: bool = True) -> dict:  # fmt: skip
    return {
        "type": "scatter", "x": json_values(np.asarray(x, dtype=float)), "y": json_values(np.asarray(y, dtype=float)),
        "name": safe_label(name), "mode": mode, "legendgroup": name, "showlegend": legend,
        "line": {"color": color, "width": style.line_width, "dash": dash, "shape": shape},
        "marker": {"size": style.marker_size, "symbol": symbol, "color": color},
        "hovertemplate": f"{safe_template(name)}: %{{y:,.4g}}<extra>%{{x}}</extra>",
    }  # fmt: skip


def _grid(fig: go.Figure, style: FigureStyle) -> None:
    fig.update_xaxes(showgrid=True, gridcolor=style.grid_color, automargin=True, ticks="", zeroline=False)
    fig.update_yaxes(showgrid=True, gridcolor=style.grid_color, automargin=True, ticks="", zeroline=False)
    fig.update_annotations(font_size=style.font_size)


def decode_cost_figure(
    flops_cached: Sequence[int], flops_recompute: Sequence[int], cache_bytes: Sequence[int], current: int, *,
    lang: str = "en", style: FigureStyle | None = None,
) -> go.Figure:
    """Left: matrix FLOPs of step t (t = 1..T) with the cache and recomputing everything; right: the cache's
    bytes after step t. `current` (1-based) is marked on both."""
    style = style or FigureStyle()
    steps = np.arange(1, len(flops_cached) + 1)
    titles = [t("fig.llm.flops_title", lang), t("fig.llm.bytes_title", lang)]
    fig = make_subplots(rows=1, cols=2, subplot_titles=[safe_label(x) for x in titles], horizontal_spacing=0.14)
    fig.add_trace(_line(steps, flops_recompute, t("fig.llm.recompute", lang), style.head_color(RECOMPUTED), style,
                        dash="dash", symbol="square"), row=1, col=1)  # fmt: skip
    fig.add_trace(_line(steps, flops_cached, t("fig.llm.cached", lang), style.head_color(CACHED), style), row=1, col=1)
    fig.add_trace(_line(steps, cache_bytes, t("fig.llm.cache_bytes", lang), style.head_color(2), style,
                        symbol="diamond", legend=False), row=1, col=2)  # fmt: skip
    for col in (1, 2):
        fig.add_vline(x=current, line={"color": style.reference_color, "dash": "dot", "width": 1}, row=1, col=col)
    _grid(fig, style)
    fig.update_xaxes(title_text=safe_label(t("fig.llm.step", lang)), dtick=max(1, len(steps) // 8))
    fig.update_yaxes(title_text=safe_label(t("fig.llm.flops", lang)), row=1, col=1)
    fig.update_yaxes(title_text=safe_label(t("fig.llm.bytes", lang)), row=1, col=2, rangemode="tozero")
    fig.update_layout(**base_layout(style, None, int(style.font_size * 24)),
                      legend={"orientation": "h", "y": -0.3, "x": 0.0})  # fmt: skip
    fig.update_layout(margin={"t": round(style.font_size * 3)})  # room for the subplot titles
    return fig


def change_figure(change: np.ndarray, groups: Sequence[Sequence[int]], *, lang: str = "en",
                  style: FigureStyle | None = None) -> go.Figure:  # fmt: skip
    """Bars: mean |A_i(g shared) - A_i(own K/V)| of each query head i, coloured and labelled by its K/V head."""
    style = style or FigureStyle()
    fig = go.Figure()
    for j, members in enumerate(groups):
        name = t("fig.llm.kv_head", lang, j=j + 1)
        fig.add_trace({
            "type": "bar", "x": [t("fig.head_n", lang, n=i + 1) for i in members],
            "y": json_values(np.asarray(change)[list(members)]), "name": safe_label(name),
            "marker": {"color": style.head_color(j),
                       "pattern": {"shape": ("", "/", "x", ".", "\\", "+")[j % 6]}},
            "hovertemplate": f"%{{x}} · {safe_template(name)}: %{{y:.3f}}<extra></extra>",
        })  # fmt: skip
    fig.update_layout(**base_layout(style, safe_label(t("fig.llm.change_title", lang)), int(style.font_size * 20)),
                      showlegend=len(groups) <= 8, legend={"orientation": "h", "y": -0.25, "x": 0.0},
                      xaxis=axis(None, style),
                      yaxis=axis(safe_label(t("fig.llm.change_axis", lang)), style, rangemode="tozero",
                                 **_gridlines(style)))  # fmt: skip
    return fig


def alibi_figure(slopes: np.ndarray, max_distance: int, trained: int | None = None, *, lang: str = "en",
                 style: FigureStyle | None = None) -> go.Figure:  # fmt: skip
    """ALiBi's bias -m_i d for distances d = 0..max_distance, one line per head (colour and dash)."""
    style = style or FigureStyle()
    d = np.arange(max_distance + 1)
    fig = go.Figure()
    for i, m in enumerate(np.asarray(slopes, dtype=float)):
        name = t("fig.llm.alibi_head", lang, n=i + 1, m=f"{m:.4g}")
        fig.add_trace(_line(d, -m * d, name, style.head_color(i), style, mode="lines",
                            dash=DASHES[i % len(DASHES)]))  # fmt: skip
    if trained is not None:
        fig.add_vline(x=trained, line={"color": style.reference_color, "dash": "dot", "width": 1},
                      annotation_text=safe_label(t("fig.llm.trained_length", lang)), annotation_position="top left")
    fig.update_layout(**base_layout(style, safe_label(t("fig.llm.alibi_title", lang)), int(style.font_size * 24)),
                      legend={"orientation": "v", "x": 1.02, "y": 1.0},
                      xaxis=axis(safe_label(t("fig.llm.distance", lang)), style, **_gridlines(style)),
                      yaxis=axis(safe_label(t("fig.llm.bias", lang)), style, **_gridlines(style)))  # fmt: skip
    return fig


def rope_wavelength_figure(wavelengths: np.ndarray, unseen: np.ndarray, trained: int, *, lang: str = "en",
                           style: FigureStyle | None = None) -> go.Figure:  # fmt: skip
    """Each RoPE pair's wavelength (positions per full turn, log scale) against the trained length; `unseen` (bool per
    pair): the pairs that never completed a turn in training (hollow markers, a legend entry: not colour alone)."""
    style = style or FigureStyle()
    waves = np.asarray(wavelengths, dtype=float)
    never = np.asarray(unseen, dtype=bool)
    pairs = np.arange(len(waves))
    fig = go.Figure()
    for unseen_group in (False, True):
        pick = never if unseen_group else ~never
        name = t("fig.llm.pairs_unseen" if unseen_group else "fig.llm.pairs_seen", lang)
        fig.add_trace({
            "type": "scatter", "x": json_values(pairs[pick]), "y": json_values(waves[pick]), "mode": "markers",
            "name": safe_label(name),
            "marker": {"size": style.marker_size + 2, "color": style.head_color(3 if unseen_group else 0),
                       "symbol": "circle-open" if unseen_group else "circle"},
            "hovertemplate": f"{safe_template(name)}<br>j = %{{x}}: %{{y:,.4g}}<extra></extra>",
        })  # fmt: skip
    fig.add_hline(y=trained, line={"color": style.reference_color, "dash": "dot", "width": 1.5},
                  annotation_text=safe_label(t("fig.llm.trained_length", lang)), annotation_position="bottom right")
    fig.update_layout(**base_layout(style, safe_label(t("fig.llm.wave_title", lang)), int(style.font_size * 24)),
                      legend={"orientation": "h", "y": -0.3, "x": 0.0},
                      xaxis=axis(safe_label(t("fig.llm.pair", lang)), style, **_gridlines(style)),
                      yaxis=axis(safe_label(t("fig.llm.wavelength", lang)), style, type="log",
                                 **_gridlines(style)))  # fmt: skip
    return fig


def online_softmax_figure(
    scores: np.ndarray, block_starts: Sequence[int], running_max: np.ndarray, running_sum: np.ndarray,
    labels: Sequence[str], *, lang: str = "en", style: FigureStyle | None = None,
) -> go.Figure:
    """Top: one query row's scores over its keys (masked keys left out), blocks shaded in turn, and the running max
    after each block (a step line); bottom: the running sum l after each block."""
    style = style or FigureStyle()
    s = np.asarray(scores, dtype=float)
    keys = np.arange(len(s))
    ends = [*block_starts[1:], len(s)]
    titles = [t("fig.llm.scores_max", lang), t("fig.llm.sum_title", lang)]
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.16,
                        subplot_titles=[safe_label(x) for x in titles])  # fmt: skip
    for n, (a, b) in enumerate(zip(block_starts, ends, strict=True)):  # every other block shaded
        if n % 2 == 0:
            for row in (1, 2):
                fig.add_shape(type="rect", x0=a - 0.5, x1=b - 0.5, y0=0, y1=1, yref=f"y{'' if row == 1 else 2} domain",
                              xref="x" if row == 1 else "x2", fillcolor="#888", opacity=0.15, line_width=0,
                              layer="below")  # fmt: skip
    finite = np.isfinite(s)
    fig.add_trace({
        "type": "scatter", "x": json_values(keys[finite]), "y": json_values(s[finite]), "mode": "markers",
        "name": safe_label(t("fig.llm.score", lang)),
        "marker": {"size": style.marker_size + 1, "color": style.head_color(0)},
        "customdata": [safe_label(labels[j]) for j in keys[finite]],
        "hovertemplate": "%{customdata}: %{y:.3f}<extra></extra>",
    }, row=1, col=1)  # fmt: skip
    # the value after block n drawn across block n: a step line from each block's start to the next one's
    edges = np.asarray([*block_starts, len(s)], dtype=float) - 0.5

    def across(values: np.ndarray) -> np.ndarray:
        v = np.where(np.isfinite(values), values, np.nan)
        return np.append(v, v[-1])

    fig.add_trace(_line(edges, across(np.asarray(running_max, dtype=float)), t("fig.llm.running_max", lang),
                        style.head_color(3), style, dash="dash", mode="lines", shape="hv"), row=1, col=1)  # fmt: skip
    fig.add_trace(_line(edges, across(np.asarray(running_sum, dtype=float)), t("fig.llm.running_sum", lang),
                        style.head_color(2), style, mode="lines", shape="hv"), row=2, col=1)  # fmt: skip
    _grid(fig, style)
    step = max(1, len(s) // 12)
    fig.update_xaxes(tickvals=list(keys[::step]), ticktext=[safe_label(labels[j]) for j in keys[::step]], row=2, col=1)
    fig.update_xaxes(title_text=safe_label(t("fig.llm.keys", lang)), row=2, col=1)
    fig.update_yaxes(title_text=safe_label(t("fig.llm.running_sum", lang)), row=2, col=1, rangemode="tozero")
    fig.update_yaxes(title_text=safe_label(t("fig.llm.score", lang)), row=1, col=1)
    fig.update_layout(**base_layout(style, None, int(style.font_size * 32)),
                      legend={"orientation": "h", "y": -0.22, "x": 0.0})  # fmt: skip
    fig.update_layout(margin={"t": round(style.font_size * 3)})  # room for the subplot titles
    return fig


def reach_figure(first_layer: np.ndarray, n_layers: int, *, lang: str = "en",
                 style: FigureStyle | None = None) -> go.Figure:  # fmt: skip
    """(L, L): the first layer (1..n) through which key j reaches query i, NaN where it does not within n layers
    (grey; the page says so under the figure). One discrete colour per layer, and the layer's number written in each
    cell while the cells are big."""
    style = style or FigureStyle()
    a = np.asarray(first_layer, dtype=float)
    n = max(1, int(n_layers))
    colors = [style.head_color(k) for k in range(n)]
    scale = []
    for k, c in enumerate(colors):  # a step colour scale: value k + 1 gets colour k
        scale += [[k / n, c], [(k + 1) / n, c]]
    reached = np.isfinite(a)
    length = a.shape[0]
    cell_text = [[str(int(v)) if f else "" for v, f in zip(row, fr, strict=True)] for row, fr in zip(a, reached,
                 strict=True)] if length <= 24 else None  # fmt: skip
    layer_word = safe_template(t("fig.llm.layer", lang))
    trace = {
        "type": "heatmap", "z": json_values(np.where(reached, a, np.nan)), "zmin": 0.5, "zmax": n + 0.5,
        "colorscale": scale, "xgap": 1, "ygap": 1, "hoverongaps": False,
        "hovertemplate": f"{safe_template(t('fig.llm.query', lang))} %{{y}} ← {safe_template(t('fig.llm.keys', lang))} "
                         f"%{{x}}: {layer_word} %{{z}}<extra></extra>",
        "colorbar": {"title": {"text": layer_word, "side": "top"}, "tickvals": list(range(1, n + 1)),
                     "thickness": round(style.font_size * 1.1)},
    }  # fmt: skip
    if cell_text is not None:
        trace.update({"text": cell_text, "texttemplate": "%{text}", "textfont": {"size": style.small_size}})
    fig = go.Figure(data=[trace])
    height = style.heatmap_height(length)
    title = t("fig.llm.reach_title", lang, n=n)
    step = max(1, math.ceil(length * style.label_px / (style.width_px * 0.75)))  # tick labels that fit the width
    fig.update_layout(**base_layout(style, safe_label(title), height),
                      xaxis=axis(safe_label(t("fig.llm.keys", lang)), style, dtick=step),
                      yaxis=axis(safe_label(t("fig.llm.query", lang)), style, autorange="reversed",
                                 dtick=step))  # fmt: skip
    fig.update_layout(plot_bgcolor=MASKED_COLOR)  # what shows through the cells not reached
    return fig


def cache_figure(cache: np.ndarray, labels: Sequence[str], new_row: int, *, title: str | None = None,
                 lang: str = "en", style: FigureStyle | None = None) -> go.Figure:  # fmt: skip
    """A K (or V) cache (g, L, d_k) as one heatmap: rows are tokens, the g heads' d_k columns side by side (a line
    between heads), the row appended by this step framed. Rows keep the heatmap's height per row, so a long cache
    stays as short as the screen allows."""
    from .heatmap import matrix_heatmap

    style = style or FigureStyle()
    c = np.asarray(cache, dtype=float)
    g, length, d_k = c.shape
    flat = c.transpose(1, 0, 2).reshape(length, g * d_k)  # (L, g d_k): head j's columns j d_k .. (j + 1) d_k - 1
    cols = [f"{j + 1}·{i}" for j in range(g) for i in range(d_k)]
    fig = matrix_heatmap(flat, labels, cols, kind="signed", title=title, row_title=t("fig.llm.keys", lang),
                         col_title=t("fig.llm.cache_cols", lang), show_values=False, numbered=True, lang=lang,
                         style=style)  # fmt: skip
    for j in range(1, g):
        fig.add_vline(x=j * d_k - 0.5, line={"color": style.text_color, "width": 2})
    fig.add_shape(type="rect", x0=-0.5, x1=g * d_k - 0.5, y0=new_row - 0.5, y1=new_row + 0.5,
                  line={"color": style.text_color, "width": 3}, fillcolor="rgba(0,0,0,0)")  # fmt: skip
    return fig
