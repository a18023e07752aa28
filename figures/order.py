"""The swap-and-compare figure: how much each token's output row changes when two tokens trade places, without
positions, with positional encoding, and with a causal mask (mha_core.order.swap_effects)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from i18n import t

from .style import FigureStyle, axis, base_layout, json_values, safe_label, safe_template, token_ticks

CASE_KEYS = ("fig.order.plain", "fig.order.pe", "fig.order.causal")  # the order of mha_core.order.CASES
PATTERNS = ("", "/", "x")  # a second cue besides colour


def swap_figure(change: np.ndarray, tokens: Sequence[str], a: int, b: int, *, lang: str = "en",
                style: FigureStyle | None = None) -> go.Figure:  # fmt: skip
    """Grouped bars: change (3, L) per token (positions labelled "i:token"), one colour and pattern per case."""
    style = style or FigureStyle()
    ticks = token_ticks(tokens)
    fig = go.Figure()
    for c, key in enumerate(CASE_KEYS):
        name = t(key, lang)
        fig.add_trace(go.Bar(
            x=ticks, y=json_values(np.asarray(change[c], dtype=float)), name=safe_label(name),
            marker={"color": style.head_color(c), "pattern": {"shape": PATTERNS[c], "fillmode": "overlay",
                                                      "fgcolor": style.background}},
            hovertemplate=f"{safe_template(name)}: %{{y:.3g}}<extra>%{{x}}</extra>",
        ))  # fmt: skip
    title = t("fig.order.title", lang, a=tokens[a], b=tokens[b])
    fig.update_layout(
        **base_layout(style, safe_label(title), int(style.font_size * 26)), barmode="group",
        legend={"orientation": "h", "y": -0.5, "yanchor": "top"},  # below the axis title, also on a phone
        xaxis=axis(safe_label(t("fig.order.token", lang)), style, type="category"),
        yaxis=axis(safe_label(t("fig.order.change", lang)), style, showgrid=True, gridcolor=style.grid_color,
                   rangemode="tozero"),
    )  # fmt: skip
    return fig
