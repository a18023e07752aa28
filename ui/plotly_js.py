"""plotly.js: the bundle the app serves (static/, server.enableStaticServing) and the page's early ask for it.

The early ask (issue 38): the app's HTML page starts loading plotly.js in its <head>.

Measured in Chromium (bench/first_paint.py, /heads, a second visit, 1x): the first chart's element was in the browser
at 0.38 s, but plotly.js was asked for at 0.57 s, once React had drawn the elements before it and mounted the hidden
element that loads it (ui/chart_element.early_element); the minimal app's chart asks 6 ms after its element. So the
HTML page (Streamlit's index.html, the same for every page) gets one small script in its <head> that starts loading
plotly.js at once, in the `window.__mhaPlotlyLoad` promise that ui/plot.js waits on: the browser fetches and compiles
it while Streamlit's own JavaScript starts, and the first chart is drawn as soon as its element is mounted.

ui/page_head.py puts SCRIPT into the page (serve.py's middleware). Plain `streamlit run app.py` has no middleware:
its pages load plotly.js from the hidden element, as before.
"""

from __future__ import annotations

import functools
from pathlib import Path

import streamlit as st

ROOT = Path(__file__).resolve().parent.parent
# plotly.js's official cartesian bundle (static/README.md): 1.5 MB instead of the full 4.8 MB, and the
# same plotly.js version as the plotly package that builds the figures.
PLOTLY_JS_VERSION = "4.1.1"
STATIC_NAME = f"plotly-cartesian-{PLOTLY_JS_VERSION}.min.js"  # the version in the name: no stale browser cache
PLOTLY_JS = ROOT / "static" / STATIC_NAME

# Relative, like Streamlit's own assets in index.html: it resolves under server.baseUrlPath and on any page's path.
# A failed load clears the promise, so that ui/plot.js tries again and a chart says so if it fails too.
SCRIPT = (
    "<script>window.__mhaPlotlyLoad=new Promise(function(ok,no){var s=document.createElement('script');"
    f"s.src=new URL('./app/static/{STATIC_NAME}',document.baseURI).href;s.async=true;"
    "s.onload=function(){window.Plotly?ok(window.Plotly):no(new Error('no Plotly'))};"
    "s.onerror=function(){window.__mhaPlotlyLoad=null;s.remove();no(new Error('plotly.js did not load'))};"
    "document.head.appendChild(s)});window.__mhaPlotlyLoad.catch(function(){});</script>"
)
TAG = SCRIPT.encode()
# A page that draws no plotly chart (ui/nav.CHARTLESS) only prefetches it: the browser fetches it into its cache at
# idle priority, but does not compile and run it while that page's own first screen is being drawn; the chart page
# the visitor goes to next then loads it from the cache (ui/plot.js). Same address, same request mode as the script.
PREFETCH = f'<link rel="prefetch" href="./app/static/{STATIC_NAME}">'.encode()


def served(bundle: Path = PLOTLY_JS) -> bool:
    """True when plotly.js is served from static/ (static serving on and the bundle in place): the charts are then
    drawn by ui/plot.js (ui/chart_element.uses_component), and a page asks for it from its head."""
    return bool(st.get_option("server.enableStaticServing")) and _is_file(bundle)


@functools.lru_cache(maxsize=4)  # bounded: the bundle's path (and a test's stand-in)
def _is_file(path: Path) -> bool:
    return path.is_file()  # looked up once per process, not once per chart, run and page
