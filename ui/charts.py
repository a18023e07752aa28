"""Showing figures and tensors the same way on every page."""

from __future__ import annotations

import hashlib
import shutil
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import plotly
import plotly.graph_objects as go
import plotly.io as pio
import streamlit as st

from i18n import t

_CACHE: OrderedDict[tuple, go.Figure] = OrderedDict()
_CACHE_SIZE = 128
_LOCK = threading.Lock()


class _FrozenFigure(go.Figure):
    """A built figure whose dict and JSON forms are computed once: st.plotly_chart calls to_dict() on every
    rerun, and the chart component sends the JSON with a short version string."""

    def to_dict(self) -> dict:
        return self._frozen_dict


def _freeze(built: go.Figure) -> _FrozenFigure:
    fig = _FrozenFigure(built)
    fig._frozen_dict = built.to_dict()
    fig._frozen_json = pio.to_json(built, validate=False)
    fig._version = hashlib.blake2b(fig._frozen_json.encode(), digest_size=8).hexdigest()
    return fig


def memo_figure(cache_key: tuple, build: Callable[[], go.Figure]) -> go.Figure:
    """The figure for `cache_key` (plain, hashable values: settings, language, style, view options),
    built once per server and shared by every session; figures are never changed after building."""
    with _LOCK:
        fig = _CACHE.get(cache_key)
        if fig is not None:
            _CACHE.move_to_end(cache_key)
            return fig
    fig = _freeze(build())
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
# half the redraw time (README, performance). It loads the plotly.js of the installed plotly package,
# which `install_plotly_js` copies into the app's static folder (served with server.enableStaticServing).
# Where that is not possible the charts fall back to st.plotly_chart.
ROOT = Path(__file__).resolve().parent.parent
PLOTLY_JS = Path(plotly.__file__).resolve().parent / "package_data" / "plotly.min.js"
_COMPONENT_CONFIG = {**_CONFIG, "responsive": True}
_asset = {"ready": False}


def install_plotly_js(app_dir: Path = ROOT) -> bool:
    """Put plotly.js into `app_dir`/static (once per process); True when the chart component can use it."""
    if _asset["ready"]:
        return True
    target = app_dir / "static" / PLOTLY_JS.name
    try:
        if not (target.is_file() and target.stat().st_size == PLOTLY_JS.stat().st_size):
            target.parent.mkdir(exist_ok=True)
            partial = target.with_suffix(".partial")
            shutil.copyfile(PLOTLY_JS, partial)
            partial.replace(target)  # atomic: a browser never reads half a file
        _asset["ready"] = True
    except OSError:  # a read-only install: st.plotly_chart still works
        _asset["ready"] = False
    return _asset["ready"]


def uses_component() -> bool:
    """True when charts are drawn by ui/plot.js (static serving on and plotly.js in place)."""
    return _asset["ready"] and bool(st.get_option("server.enableStaticServing"))


@st.cache_resource(show_spinner=False)
def _plot_component():
    js = (Path(__file__).with_name("plot.js")).read_text(encoding="utf-8")
    return st.components.v2.component("mha_plot", js=js, isolate_styles=False)


def show(
    fig: go.Figure, key: str, tensor: np.ndarray | None = None, rows: Sequence[str] | None = None,
    cols: Sequence[str] | None = None, label: str = "CSV",
) -> None:
    """One plotly figure, full width, PNG download in its toolbar; with `tensor`, a CSV download under it."""
    if uses_component():
        frozen = fig if isinstance(fig, _FrozenFigure) else _freeze(fig)
        data = {"spec": frozen._frozen_json, "v": frozen._version, "config": _COMPONENT_CONFIG,
                "failed": t("chart.failed", str(st.session_state.get("lang", "en")))}  # fmt: skip
        _plot_component()(data=data, key=key, width="stretch")
    else:
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
