"""Showing figures and tensors the same way on every page."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence

import numpy as np
import plotly.graph_objects as go
import streamlit as st

_CACHE: OrderedDict[tuple, go.Figure] = OrderedDict()
_CACHE_SIZE = 128
_LOCK = threading.Lock()


class _FrozenFigure(go.Figure):
    """A built figure whose dict form is computed once: st.plotly_chart calls to_dict() on every rerun."""

    def to_dict(self) -> dict:
        return self._frozen_dict


def memo_figure(cache_key: tuple, build: Callable[[], go.Figure]) -> go.Figure:
    """The figure for `cache_key` (plain, hashable values: settings, language, style, view options),
    built once per server and shared by every session; figures are never changed after building."""
    with _LOCK:
        fig = _CACHE.get(cache_key)
        if fig is not None:
            _CACHE.move_to_end(cache_key)
            return fig
    built = build()
    fig = _FrozenFigure(built)
    fig._frozen_dict = built.to_dict()
    with _LOCK:
        _CACHE[cache_key] = fig
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return fig


_CONFIG = {
    "displaylogo": False,
    "toImageButtonOptions": {"format": "png", "scale": 2},
    "modeBarButtonsToRemove": ["select2d", "lasso2d"],
}


def show(
    fig: go.Figure, key: str, tensor: np.ndarray | None = None, rows: Sequence[str] | None = None,
    cols: Sequence[str] | None = None, label: str = "CSV",
) -> None:
    """One plotly figure, full width, PNG download in its toolbar; with `tensor`, a CSV download under it."""
    st.plotly_chart(fig, width="stretch", config=_CONFIG, key=key)
    if tensor is not None:
        from ui.export import tensor_csv

        st.download_button(
            label, data=lambda: tensor_csv(tensor, rows, cols), file_name=f"{key}.csv", mime="text/csv",
            key=f"csv_{key}", icon=":material/download:", type="tertiary",
        )  # fmt: skip


def latex_matrix(m: np.ndarray, digits: int = 2, max_cells: int = 160) -> str | None:
    """A numeric matrix as a LaTeX bmatrix, or None when it is too large to read."""
    m = np.atleast_2d(m)
    if m.size > max_cells:
        return None
    fmt = f"{{:.{digits}f}}"

    def cell(v: float) -> str:
        if not np.isfinite(v):
            return r"-\infty" if v < 0 else r"\infty"
        s = fmt.format(v)
        return "0" if s in ("-0." + "0" * digits, "0." + "0" * digits) else s

    rows = [" & ".join(cell(v) for v in row) for row in m]
    return r"\begin{bmatrix}" + r" \\ ".join(rows) + r"\end{bmatrix}"
