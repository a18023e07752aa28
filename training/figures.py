"""Figures of a training run: plain arrays in, plotly figures out; no streamlit, no training math.

Heads are drawn with the explorer's `figures.tiled_heads` (all tiles in ONE heatmap with NaN gaps).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from figures import tiled_heads
from figures.style import SERIES_SYMBOLS, FigureStyle, axis, base_layout, json_values, safe_label, safe_template
from i18n import t

LAYER_DASH = ("dot", "solid")  # layer 1 dotted, layer 2 solid: the later layer is usually the one that reads


def head_names(n_layers: int, n_heads: int, lang: str = "en") -> list[str]:
    """"head 1", ... for one layer; "L1 · head 1", ... when there are two layers (layer-major order)."""
    if n_layers == 1:
        return [t("fig.head_n", lang, n=k + 1) for k in range(n_heads)]
    return [t("lab.fig.layer_head", lang, layer=i + 1, n=k + 1) for i in range(n_layers) for k in range(n_heads)]


def _marker(fig: go.Figure, step: int | None, total_steps: int, lang: str, style: FigureStyle) -> None:
    if step is None:
        return
    fig.add_vline(x=step, line={"color": style.reference_color, "width": 1.5, "dash": "dash"})
    fig.add_annotation(x=step, y=1.0, yref="paper", text=safe_label(t("lab.fig.snapshot_step", lang, step=step)),
                       showarrow=False, yanchor="bottom", xanchor="right" if step > total_steps / 2 else "left",
                       font={"size": style.small_size, "color": style.muted_color})  # fmt: skip


def training_curves(
    steps: Sequence[int],
    loss: Sequence[float],
    accuracy: Sequence[float],
    *,
    total_steps: int,
    marker_step: int | None = None,
    lang: str = "en",
    style: FigureStyle | None = None,
) -> go.Figure:
    """Training loss (left axis, log scale) and token accuracy on held-out examples (right axis, 0..1)."""
    style = style or FigureStyle()
    loss_name, acc_name = t("lab.fig.loss", lang), t("lab.fig.accuracy", lang)
    step_name = safe_template(t("lab.fig.step", lang))
    fig = go.Figure()
    fig.add_trace(go.Scatter(
        x=list(steps), y=json_values(np.maximum(np.asarray(loss, dtype=float), 1e-6)), name=safe_label(loss_name),
        mode="lines", line={"color": style.head_color(0), "width": style.line_width},
        hovertemplate=f"{step_name} %{{x}}<br>{safe_template(loss_name)}: %{{y:.4g}}<extra></extra>",
    ))  # fmt: skip
    fig.add_trace(go.Scatter(
        x=list(steps), y=json_values(accuracy), name=safe_label(acc_name), yaxis="y2", mode="lines",
        line={"color": style.head_color(1), "width": style.line_width, "dash": "dash"},
        hovertemplate=f"{step_name} %{{x}}<br>{safe_template(acc_name)}: %{{y:.1%}}<extra></extra>",
    ))  # fmt: skip
    fig.update_layout(
        **base_layout(style, safe_label(t("lab.fig.curves_title", lang)), max(style.min_height, 340)),
        xaxis=axis(safe_label(t("lab.fig.step", lang)), style, range=[0, max(total_steps, 1)], showgrid=True,
                   gridcolor=style.grid_color),
        yaxis=axis(safe_label(loss_name), style, type="log", showgrid=True, gridcolor=style.grid_color,
                   dtick=1, exponentformat="power", title_font={"color": style.head_color(0)}),
        yaxis2=axis(safe_label(acc_name), style, overlaying="y", side="right", range=[0, 1.02],
                    tickvals=[0, 0.25, 0.5, 0.75, 1], tickformat=".0%", title_font={"color": style.head_color(1)}),
        legend={"orientation": "h", "y": -0.25, "x": 0},
    )  # fmt: skip
    _marker(fig, marker_step, total_steps, lang, style)
    return fig


def pattern_curves(
    steps: Sequence[int],
    pattern: np.ndarray,
    *,
    total_steps: int,
    uniform: float | None = None,
    marker_step: int | None = None,
    lang: str = "en",
    style: FigureStyle | None = None,
) -> go.Figure:
    """pattern (n_evals, n_layers, h): the share of each head's attention on the keys the task needs,
    one line per head (colour = head, dash = layer); `uniform` draws the level of evenly spread attention."""
    style = style or FigureStyle()
    p = np.asarray(pattern, dtype=float)
    if p.ndim != 3 or p.shape[0] != len(steps):
        raise ValueError(f"pattern must be (len(steps), n_layers, h), got {p.shape}")
    _, n_layers, n_heads = p.shape
    names = head_names(n_layers, n_heads, lang)
    value = safe_template(t("lab.fig.pattern_value", lang))
    step_name = safe_template(t("lab.fig.step", lang))
    fig = go.Figure()
    for layer in range(n_layers):
        for k in range(n_heads):
            name = names[layer * n_heads + k]
            fig.add_trace(go.Scatter(
                x=list(steps), y=json_values(p[:, layer, k]), name=safe_label(name), mode="lines+markers",
                line={"color": style.head_color(k), "width": style.line_width,
                      "dash": LAYER_DASH[layer] if n_layers > 1 else "solid"},
                marker={"symbol": SERIES_SYMBOLS[k % len(SERIES_SYMBOLS)], "size": style.marker_size,
                        "maxdisplayed": 10},  # the head by its symbol too, not by colour alone
                hovertemplate=f"{safe_template(name)} · {step_name} %{{x}}<br>{value}: %{{y:.2f}}<extra></extra>",
            ))  # fmt: skip
    if uniform is not None:
        fig.add_hline(y=uniform, line={"color": style.reference_color, "width": 1.5, "dash": "dash"})
        fig.add_annotation(x=1.0, xref="paper", y=uniform, yanchor="bottom", xanchor="right", showarrow=False,
                           text=safe_label(t("lab.fig.uniform", lang)),
                           font={"size": style.small_size, "color": style.muted_color})
    fig.update_layout(
        **base_layout(style, safe_label(t("lab.fig.pattern_title", lang)), max(style.min_height, 340)),
        xaxis=axis(safe_label(t("lab.fig.step", lang)), style, range=[0, max(total_steps, 1)], showgrid=True,
                   gridcolor=style.grid_color),
        yaxis=axis(safe_label(t("lab.fig.pattern_value", lang)), style, range=[0, 1.02], showgrid=True,
                   gridcolor=style.grid_color),
        legend={"orientation": "h", "y": -0.25, "x": 0},
    )  # fmt: skip
    _marker(fig, marker_step, total_steps, lang, style)
    return fig


def heads_figure(
    weights: np.ndarray,
    tokens: Sequence[str],
    *,
    expected: np.ndarray | None = None,
    title: str | None = None,
    lang: str = "en",
    style: FigureStyle | None = None,
) -> go.Figure:
    """weights (n_layers, h, L, L) of one example (NaN = masked) as tiles, one row of tiles per layer.

    `expected` (L, L) adds a first tile "task needs" in front of the last layer's heads (the layer that
    does the lookup); rows of earlier layers start with a blank (all-zero, untitled) tile, so heads stay
    in columns.
    """
    w = np.asarray(weights, dtype=float)
    n_layers, n_heads = w.shape[:2]
    names = head_names(n_layers, n_heads, lang)
    tiles: list[np.ndarray] = []
    titles: list[str] = []
    for layer in range(n_layers):
        if expected is not None:
            last = layer == n_layers - 1
            tiles.append(np.asarray(expected, dtype=float) if last else np.zeros(w.shape[2:]))  # blank tile
            titles.append(t("lab.fig.needed", lang) if last else " ")
        tiles += list(w[layer])
        titles += names[layer * n_heads : (layer + 1) * n_heads]
    per_row = n_heads + (expected is not None)
    return tiled_heads(np.stack(tiles), list(tokens), list(tokens), tile_titles=titles, kind="weights",
                       shared_scale=True, max_cols=per_row, title=title, lang=lang, style=style)  # fmt: skip


def symmetry_figure(steps: Sequence[int], gap_tied: Sequence[float], gap_random: Sequence[float], *,
                    lang: str = "en", style: FigureStyle | None = None) -> go.Figure:  # fmt: skip
    """The largest difference between head 1 and the other heads during training, from tied and from random
    initial heads (training.symmetry.symmetry_breaking)."""
    style = style or FigureStyle()
    fig = go.Figure()
    for values, key, color, dash in ((gap_random, "lab.fig.sym_random", style.head_color(0), None),
                                     (gap_tied, "lab.fig.sym_tied", style.head_color(1), "dash")):  # fmt: skip
        name = t(key, lang)
        fig.add_trace(go.Scatter(
            x=list(steps), y=json_values(np.asarray(values, dtype=float)), name=safe_label(name), mode="lines+markers",
            line={"color": color, "width": style.line_width, **({"dash": dash} if dash else {})},
            marker={"size": style.marker_size, "symbol": "circle" if dash is None else "square"},
            hovertemplate=f"{safe_template(name)}: %{{y:.3g}}<extra>%{{x}}</extra>",
        ))  # fmt: skip
    fig.update_layout(
        **base_layout(style, safe_label(t("lab.fig.sym_title", lang)), int(style.font_size * 24)),
        legend={"orientation": "h", "y": -0.35},
        xaxis=axis(safe_label(t("lab.fig.step", lang)), style),
        yaxis=axis(safe_label(t("lab.fig.sym_gap", lang)), style, showgrid=True, gridcolor=style.grid_color,
                   rangemode="tozero"),
    )  # fmt: skip
    return fig
