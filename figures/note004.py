"""Figures of the page "Why multi-head, tested" (note 004): the h vs d_k data, the heads as terms of a sum,
and what multi-head attention costs at each h. Plain numbers in, plotly figures out."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from i18n import t

from .style import (
    SERIES_PATTERNS,
    SERIES_SYMBOLS,
    FigureStyle,
    axis,
    base_layout,
    json_values,
    safe_label,
    safe_template,
)


def _line(x: Sequence[str], y, name: str, color: str, style: FigureStyle, dash: str | None = None,
          symbol: str = "circle") -> dict:  # fmt: skip
    """A line over category labels x (figures.why._line takes numbers); a dash and a marker symbol of its own."""
    return {
        "type": "scatter", "x": [safe_label(v) for v in x], "y": json_values(np.asarray(y, dtype=float)),
        "name": safe_label(name), "mode": "lines+markers",
        "line": {"color": color, "width": style.line_width, **({"dash": dash} if dash else {})},
        "marker": {"size": style.marker_size, "symbol": symbol},
        "hovertemplate": f"{safe_template(name)}: %{{y:.3g}}<extra>%{{x}}</extra>",
    }  # fmt: skip


def bottleneck_figure(
    heads: Sequence[int], d_ks: Sequence[int], max_rank: Sequence[float], distinct: Sequence[float],
    reachable: Sequence[float], n_keys: int, current: int, *, lang: str = "en", style: FigureStyle | None = None,
) -> go.Figure:
    """Over h (category axis "h (d_k)"): the largest score rank of a head, how many keys are the most attended
    one for some query of this sentence, and how many could be for some query; the number of keys for scale."""
    style = style or FigureStyle()
    x = [f"{h} ({dk})" + (" ◀" if h == current else "") for h, dk in zip(heads, d_ks, strict=True)]
    fig = go.Figure()
    for i, (values, key, dash) in enumerate(((max_rank, "fig.n4.rank", None), (reachable, "fig.n4.reachable", "dot"),
                                              (distinct, "fig.n4.distinct", "dash"))):  # fmt: skip
        fig.add_trace(_line(x, values, t(key, lang), style.head_color(i), style, dash=dash, symbol=SERIES_SYMBOLS[i]))
    fig.add_hline(y=float(n_keys), line={"color": style.reference_color, "dash": "dot", "width": 1},
                  annotation_text=safe_label(t("fig.n4.n_keys", lang, n=n_keys)), annotation_position="top left")
    fig.update_layout(
        **base_layout(style, safe_label(t("fig.n4.bottleneck_title", lang)), int(style.font_size * 30)),
        legend={"orientation": "h", "y": -0.3},
        xaxis=axis(safe_label(t("fig.n4.h_dk", lang)), style, type="category"),
        yaxis=axis(safe_label(t("fig.n4.count", lang)), style, showgrid=True, gridcolor=style.grid_color,
                   rangemode="tozero"),
    )  # fmt: skip
    return fig


def basis_figure(contributions: np.ndarray, output: np.ndarray, token: str, *, lang: str = "en",
                 style: FigureStyle | None = None, max_dims: int = 64) -> go.Figure:  # fmt: skip
    """One token's output row as a sum: a stacked bar per head (head_i W^O_i, one segment per dimension
    of d_model) and the output itself as a line; contributions (h, d_model), output (d_model,)."""
    style = style or FigureStyle()
    d = min(contributions.shape[1], max_dims)
    dims = list(range(d))
    fig = go.Figure()
    for i, row in enumerate(contributions):
        name = f"head_{i + 1} W^O_{i + 1}"
        fig.add_trace({
            "type": "bar", "x": dims, "y": json_values(row[:d]), "name": safe_label(name),
            "marker": {"color": style.head_color(i),  # and a pattern per head: stacked, they touch
                       "pattern": {"shape": SERIES_PATTERNS[i % len(SERIES_PATTERNS)], "fgcolor": style.background,
                                   "solidity": 0.3, "fillmode": "overlay"}},
            "hovertemplate": f"{safe_template(name)}: %{{y:.3g}}<extra>%{{x}}</extra>",
        })  # fmt: skip
    out_name = t("fig.n4.output", lang)
    fig.add_trace({
        "type": "scatter", "x": dims, "y": json_values(output[:d]), "name": safe_label(out_name),
        "mode": "markers",
        "marker": {"color": style.text_color, "symbol": "line-ew-open", "size": style.marker_size * 3,
                                      "line": {"width": 3}},
        "hovertemplate": f"{safe_template(out_name)}: %{{y:.3g}}<extra>%{{x}}</extra>",
    })  # fmt: skip
    fig.update_layout(
        **base_layout(style, safe_label(t("fig.n4.basis_title", lang, token=token)), int(style.font_size * 30)),
        barmode="relative", legend={"orientation": "h", "y": -0.3},
        xaxis=axis(safe_label(t("axis.dimension", lang)), style),
        yaxis=axis(safe_label(t("fig.value", lang)), style, showgrid=True, gridcolor=style.grid_color, zeroline=True),
    )  # fmt: skip
    return fig


def head_cost_figure(
    heads: Sequence[int], mults: Sequence[int], exps: Sequence[int], score_bytes: Sequence[int],
    seconds: np.ndarray | None, *, lang: str = "en", style: FigureStyle | None = None,
) -> go.Figure:
    """Left: counted, relative to h = 1 (log axis): matrix-product multiplications, exponentials, bytes of
    one L x L tensor per head. Right: measured milliseconds of one forward pass (when measured)."""
    style = style or FigureStyle()
    titles = [t("fig.n4.counted", lang), t("fig.n4.measured", lang)]
    fig = make_subplots(rows=1, cols=2, subplot_titles=[safe_label(x) for x in titles], horizontal_spacing=0.12)
    x = [str(h) for h in heads]
    for values, key, color, dash, symbol in ((mults, "fig.n4.mults", 0, None, "circle"),
                                             (exps, "fig.n4.exps", 3, "dot", "square"),
                                             (score_bytes, "fig.n4.bytes", 2, "dash", "diamond")):  # fmt: skip
        v = np.asarray(values, dtype=float)
        fig.add_trace(_line(x, v / v[0], t(key, lang), style.head_color(color), style, dash=dash, symbol=symbol),
                      row=1, col=1)  # fmt: skip
    if seconds is not None:
        fig.add_trace(_line(x, np.asarray(seconds) * 1000, t("fig.why.ms", lang), style.head_color(4), style),
                      row=1, col=2)  # fmt: skip
    else:
        fig.add_annotation(text=safe_label(t("fig.why.not_measured", lang)), showarrow=False, xref="paper",
                           yref="paper", x=0.8, y=0.5)  # fmt: skip
    fig.update_xaxes(title_text=safe_label("h"), type="category", showgrid=True, gridcolor=style.grid_color, ticks="",
                     automargin=True, title_standoff=style.font_size)
    fig.update_yaxes(showgrid=True, gridcolor=style.grid_color, automargin=True, ticks="")
    fig.update_yaxes(type="log", title_text=safe_label(t("fig.n4.relative", lang)), row=1, col=1)
    fig.update_yaxes(title_text="ms", rangemode="tozero", row=1, col=2)
    fig.update_annotations(font_size=style.font_size)
    fig.update_layout(**base_layout(style, None, int(style.font_size * 30)),
                      legend={"orientation": "h", "y": 1.2, "x": 0.0})  # fmt: skip
    return fig
