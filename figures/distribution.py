"""How attention of queries is distributed over keys: bars per head, and BertViz-style lines."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from i18n import t

from .heatmap import axis_labels, matrix_heatmap
from .style import (
    FigureStyle,
    axis,
    base_layout,
    format_values,
    head_dash,
    json_values,
    label_step,
    safe_label,
    safe_template,
)

MAX_BAR_PANELS = 16
BAR_VALUES_MAX_KEYS = 12  # write the weight above each bar up to this many keys

# attention_lines: weights are binned into levels of line strength (one trace per head and level).
LINE_LEVELS: tuple[tuple[float, float, float], ...] = (
    # (lower bound of the weight, opacity, width factor)
    (0.0, 0.25, 1.0),
    (0.2, 0.55, 2.0),
    (0.5, 0.9, 3.2),
)


def query_bars(
    weights: np.ndarray,
    key_labels: Sequence[object] | None,
    query_label: object,
    *,
    head_titles: Sequence[str] | None = None,
    lang: str = "en",
    style: FigureStyle | None = None,
) -> go.Figure:
    """Attention weights of ONE query in every head: weights (h, Lk), one bar panel per head, all on
    the same 0..1 scale. More than 16 heads: a heads x keys heatmap instead."""
    style = style or FigureStyle()
    w = np.asarray(weights, dtype=float)
    if w.ndim != 2:
        raise ValueError(f"weights must be 2-D (h, Lk), got shape {w.shape}")
    n_heads, n_keys = w.shape
    names = list(head_titles) if head_titles is not None else [t("fig.head_n", lang, n=k + 1) for k in range(n_heads)]
    if len(names) != n_heads:
        raise ValueError(f"expected {n_heads} head titles, got {len(names)}")
    title = t("fig.query_bars.title", lang, query=f"“{query_label}”")
    if n_heads > MAX_BAR_PANELS:
        return matrix_heatmap(w, names, key_labels, title=title, kind="weights", numbered=False,
                              row_title=t("fig.head", lang), col_title=t("fig.key_token", lang),
                              value_name=t("fig.weight", lang), lang=lang, style=style)
    key_ticks, key_hover = axis_labels(key_labels, n_keys, numbered=True)

    n_cols = 1 if n_heads <= 4 else 2
    n_rows = math.ceil(n_heads / n_cols)
    fig = make_subplots(
        rows=n_rows, cols=n_cols, subplot_titles=[safe_label(s) for s in names],
        vertical_spacing=min(0.12, 0.35 / n_rows), horizontal_spacing=0.06,
    )
    panel_px = max(100, style.font_size * 6)
    hover = ("<b>%{customdata[0]}</b><br>"  # the head's name, e.g. "head 2"
             f"{safe_template(t('fig.key', lang))}: %{{customdata[1]}}<br>"
             f"{safe_template(t('fig.weight', lang))}: %{{customdata[2]}}<extra></extra>")
    step = label_step(n_keys, style.width_px / n_cols * 0.9, style)
    tickvals = list(range(0, n_keys, step))
    raw = format_values(w, lang)
    for k in range(n_heads):
        row, col = divmod(k, n_cols)
        bar = go.Bar(
            x=list(range(n_keys)),
            y=json_values(w[k]),
            marker_color=style.head_color(k),
            customdata=[[safe_template(names[k]), key_hover[j], raw[k, j]] for j in range(n_keys)],
            hovertemplate=hover,
            showlegend=False,
            cliponaxis=False,
        )
        if n_keys <= BAR_VALUES_MAX_KEYS:
            bar.text = [f"{v:.2f}" if np.isfinite(v) else "" for v in w[k]]
            bar.textposition = "outside"
            bar.textfont = {"size": style.small_size}
        fig.add_trace(bar, row=row + 1, col=col + 1)
        last_in_column = k + n_cols >= n_heads
        fig.update_xaxes(
            axis(safe_label(t("fig.key_token", lang)) if last_in_column else None, style,
                 tickvals=tickvals, ticktext=[key_ticks[j] for j in tickvals], showticklabels=last_in_column,
                 range=[-0.6, n_keys - 0.4]),
            row=row + 1, col=col + 1,
        )
        fig.update_yaxes(
            axis(None, style, range=[0, 1], tickvals=[0, 0.5, 1], showgrid=True, gridcolor=style.grid_color,
                 tickfont={"size": style.small_size}),
            row=row + 1, col=col + 1,
        )
    height = round(n_rows * panel_px * 1.25 + style.font_size * 8 + sum(style.margins().values()))
    layout = base_layout(style, safe_label(title), height)
    # The panel titles sit above the plot area where an automargin title would go: place the title
    # at the top of the figure instead, with room for both.
    layout["margin"]["t"] = round(style.title_size * 2.2 + style.font_size * 1.5)
    layout["title"].update(automargin=False, yref="container", y=1.0, yanchor="top",
                           pad={"t": style.font_size})
    fig.update_layout(**layout, bargap=0.15)
    fig.update_annotations(font={"size": style.font_size})  # the panel titles
    return fig


def attention_lines(
    weights: np.ndarray,
    query_labels: Sequence[object] | None,
    key_labels: Sequence[object] | None,
    *,
    heads: Sequence[int],
    query: int | None = None,
    min_weight: float = 0.02,
    lang: str = "en",
    style: FigureStyle | None = None,
    numbered: bool = True,
) -> go.Figure:
    """BertViz-style view of weights (h, Lq, Lk): queries in a left column, keys in a right one, a line
    from query i to key j per head, stronger (more opaque, wider) for a bigger weight. One colour per
    head (legend; click to hide). query: only that query's lines. Weights below min_weight not drawn.
    numbered: labels as "i:label"; False: the labels as given (already numbered, e.g. from a later position)."""
    style = style or FigureStyle()
    w = np.asarray(weights, dtype=float)
    if w.ndim != 3:
        raise ValueError(f"weights must be 3-D (h, Lq, Lk), got shape {w.shape}")
    n_heads, n_q, n_k = w.shape
    for k in heads:
        if not 0 <= k < n_heads:
            raise ValueError(f"head {k} out of range 0..{n_heads - 1}")
    if query is not None and not 0 <= query < n_q:
        raise ValueError(f"query {query} out of range 0..{n_q - 1}")
    q_ticks, q_hover = axis_labels(query_labels, n_q, numbered=numbered)
    k_ticks, k_hover = axis_labels(key_labels, n_k, numbered=numbered)
    # Centre the shorter column so both columns span the same height.
    n_max = max(n_q, n_k)
    q_y = np.arange(n_q) + (n_max - n_q) / 2
    k_y = np.arange(n_k) + (n_max - n_k) / 2
    queries = [query] if query is not None else list(range(n_q))

    hover = ("<b>%{customdata[0]}</b><br>"  # the head's name, e.g. "head 2"
             f"{safe_template(t('fig.query', lang))}: %{{customdata[1]}}<br>"
             f"{safe_template(t('fig.key', lang))}: %{{customdata[2]}}<br>"
             f"{safe_template(t('fig.weight', lang))}: %{{customdata[3]}}<extra></extra>")
    hover_x = 0.75  # hover points sit on each line near the key end (midpoints would coincide)
    # Lines of different heads between the same two tokens would lie on top of each other: shift
    # each head a little (within +-0.2 of a row) so that every head stays visible.
    spread = 0.4 / max(len(heads) - 1, 1)
    fig = go.Figure()
    for rank, k in enumerate(heads):
        dy = (rank - (len(heads) - 1) / 2) * spread if len(heads) > 1 else 0.0
        name = t("fig.head_n", lang, n=k + 1)
        color = style.head_color(k)
        bounds = [lvl[0] for lvl in LINE_LEVELS[1:]] + [math.inf]
        hx: list[float] = []
        hy: list[float] = []
        hc: list[list[str]] = []
        for level, (lower, opacity, width) in enumerate(LINE_LEVELS):
            upper = bounds[level]
            xs: list[float | None] = []
            ys: list[float | None] = []
            for i in queries:
                for j in range(n_k):
                    v = w[k, i, j]
                    if not (np.isfinite(v) and v >= min_weight and lower <= v < upper):
                        continue
                    xs += [0.0, 1.0, None]
                    ys += [float(q_y[i]) + dy, float(k_y[j]) + dy, None]
                    hx.append(hover_x)
                    hy.append(float(q_y[i] + hover_x * (k_y[j] - q_y[i])) + dy)
                    hc.append([safe_template(name), q_hover[i], k_hover[j], f"{v:.4g}"])
            strongest = level == len(LINE_LEVELS) - 1
            if not xs and not strongest:
                continue
            fig.add_trace(go.Scatter(
                x=xs or [None], y=json_values(ys) if ys else [None], mode="lines",
                line={"color": color, "width": style.line_width * width * 0.6, "dash": head_dash(k)},
                opacity=opacity, hoverinfo="skip", name=safe_label(name), legendgroup=f"head{k}",
                showlegend=strongest,  # one legend entry per head, drawn like its strongest lines
            ))
        fig.add_trace(go.Scatter(
            x=hx, y=json_values(hy), mode="markers", customdata=hc, hovertemplate=hover,
            marker={"size": style.marker_size + 6, "color": "rgba(0,0,0,0)"},
            legendgroup=f"head{k}", showlegend=False, name=safe_label(name),
        ))
    # The two columns of tokens: dots, and tick labels on the left (queries) and right (keys) axes.
    fig.add_trace(go.Scatter(x=[0.0] * n_q, y=json_values(q_y), mode="markers", hoverinfo="skip",
                             marker={"size": style.marker_size, "color": style.muted_color}, showlegend=False))
    fig.add_trace(go.Scatter(x=[1.0] * n_k, y=json_values(k_y), mode="markers", hoverinfo="skip",
                             marker={"size": style.marker_size, "color": style.muted_color}, showlegend=False,
                             yaxis="y2"))

    row_px = style.font_size * 1.7
    chrome = sum(style.margins().values()) + style.font_size * 8
    height = int(min(style.max_height, max(style.min_height, n_max * row_px + chrome)))
    step = label_step(n_max, height - chrome, style)
    q_text = [f"<b>{q_ticks[i]}</b>" if i == query else q_ticks[i] for i in range(n_q)]
    q_vals = [i for i in range(n_q) if i % step == 0 or i == query]
    k_vals = list(range(0, n_k, step))
    y_range = [n_max - 0.5, -0.5]

    if query is None:
        title = t("fig.attention_lines.title", lang)
    else:
        raw_label = query_labels[query] if query_labels is not None else ""
        shown = f"{query}:{raw_label}" if numbered else str(raw_label)
        title = t("fig.attention_lines.title_one", lang, query=f"“{shown}”")
    note = safe_label(t("fig.attention_lines.note", lang, min=min_weight))
    fig.update_layout(
        **base_layout(style, safe_label(title), height, note),
        xaxis=axis(None, style, range=[-0.03, 1.03], showticklabels=False, fixedrange=True),
        yaxis=axis(None, style, range=y_range, tickvals=json_values(q_y[q_vals]),
                   ticktext=[q_text[i] for i in q_vals]),
        yaxis2=axis(None, style, range=y_range, overlaying="y", side="right",
                    tickvals=json_values(k_y[k_vals]), ticktext=[k_ticks[j] for j in k_vals]),
        legend={"orientation": "h", "yanchor": "top", "y": -0.02, "xanchor": "center", "x": 0.5,
                "font": {"size": style.font_size}},
        annotations=[
            {"x": 0.0, "y": 1.0, "xref": "x", "yref": "paper", "yanchor": "bottom", "showarrow": False,
             "text": f"<b>{safe_label(t('fig.queries', lang))}</b>", "font": {"size": style.font_size}},
            {"x": 1.0, "y": 1.0, "xref": "x", "yref": "paper", "yanchor": "bottom", "showarrow": False,
             "text": f"<b>{safe_label(t('fig.keys', lang))}</b>", "font": {"size": style.font_size}},
        ],
        hovermode="closest",
    )
    return fig
