"""Showing figures and tensors the same way on every page."""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio
import streamlit as st

from i18n import t


class FrozenFigure:
    """A built figure reduced to what is sent to the browser, computed once: its dict, its JSON and a short
    version of that JSON (ui/plot.js redraws a chart only when the version changes). Building the figure
    validated it already; nothing here validates again."""

    __slots__ = ("_dict", "_figure", "json", "version")

    def __init__(self, built: go.Figure) -> None:
        self._dict = built.to_dict()
        self.json = pio.to_json(self._dict, validate=False)
        self.version = hashlib.blake2b(self.json.encode(), digest_size=8).hexdigest()
        self._figure: go.Figure | None = None

    def to_dict(self) -> dict:
        return self._dict

    def figure(self) -> go.Figure:
        """A go.Figure for st.plotly_chart (the fallback), made on first use; its to_dict() is free."""
        if self._figure is None:
            fig = _DictFigure(self._dict)
            fig._frozen_dict = self._dict
            self._figure = fig
        return self._figure


class _DictFigure(go.Figure):
    """st.plotly_chart calls to_dict() on every rerun: return the stored dict instead of a new deep copy."""

    def to_dict(self) -> dict:
        return self._frozen_dict


_CACHE: OrderedDict[tuple, FrozenFigure] = OrderedDict()
_CACHE_SIZE = 128
_LOCK = threading.Lock()


def digest(*arrays: np.ndarray) -> str:
    """A short fingerprint of the numbers in `arrays` (values, shape, dtype), for figure cache keys: a
    figure keyed by the numbers it draws is reused, and not redrawn in the browser, when a setting that does
    not change those numbers changes (h does not change X, P or X + P)."""
    h = hashlib.blake2b(digest_size=12)
    for a in arrays:
        a = np.ascontiguousarray(a)
        h.update(f"{a.shape}{a.dtype}".encode())
        h.update(a.tobytes())
    return h.hexdigest()


def memo_figure(cache_key: tuple, build: Callable[[], go.Figure]) -> FrozenFigure:
    """The figure for `cache_key` (plain, hashable values: settings, language, style, view options),
    built once per server and shared by every session; figures are never changed after building."""
    with _LOCK:
        fig = _CACHE.get(cache_key)
        if fig is not None:
            _CACHE.move_to_end(cache_key)
            return fig
    fig = FrozenFigure(build())
    with _LOCK:
        _CACHE[cache_key] = fig
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return fig


_CONFIG = {
    "displaylogo": False,
    "toImageButtonOptions": {"format": "png", "scale": 2},
    # plotly.js 3's "Share chart..." uploads the figure to Plotly Cloud: an offline classroom tool never sends data
    "modeBarButtonsToRemove": ["select2d", "lasso2d", "sendChartToCloud", "sendDataToCloud"],
}


# ----- the chart element ---------------------------------------------------------------------------
# Streamlit 1.67 derives a plotly chart's element id from its figure, so every changed chart is unmounted
# and drawn from scratch (Plotly.newPlot), key or not. ui/plot.js is a small custom component (components
# v2, whose keyed elements keep their identity) that updates the chart in place with Plotly.react: about
# half the redraw time (README, performance). It loads plotly.js from the app's static folder (served with
# server.enableStaticServing), where the vendored bundle is committed (static/README.md).
# Where that is not possible the charts fall back to st.plotly_chart.
ROOT = Path(__file__).resolve().parent.parent
# plotly.js's official cartesian bundle (static/README.md): 1.5 MB instead of the full 4.8 MB, and the
# same plotly.js version as the plotly package that builds the figures.
PLOTLY_JS_VERSION = "4.1.1"
STATIC_NAME = f"plotly-cartesian-{PLOTLY_JS_VERSION}.min.js"  # the version in the name: no stale browser cache
PLOTLY_JS = ROOT / "static" / STATIC_NAME
# the trace types that bundle holds (tests/conftest.chart_spec checks every figure a test reads against them)
TRACE_TYPES = frozenset({
    "bar", "box", "contour", "heatmap", "histogram", "histogram2d", "histogram2dcontour", "image", "pie",
    "scatter", "scatterternary", "violin",
})  # fmt: skip
_COMPONENT_CONFIG = {**_CONFIG, "responsive": True}


def uses_component() -> bool:
    """True when charts are drawn by ui/plot.js (static serving on and plotly.js in place)."""
    return bool(st.get_option("server.enableStaticServing")) and PLOTLY_JS.is_file()


@st.cache_resource(show_spinner=False)
def _plot_component():
    js = (Path(__file__).with_name("plot.js")).read_text(encoding="utf-8")
    return st.components.v2.component("mha_plot", js=js, isolate_styles=False)


def show(
    fig: go.Figure | FrozenFigure, key: str, tensor: np.ndarray | None = None, rows: Sequence[str] | None = None,
    cols: Sequence[str] | None = None, label: str = "CSV",
) -> None:
    """One plotly figure, full width, PNG download in its toolbar; with `tensor`, a CSV download under it."""
    frozen = fig if isinstance(fig, FrozenFigure) else FrozenFigure(fig)
    from ui.screen import png_options

    png = png_options(key)  # the PNG export is named after the chart and its setting
    if uses_component():
        data = {"spec": frozen.json, "v": frozen.version, "config": {**_COMPONENT_CONFIG, **png},
                "src": f"app/static/{STATIC_NAME}",
                "failed": t("chart.failed", str(st.session_state.get("lang", "en")))}  # fmt: skip
        _plot_component()(data=data, key=key, width="stretch")
    else:
        st.plotly_chart(frozen.figure(), width="stretch", config={**_CONFIG, **png}, key=key)
    if tensor is not None:
        from ui.export import tensor_csv

        st.download_button(
            label, data=lambda: tensor_csv(tensor, rows, cols), file_name=f"{key}.csv", mime="text/csv",
            key=f"csv_{key}", icon=":material/download:", type="tertiary",
        )  # fmt: skip


SMALL_TABLE = 16  # rows and columns up to which a table is drawn static


def show_table(df: pd.DataFrame) -> None:
    """A table: static (st.table) while it is small, a scrolling grid (st.dataframe) when larger. The grid is
    the heaviest element a page can load: with it, the first chart of /inputs and /heads came at 1.24x and
    1.23x the minimal app's time; with static tables, 1.12x and 1.15x."""
    if df.shape[0] <= SMALL_TABLE and df.shape[1] <= SMALL_TABLE:
        st.table(df)
    else:
        st.dataframe(df, width="stretch")


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
