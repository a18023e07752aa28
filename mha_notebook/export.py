"""A chart as an SVG or PNG file, drawn by plotly.js itself in a headless Chromium of this machine.

Why not kaleido: kaleido 1.x drives a Chrome too, and fetches one from the internet when it finds none (and its own
packages are not here). A local Chromium or Chrome (Debian's `chromium`, a desktop's Chrome) draws the same image
offline: the page is a file with plotly.js beside it and nothing else to load. `Plotly.toImage` makes the SVG or the
PNG (the same function as the camera button of a chart's toolbar, which works in the notebook with no browser to
find); Chromium only runs it and prints the result (`--dump-dom`). Where no browser is found, `BrowserMissing` says
how to get one or to use the toolbar.
"""

from __future__ import annotations

import base64
import html
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from urllib.parse import unquote

import plotly.graph_objects as go

from .page import figure_json, plotly_js

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
ARGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-extensions", "--virtual-time-budget=30000", "--dump-dom")
DEFAULT_WIDTH = 1100  # px: what the figures' labels are planned for (figures.style.FigureStyle.width_px)
TIMEOUT_S = 120


class BrowserMissing(RuntimeError):
    """No Chromium or Chrome to draw the image with."""


def find_browser() -> str | None:
    """The browser to draw with: $MHA_CHROMIUM, else the first of BROWSERS on the PATH."""
    chosen = os.environ.get("MHA_CHROMIUM")
    if chosen:
        return chosen
    return next((path for name in BROWSERS if (path := shutil.which(name))), None)


PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8"><script src="plotly.js"></script></head><body>
<pre id="out">pending</pre><script type="application/json" id="fig">%(fig)s</script><script>
var fig = JSON.parse(document.getElementById("fig").textContent), out = document.getElementById("out");
Plotly.toImage({data: fig.data || [], layout: fig.layout || {}, config: {}},
               {format: %(format)s, width: %(width)d, height: %(height)d, scale: %(scale)s})
  .then(function (url) { out.textContent = "IMAGE " + url; }, function (e) { out.textContent = "FAILED " + e; });
</script></body></html>"""


def render(fig: go.Figure, fmt: str, *, width: int | None = None, scale: float = 1.0) -> bytes:
    """The figure as SVG text or PNG bytes (fmt "svg" or "png"), `width` px wide (the figure's own, else 1100) and as
    tall as the figure; raises BrowserMissing without a browser, RuntimeError when the drawing fails."""
    if fmt not in ("svg", "png"):
        raise ValueError(f"format must be 'svg' or 'png', got {fmt!r}")
    browser = find_browser()
    if browser is None:
        raise BrowserMissing(
            "no Chromium or Chrome found (set MHA_CHROMIUM to one): install one (Debian: apt-get install chromium), "
            "or use the PNG and SVG buttons in the chart's toolbar in the notebook"
        )
    layout = fig.layout
    width = int(width or layout.width or DEFAULT_WIDTH)
    height = int(layout.height or 500)
    with tempfile.TemporaryDirectory(prefix="mha-nb-export-") as tmp:
        folder = Path(tmp)
        (folder / "plotly.js").write_text(plotly_js(), encoding="utf-8")
        page = PAGE % {"fig": figure_json(fig), "format": f'"{fmt}"', "width": width, "height": height,
                       "scale": float(scale)}  # fmt: skip
        (folder / "page.html").write_text(page, encoding="utf-8")
        command = [browser, *ARGS, f"--user-data-dir={folder / 'profile'}", (folder / "page.html").as_uri()]
        done = subprocess.run(command, capture_output=True, timeout=TIMEOUT_S, check=False)
    dom = done.stdout.decode("utf-8", errors="replace")
    found = re.search(r"IMAGE (data:image/(?:svg\+xml|png)[^<]*)", dom)
    if not found:
        tail = (re.search(r"FAILED[^<]*", dom) or [dom[-300:] or done.stderr.decode(errors="replace")[-300:]])[0]
        raise RuntimeError(f"{browser} did not draw the image: {tail}")
    url = html.unescape(found.group(1))
    head, _, data = url.partition(",")
    return base64.b64decode(data) if head.endswith(";base64") else unquote(data).encode("utf-8")


def save_image(fig: go.Figure, path: Path, fmt: str, *, width: int | None = None, scale: float = 1.0) -> Path:
    """render() written to `path`; returns the path."""
    path.write_bytes(render(fig, fmt, width=width, scale=scale))
    return path
