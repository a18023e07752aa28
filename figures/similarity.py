"""Head-similarity maps (rho_ij of note 004, the cosine of head contributions), drawn the same way on every page."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from i18n import t

from .heatmap import matrix_heatmap
from .style import FigureStyle

RHO_LATEX = (
    r"\rho_{ij} = \frac{\mathrm{head}_i \cdot \mathrm{head}_j}"
    r"{\lVert \mathrm{head}_i \rVert \, \lVert \mathrm{head}_j \rVert}"
)


def head_similarity_figure(
    similarity: np.ndarray, title: str = "ρ_ij", *, value_name: str = "ρ", lang: str = "en",
    style: FigureStyle | None = None, width_fraction: float = 1.0,
) -> go.Figure:
    """A head-by-head similarity (h, h) on the cosine scale -1..1, heads labelled "head 1", ... on both axes:
    note 004's rho_ij (value_name "ρ") or the cosine of the heads' contributions head_i W^O_i ("cos")."""
    n_heads = np.asarray(similarity).shape[0]
    names = [t("fig.head_n", lang, n=k + 1) for k in range(n_heads)]
    return matrix_heatmap(similarity, names, names, title=title, kind="cosine", numbered=False,
                          row_title=t("fig.head", lang), col_title=t("fig.head", lang), value_name=value_name,
                          lang=lang, style=style, width_fraction=width_fraction)  # fmt: skip
