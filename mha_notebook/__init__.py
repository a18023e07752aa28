"""Multi-head attention in a notebook (Jupyter, JupyterLab, VS Code, Colab): offline, without Streamlit.

    import mha_notebook as nb
    trace                                   # once mha_notebook is imported, a trace of the core shows itself
    nb.show(trace, tokens, lang="zh")       # the same with its tokens, in Chinese (dark=True for a dark notebook)
    nb.DEFAULTS.lang = "zh"                 # every view in Chinese unless its call says otherwise (.dark likewise)
    nb.explore(preset="worked")             # a setting of the app, as the app computes it; .link() opens it there
    nb.open_link("http://localhost:8501/steps?d_model=32&n_heads=4")   # a link of the app, as the same trace here
    nb.head_view(outputs.attentions, tokens)                           # any model's heads (BertViz's shape)
    view.save_html("heads.html"); view.save_svg("grid.svg", "grid"); view.save_png("grid.png", "grid")

Every view draws with plotly.js from this machine (mha_notebook/page.py), the app's colours, hover values and text
alternatives (figures/); its charts' numbers are CSV links under them.
"""

from __future__ import annotations

from mha_core import AttentionTrace

from .export import BrowserMissing, find_browser
from .head_view import HeadView, attention_stack, head_view, token_text, tokens_of
from .page import BUNDLE, DEFAULTS, Chart
from .trace_view import APP_URL, TraceArrays, TraceView, explore, open_link, show, view_of
from .view import NotebookError, View

__all__ = [
    "APP_URL",
    "BUNDLE",
    "DEFAULTS",
    "BrowserMissing",
    "Chart",
    "HeadView",
    "NotebookError",
    "TraceArrays",
    "TraceView",
    "View",
    "attention_stack",
    "explore",
    "find_browser",
    "head_view",
    "load_ipython_extension",
    "open_link",
    "show",
    "token_text",
    "tokens_of",
    "view_of",
]


def _trace_bundle(trace: AttentionTrace) -> dict[str, str]:
    return show(trace)._repr_mimebundle_()


def load_ipython_extension(ipython: object) -> None:
    """Every AttentionTrace a cell returns is shown as show(trace) shows it (`%load_ext mha_notebook` does this too;
    importing the package does it in a running IPython)."""
    formatter = ipython.display_formatter.mimebundle_formatter  # type: ignore[attr-defined]
    formatter.for_type(AttentionTrace, _trace_bundle)


def _register() -> None:
    try:
        from IPython import get_ipython
    except ImportError:  # no IPython: nothing shows objects inline
        return
    ipython = get_ipython()
    if ipython is not None:
        load_ipython_extension(ipython)


_register()
