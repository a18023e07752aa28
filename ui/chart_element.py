"""The chart element: one plotly figure drawn by ui/plot.js (st.plotly_chart as the fallback), same on every page."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from figures.describe import table_csv
from i18n import t
from ui.context import run_lang
from ui.figure_cache import FrozenFigure
from ui.plotly_js import PLOTLY_JS, STATIC_NAME, served

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
# the trace types that bundle holds (tests/conftest.chart_spec checks every figure a test reads against them)
TRACE_TYPES = frozenset({
    "bar", "box", "contour", "heatmap", "histogram", "histogram2d", "histogram2dcontour", "image", "pie",
    "scatter", "scatterternary", "violin",
})  # fmt: skip
_COMPONENT_CONFIG = {**_CONFIG, "responsive": True}


def uses_component() -> bool:
    """True when charts are drawn by ui/plot.js (static serving on and plotly.js in place)."""
    return served(PLOTLY_JS)


EARLY = "mha_plotly_js"  # the hidden element a chart page starts with (early_element): its component's name and key


@st.cache_resource(show_spinner=False)
def _plot_component(name: str = "mha_plot"):
    """ui/plot.js as a components-v2 element; under the name EARLY, the hidden element of early_element (the same
    code: given no figure, it draws nothing)."""
    js = (Path(__file__).with_name("plot.js")).read_text(encoding="utf-8")
    css = ".st-key-" + ", .st-key-".join(HIDDEN_KEYS) + " { display: none; }" if name == EARLY else None
    return st.components.v2.component(name, js=js, css=css, isolate_styles=False)


def _rerun() -> None:
    """The first-screen element's trigger: nothing to do, the trigger itself runs the page again."""


FIRST_SCREEN_KEY = "mha_first_screen"  # the hidden element of a first-screen run (tests wait until it is gone)
HIDDEN_KEYS = (EARLY, FIRST_SCREEN_KEY)


def early_element(load_plotly: bool = True, tell_when_drawn: bool = False) -> None:
    """The hidden element a page starts with (ui/plot.js without a figure). With `load_plotly` the browser starts
    loading plotly.js while the page is still arriving, so that the first chart is drawn as soon as it comes
    (docs/PERFORMANCE.md). With `tell_when_drawn` (a first-screen run, ui/first_screen.py) it also tells the server,
    once the page's first chart is on screen, to run the page in full: its trigger reruns the page. Drawn on every page,
    plotly.js or not: the page's own elements then keep their places from a first-screen run to the next."""
    src = f"app/static/{STATIC_NAME}" if load_plotly and uses_component() else ""
    head = {"src": src, "signal": tell_when_drawn}
    if tell_when_drawn:
        _plot_component(EARLY)(data=payload(head, ""), key=FIRST_SCREEN_KEY, width="stretch", on_drawn_change=_rerun)
    else:
        _plot_component(EARLY)(data=payload(head, ""), key=EARLY, width="stretch")


def in_a_row(ctx, n: int, share: float | None = None) -> tuple[list[Any], float]:
    """n places for n charts that belong together, and the share of the width each chart is built for: n columns on a
    wide screen (each `share` wide, 1/n by default); on a projector (presentation or large type) one under the other
    at full width, since a half or a third of a 1280-px screen has no room for a heatmap's labels in big type."""
    if ctx.large or ctx.present:
        return [st.container() for _ in range(n)], 1.0
    return list(st.columns(n)), share if share is not None else 1.0 / n


def side_by_side(ctx) -> tuple[Any, Any, float]:
    """Two places for two charts to compare (`in_a_row` of two)."""
    (left, right), share = in_a_row(ctx, 2)
    return left, right, share


def payload(head: dict, spec: str) -> bytes:
    """What ui/plot.js receives: one line of JSON (`head`), then the figure's JSON as it is. As bytes, Streamlit
    forwards it untouched; a dict would be JSON-encoded again (the figure escaped into a string) and searched for
    data frames on every run of every session, the larger part of a chart's cost to the server."""
    return json.dumps(head, ensure_ascii=False, separators=(",", ":")).encode() + b"\n" + spec.encode()


def unpack(raw: bytes) -> dict:
    """`payload` read back (tests, benchmarks): the head's entries and `spec`, the figure's JSON."""
    head, _, spec = bytes(raw).partition(b"\n")
    return {**json.loads(head), "spec": spec.decode()}


def show(
    fig: go.Figure | FrozenFigure, key: str, tensor: np.ndarray | None = None, rows: Sequence[str] | None = None,
    cols: Sequence[str] | None = None, title: str = "", numbers: bool = True,
) -> None:
    """One plotly figure, full width, PNG download in its toolbar. It is named for a screen reader by a summary of
    what it draws (figures.describe; `title` names a figure whose heading is on the page), and a download under it
    holds its numbers: `tensor` (with `rows`, `cols`) at full precision, else every value the figure draws.
    numbers=False only for a chart that is redrawn while it changes (the lab's live curves)."""
    frozen = fig if isinstance(fig, FrozenFigure) else FrozenFigure(fig)
    from ui.screen import png_options

    lang = run_lang()  # the projector's class language; a first screen's, which has no language widget
    name, summary = frozen.described(lang, title)
    png = png_options(key)  # the PNG export is named after the chart and its setting
    if uses_component():
        head = {"v": frozen.version, "config": {**_COMPONENT_CONFIG, **png}, "src": f"app/static/{STATIC_NAME}",
                "failed": t("chart.failed", lang), "label": summary}  # fmt: skip
        _plot_component()(data=payload(head, frozen.json), key=key, width="stretch")
    else:
        st.plotly_chart(frozen.figure(), width="stretch", config={**_CONFIG, **png}, key=key)
    if not numbers:
        return
    if tensor is not None:
        from ui.export import tensor_csv

        def table() -> str:
            return tensor_csv(tensor, rows, cols)
    else:

        def table() -> str:  # read when clicked: the session keeps the figure only until its next run
            return table_csv(frozen.json, lang)

    st.download_button(
        t("a11y.csv", lang, title=short_title(name)), data=table, file_name=f"{key}.csv", mime="text/csv",
        key=f"csv_{key}", icon=":material/download:", type="tertiary",
    )  # fmt: skip


def short_title(title: str, limit: int = 60) -> str:
    """A chart's title cut for a button's label."""
    return title if len(title) <= limit else title[: limit - 1].rstrip() + "…"
