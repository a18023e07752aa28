"""Figures of the "why it works" page: scaling, cost, parameters, W^Q's head blocks. Plain numbers in."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from i18n import t

from .heatmap import matrix_heatmap
from .style import (
    SERIES_PATTERNS,
    FigureStyle,
    axis,
    base_layout,
    json_values,
    plot_math,
    safe_label,
    safe_template,
)

SCALED, RAW = 0, 3  # their head colours (style.head_color); the unscaled lines are dashed as well


def _line(x, y, name: str, color: str, style: FigureStyle, dash: str | None = None, legend: bool = True,
          symbol: str = "circle") -> dict:  # fmt: skip
    return {
        "type": "scatter", "x": json_values(np.asarray(x, dtype=float)), "y": json_values(np.asarray(y, dtype=float)),
        "name": safe_label(name), "mode": "lines+markers", "legendgroup": name, "showlegend": legend,
        "line": {"color": color, "width": style.line_width, **({"dash": dash} if dash else {})},
        "marker": {"size": style.marker_size, "symbol": symbol},
        "hovertemplate": f"{safe_template(name)}: %{{y:.3g}}<extra>%{{x}}</extra>",
    }  # fmt: skip


def scaling_figure(
    d_ks: Sequence[int], n_keys: int, spread: np.ndarray, entropy: tuple[np.ndarray, np.ndarray],
    max_weight: tuple[np.ndarray, np.ndarray], grad: tuple[np.ndarray, np.ndarray], *, lang: str = "en",
    style: FigureStyle | None = None,
) -> go.Figure:
    """2 x 2 panels over d_k (log axis): spread of raw q.k with sqrt(d_k) for reference; then entropy, largest
    weight and softmax gradient norm, each (scaled, unscaled)."""
    style = style or FigureStyle()
    titles = [t(k, lang) for k in ("fig.why.spread", "fig.why.entropy", "fig.why.max_weight", "fig.why.grad")]
    fig = make_subplots(rows=2, cols=2, subplot_titles=[safe_label(x) for x in titles],
                        horizontal_spacing=0.12, vertical_spacing=0.2)  # fmt: skip
    scaled, raw = t("fig.why.scaled", lang), t("fig.why.raw", lang)
    scaled_color, raw_color = style.head_color(SCALED), style.head_color(RAW)
    fig.add_trace(_line(d_ks, spread, t("fig.why.spread_name", lang), raw_color, style, legend=False,
                        symbol="square"), row=1, col=1)  # fmt: skip
    fig.add_trace(_line(d_ks, np.sqrt(np.asarray(d_ks, dtype=float)), "√d_k", style.reference_color, style,
                        dash="dot", legend=False), row=1, col=1)  # fmt: skip
    for i, (pair, pos) in enumerate(((entropy, (1, 2)), (max_weight, (2, 1)), (grad, (2, 2)))):
        fig.add_trace(_line(d_ks, pair[0], scaled, scaled_color, style, legend=i == 0), row=pos[0], col=pos[1])
        fig.add_trace(_line(d_ks, pair[1], raw, raw_color, style, dash="dash", legend=i == 0, symbol="square"),
                      row=pos[0], col=pos[1])  # fmt: skip
    fig.add_hline(y=float(np.log(n_keys)), line={"color": style.reference_color, "dash": "dot", "width": 1}, row=1,
                  col=2,
                  annotation_text=safe_label(t("fig.why.uniform", lang)), annotation_position="bottom right")
    fig.update_xaxes(type="log", title_text=safe_label("d_k"), showgrid=True, gridcolor=style.grid_color,
                     tickvals=list(d_ks), automargin=True, ticks="")  # fmt: skip
    fig.update_yaxes(showgrid=True, gridcolor=style.grid_color, automargin=True, ticks="")
    fig.update_annotations(font_size=style.font_size)
    fig.update_layout(**base_layout(style, None, int(style.font_size * 46)),
                      legend={"orientation": "h", "y": 1.12, "x": 0.0})  # fmt: skip
    return fig


def cost_figure(
    lengths: Sequence[int], quadratic: np.ndarray, linear: np.ndarray, seconds: np.ndarray | None, *,
    lang: str = "en", style: FigureStyle | None = None,
) -> go.Figure:
    """Left: multiplications counted (the L^2 part, the part linear in L, total); right: measured seconds."""
    style = style or FigureStyle()
    titles = [t("fig.why.counted", lang), t("fig.why.measured", lang)]
    fig = make_subplots(rows=1, cols=2, subplot_titles=[safe_label(x) for x in titles], horizontal_spacing=0.12)
    x = list(lengths)
    fig.add_trace(_line(x, quadratic, t("fig.why.quadratic", lang), style.head_color(RAW), style, symbol="square"),
                  row=1, col=1)  # fmt: skip
    fig.add_trace(_line(x, linear, t("fig.why.linear", lang), style.head_color(SCALED), style, dash="dash"),
                  row=1, col=1)  # fmt: skip
    fig.add_trace(_line(x, np.asarray(quadratic) + np.asarray(linear), t("fig.why.total", lang), style.text_color,
                        style, dash="dot", symbol="diamond"), row=1, col=1)  # fmt: skip
    if seconds is not None:
        fig.add_trace(_line(x, np.asarray(seconds) * 1000, t("fig.why.ms", lang), style.head_color(2), style),
                      row=1, col=2)  # fmt: skip
    else:
        fig.add_annotation(text=safe_label(t("fig.why.not_measured", lang)), showarrow=False, xref="paper",
                           yref="paper", x=0.8, y=0.5)  # fmt: skip
    # automargin and a standoff: the (Chinese) axis title sat on top of the tick labels
    fig.update_xaxes(title_text=safe_label(t("fig.why.length", lang)), showgrid=True, gridcolor=style.grid_color,
                     ticks="",
                     automargin=True, title_standoff=round(style.font_size * 0.8))  # fmt: skip
    fig.update_yaxes(showgrid=True, gridcolor=style.grid_color, automargin=True, ticks="")
    fig.update_yaxes(title_text=safe_label(t("fig.why.mults", lang)), row=1, col=1)
    fig.update_yaxes(title_text="ms", row=1, col=2)
    fig.update_annotations(font_size=style.font_size)
    fig.update_layout(**base_layout(style, None, int(style.font_size * 30)),
                      legend={"orientation": "h", "y": 1.2, "x": 0.0})  # fmt: skip
    return fig


def parameter_figure(
    heads: Sequence[int], by_matrix: dict[str, Sequence[int]], d_ks: Sequence[int], current: int, *,
    lang: str = "en", style: FigureStyle | None = None,
) -> go.Figure:
    """Stacked bars: parameters of W^Q, W^K, W^V, W^O (and biases) for each h; d_k written on each bar."""
    style = style or FigureStyle()
    x = [str(h) for h in heads]
    data = []
    for i, (name, values) in enumerate(by_matrix.items()):
        data.append({
            "type": "bar", "x": x, "y": [int(v) for v in values], "name": plot_math(safe_label(name)),  # W^Q: W<sup>Q
            "marker": {"color": style.head_color(i),  # and a pattern: the stacks are not told apart by colour alone
                       "pattern": {"shape": SERIES_PATTERNS[i % len(SERIES_PATTERNS)], "fgcolor": style.background,
                                   "solidity": 0.3, "fillmode": "overlay"}},
            "hovertemplate": f"{safe_template(name)}: %{{y:,}}<extra>h = %{{x}}</extra>",
        })
    fig = go.Figure(data=data)
    totals = np.sum([np.asarray(v) for v in by_matrix.values()], axis=0)
    for i, (h, dk, total) in enumerate(zip(x, d_ks, totals, strict=True)):  # category axis: x is the index
        label = f"d_k = {dk}" + (" ◀" if int(h) == current else "")
        fig.add_annotation(x=i, y=float(total), text=safe_label(label), showarrow=False, yanchor="bottom",
                           textangle=-90 if len(x) > 6 else 0, font={"size": style.small_size})  # fmt: skip
    fig.update_layout(
        **base_layout(style, safe_label(t("fig.why.params_title", lang)), int(style.font_size * 28)),
        barmode="stack", legend={"orientation": "h", "y": -0.3}, yaxis_range=[0, float(max(totals)) * 1.3],
        xaxis=axis(safe_label(t("fig.why.h", lang)), style, type="category"),
        yaxis=axis(safe_label(t("fig.why.params", lang)), style, showgrid=True, gridcolor=style.grid_color),
    )
    return fig


def fused_weight_figure(w: np.ndarray, n_heads: int, *, lang: str = "en", style: FigureStyle | None = None,
                        width_fraction: float = 1.0) -> go.Figure:  # fmt: skip
    """The fused W^Q (d_model x d_model) with a line after every d_k columns: column block i is W_i^Q."""
    style = style or FigureStyle()
    d = w.shape[1]
    d_k = d // n_heads
    fig = matrix_heatmap(w, None, None, title=t("fig.why.fused_title", lang, h=n_heads, dk=d_k), kind="signed",
                         row_title=t("fig.why.input_dim", lang), col_title=t("fig.why.output_dim", lang),
                         lang=lang, style=style, numbered=False, width_fraction=width_fraction)  # fmt: skip
    for i in range(1, n_heads):
        fig.add_vline(x=i * d_k - 0.5, line={"color": style.text_color, "width": 2})
    centers = [i * d_k + (d_k - 1) / 2 for i in range(n_heads)]
    step = max(1, -(-n_heads * 60 // int(style.width_px * 0.85 * width_fraction)))  # ~60 px per label
    fig.update_xaxes(tickvals=centers[::step], ticktext=[safe_label(t("fig.head_n", lang, n=i + 1))
                                                         for i in range(0, n_heads, step)])  # fmt: skip
    return fig
