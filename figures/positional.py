"""Sinusoidal positional encoding: curves, the P matrix, wavelengths, and P Pᵀ."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from i18n import t

from .heatmap import matrix_heatmap
from .style import SERIES_SYMBOLS, FigureStyle, axis, base_layout, json_values, safe_label, safe_template

MARKS_PER_LINE = 12  # a long curve shows its pair's marker symbol this many times (not at every point)


def pe_curves(
    p: np.ndarray, dims: Sequence[int], *, lang: str = "en", style: FigureStyle | None = None
) -> go.Figure:
    """P[:, dim] against position for each chosen dimension of p (L, d): even dims are sines, odd cosines."""
    style = style or FigureStyle()
    a = np.asarray(p, dtype=float)
    if a.ndim != 2:
        raise ValueError(f"p must be 2-D (L, d), got shape {a.shape}")
    n_pos, d = a.shape
    positions = list(range(n_pos))
    fig = go.Figure()
    pos_name = safe_template(t("fig.position", lang))
    pair_order = list(dict.fromkeys(dim // 2 for dim in dims))  # colour by chosen pair, in order
    for dim in dims:
        if not 0 <= dim < d:
            raise ValueError(f"dimension {dim} out of range 0..{d - 1}")
        is_sin = dim % 2 == 0
        name = safe_label(t("fig.dim_sin" if is_sin else "fig.dim_cos", lang, i=dim))
        fig.add_trace(go.Scatter(
            x=positions,
            y=json_values(a[:, dim]),
            name=name,
            # colour and marker symbol by chosen pair, solid sin and dashed cos: never colour alone
            mode="lines+markers",
            line={"color": style.head_color(pair_order.index(dim // 2)), "width": style.line_width,
                  "dash": "solid" if is_sin else "dash"},
            marker={"size": style.marker_size * 0.9, "maxdisplayed": MARKS_PER_LINE,
                    "symbol": SERIES_SYMBOLS[pair_order.index(dim // 2) % len(SERIES_SYMBOLS)]},
            hovertemplate=f"{name}<br>{pos_name}: %{{x}}<br>%{{y:.4f}}<extra></extra>",
        ))
    height = int(min(style.max_height, max(style.min_height, style.font_size * 30)))
    fig.update_layout(
        **base_layout(style, safe_label(t("fig.pe_curves.title", lang)), height),
        xaxis=axis(safe_label(t("fig.position", lang)), style, showgrid=True, gridcolor=style.grid_color),
        yaxis=axis(safe_label(t("fig.pe_value", lang)), style, range=[-1.1, 1.1], showgrid=True,
                   gridcolor=style.grid_color, zeroline=True, zerolinecolor=style.reference_color),
        legend={"font": {"size": style.font_size}},
        hovermode="closest",
    )
    return fig


def pe_heatmap(
    p: np.ndarray, *, lang: str = "en", style: FigureStyle | None = None, width_fraction: float = 1.0
) -> go.Figure:
    """P (L, d) as positions x dimensions, diverging colours on the fixed range -1..1; width_fraction: the share
    of the page width the figure gets (a column), so that the dimension labels are thinned out to fit."""
    return matrix_heatmap(
        p, None, None, title=t("fig.pe_heatmap.title", lang), kind="signed", zmin=-1.0, zmax=1.0,
        row_title=t("fig.position", lang), col_title=t("fig.dimension", lang),
        value_name=t("fig.pe_value", lang), lang=lang, style=style, width_fraction=width_fraction,
    )


def wavelength_chart(
    wavelengths: np.ndarray, *, lang: str = "en", style: FigureStyle | None = None
) -> go.Figure:
    """Wavelength of each sin/cos pair j (d/2,), log-scale y: from 2π up to 2π·base."""
    style = style or FigureStyle()
    lam = np.asarray(wavelengths, dtype=float)
    if lam.ndim != 1:
        raise ValueError(f"wavelengths must be 1-D (d/2,), got shape {lam.shape}")
    pairs = list(range(lam.shape[0]))
    dims_text = [safe_template(t("fig.dims_pair", lang, a=2 * j, b=2 * j + 1)) for j in pairs]
    fig = go.Figure(go.Scatter(
        x=pairs,
        y=json_values(lam),
        customdata=dims_text,
        mode="lines+markers",
        line={"color": style.head_color(0), "width": style.line_width},
        marker={"size": style.marker_size},
        hovertemplate=(f"j = %{{x}} (%{{customdata}})<br>{safe_template(t('fig.wavelength', lang))}: "
                       f"%{{y:.4g}}<extra></extra>"),
        showlegend=False,
    ))
    height = int(min(style.max_height, max(style.min_height, style.font_size * 28)))
    fig.update_layout(
        **base_layout(style, safe_label(t("fig.wavelength.title", lang)), height),
        xaxis=axis(safe_label(t("fig.pair_index", lang)), style, showgrid=True, gridcolor=style.grid_color),
        yaxis=axis(safe_label(t("fig.wavelength", lang)), style, type="log", showgrid=True, gridcolor=style.grid_color),
    )
    return fig


def pe_similarity(sim: np.ndarray, *, lang: str = "en", style: FigureStyle | None = None) -> go.Figure:
    """P Pᵀ (L, L): dot product of the encodings of every pair of positions (signed, centred on 0)."""
    return matrix_heatmap(
        sim, None, None, title=t("fig.pe_similarity.title", lang), kind="signed",
        row_title=t("fig.position", lang), col_title=t("fig.position", lang),
        value_name=t("fig.dot_product", lang), lang=lang, style=style,
    )
