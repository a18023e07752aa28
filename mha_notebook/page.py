"""A view's charts as HTML that draws offline: in a notebook's output, or as a file of its own.

Every chart is a plotly figure of `figures/` (the app's colours and hover texts) drawn by plotly.js from this machine,
never from a CDN: the app's cartesian bundle when it sits beside the packages (static/, as in the app), else the full
bundle of the plotly package. A notebook gets the bundle once per kernel (in the first view shown; the later ones wait
for it), an exported file always, and Colab, whose outputs are separate frames, in every view.

A chart is named for a screen reader as the app names it (figures/describe.py: its text alternative, on the drawing's
image), its numbers are a CSV link under it, and its toolbar downloads a PNG or an SVG, drawn by plotly.js in the
browser: no install, no network.
"""

from __future__ import annotations

import base64
import html
import json
import re
import sys
import uuid
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import plotly.graph_objects as go
import plotly.io as pio

from figures.describe import describe, table_csv
from figures.style import FigureStyle, plot_math, safe_label
from i18n import t

HERE = Path(__file__).resolve().parent
# where the app's static/ folder is: beside the packages in a checkout, inside mha_explorer_app/ when installed
STATIC_DIRS = (HERE.parent / "static", HERE.parent / "mha_explorer_app" / "static")
MAX_CSV_BYTES = 2 << 20  # a chart's numbers as a link up to this size (in the output twice: base64)
NARROW_PX, NARROW_WIDTH_PX = 640, 900  # a chart narrower than this is drawn this wide, in a sideways scroll
WAIT_MS = 20_000  # how long a view waits for plotly.js before it says that it is missing
CONFIG = {
    "displaylogo": False,
    "responsive": True,
    "toImageButtonOptions": {"format": "png", "scale": 2},
    # plotly.js's "Share chart..." uploads the figure to Plotly Cloud: nothing here is ever sent anywhere
    "modeBarButtonsToRemove": ["select2d", "lasso2d", "sendChartToCloud", "sendDataToCloud"],
}


@dataclass(frozen=True)
class Chart:
    """One chart of a view: `key` names its files ("weights" -> weights.csv, weights.svg), `heading` and `text` (plain
    text) stand above it."""

    key: str
    figure: go.Figure
    heading: str
    text: str = ""


@dataclass
class Bundle:
    """Whether this kernel has sent plotly.js to the notebook yet (`every_view`: with every view, as in Colab)."""

    sent: bool = False
    every_view: bool = field(default_factory=lambda: "google.colab" in sys.modules)

    def take(self) -> bool:
        """True when the next view must carry plotly.js."""
        carry = self.every_view or not self.sent
        self.sent = True
        return carry


BUNDLE = Bundle()


@dataclass
class Defaults:
    """The language ("en" or "zh") and screen of a view whose call does not say (and of a trace that shows itself):
    `mha_notebook.DEFAULTS.lang = "zh"` for a Chinese notebook, `.dark = True` for a dark one."""

    lang: str = "en"
    dark: bool = False

    def pick(self, lang: str | None, dark: bool | None) -> tuple[str, bool]:
        return (lang if lang is not None else self.lang), (dark if dark is not None else self.dark)


DEFAULTS = Defaults()


@lru_cache(maxsize=1)
def plotly_js() -> str:
    """plotly.js: the app's cartesian bundle when it is there and of the plotly package's own version, else the
    package's full bundle (4.8 MB instead of 1.5 MB; the same drawing)."""
    from plotly.offline import get_plotlyjs, get_plotlyjs_version

    version = get_plotlyjs_version()
    for folder in STATIC_DIRS:
        bundle = folder / f"plotly-cartesian-{version}.min.js"
        if bundle.is_file():
            return bundle.read_text(encoding="utf-8")
    return get_plotlyjs()


def figure_json(fig: go.Figure) -> str:
    """The figure as JSON that is safe inside a <script> element: "<" written as \\u003c (still the same JSON). Without
    plotly's default template, which the builders mean to replace (figures.style.base_layout) but a figure made
    before its layout merges into: the look is the builders' own, whatever pio.templates.default a notebook set."""
    spec = fig.to_dict()
    spec.setdefault("layout", {})["template"] = {"layout": {}}
    return pio.to_json(spec, validate=False).replace("<", "\\u003c")


def _csv_link(fig_json: str, key: str, name: str, lang: str) -> str:
    csv = table_csv(fig_json, lang)
    if len(csv.encode()) > MAX_CSV_BYTES:
        return f'<p class="mha-nb-note">{html.escape(t("nb.csv_too_big", lang, title=name))}</p>'
    data = base64.b64encode(csv.encode("utf-8")).decode("ascii")
    return (f'<p class="mha-nb-csv"><a download="{html.escape(key)}.csv" '
            f'href="data:text/csv;charset=utf-8;base64,{data}">{html.escape(t("a11y.csv", lang, title=name))}</a></p>')


CSS = """
.mha-nb { font-family: system-ui, -apple-system, "Segoe UI", "PingFang SC", "Microsoft YaHei", "Noto Sans CJK SC",
  sans-serif; line-height: 1.45; max-width: 1200px; }
.mha-nb h3 { font-size: 1.25em; margin: 0.6em 0 0.3em; }
.mha-nb h4 { font-size: 1.05em; margin: 1.1em 0 0.2em; }
.mha-nb p { margin: 0.25em 0; overflow-wrap: anywhere; }
.mha-nb .mha-nb-plot { width: 100%; min-height: 60px; overflow-x: auto; }
.mha-nb .mha-nb-wait, .mha-nb .mha-nb-note { font-style: italic; }
.mha-nb a:focus-visible, .mha-nb .modebar-btn:focus-visible, .mha-nb .mha-nb-plot:focus-visible {
  outline: 3px solid #1f5fbf; outline-offset: 2px; }
.mha-nb.mha-nb-dark { background: #0e1117; color: #f5f5f5; padding: 0.5em 0.8em; }
.mha-nb.mha-nb-dark a { color: #8ab4ff; }
.mha-nb:not(.mha-nb-dark) a { color: #1f5fbf; }
"""

# Draws the view's charts once plotly.js is there (this output's own copy, or the one an earlier view brought), then
# names each drawing for a screen reader as ui/plot.js does (the first svg is the image, the others hidden), and adds
# an SVG download beside plotly's PNG one. Every drawn chart gets data-drawn (tests wait for it).
SCRIPT = """
(function () {
  var root = document.getElementById(%(root)s);
  if (!root) return;
  var texts = %(texts)s, config = %(config)s, started = Date.now();
  function name(el, label) {
    el.querySelectorAll(".main-svg").forEach(function (svg, i) {
      if (i === 0) { svg.setAttribute("role", "img"); svg.setAttribute("aria-label", label); }
      else svg.setAttribute("aria-hidden", "true");
    });
  }
  function draw(Plotly) {
    root.querySelectorAll(".mha-nb-plot").forEach(function (el) {
      if (el.dataset.drawn) return;
      var fig = JSON.parse(document.getElementById(el.dataset.figure).textContent);
      var svgButton = {name: texts.svg, title: texts.svg, icon: Plotly.Icons["camera-retro"],
        click: function (gd) { Plotly.downloadImage(gd, {format: "svg", filename: el.dataset.key}); }};
      var own = Object.assign({}, config, {modeBarButtonsToAdd: [svgButton],
        toImageButtonOptions: Object.assign({}, config.toImageButtonOptions, {filename: el.dataset.key})});
      el.textContent = "";
      var layout = fig.layout || {};
      // the labels are planned for a desktop's width: a narrow screen (a phone) scrolls the chart sideways instead
      if (el.clientWidth < %(narrow)d && !layout.width) {
        layout.width = %(narrow_width)d;
        el.tabIndex = 0;  // a region that scrolls is reached by keyboard too (its arrows scroll it)
        el.setAttribute("role", "region");
        el.setAttribute("aria-label", el.dataset.heading);
      }
      Plotly.newPlot(el, fig.data || [], layout, own).then(function () {
        name(el, el.dataset.label);
        el.dataset.drawn = "true";
      }, function () { el.textContent = texts.failed; el.dataset.failed = "true"; });
    });
  }
  (function wait() {
    if (window.Plotly) return draw(window.Plotly);
    if (Date.now() - started > %(wait)d) {
      root.querySelectorAll(".mha-nb-wait").forEach(function (p) { p.textContent = texts.missing; });
      return;
    }
    setTimeout(wait, 50);
  })();
})();
"""


def _script(root_id: str, lang: str) -> str:
    texts = {"svg": t("nb.download_svg", lang), "failed": t("nb.failed", lang), "missing": t("nb.no_plotly", lang)}
    return SCRIPT % {"root": json.dumps(root_id), "texts": json.dumps(texts, ensure_ascii=False),
                     "config": json.dumps(CONFIG), "wait": WAIT_MS, "narrow": NARROW_PX,
                     "narrow_width": NARROW_WIDTH_PX}  # fmt: skip


def fragment(charts: list[Chart], *, title: str, lines: list[str], lang: str, dark: bool, with_plotly_js: bool,
             link: tuple[str, str] | None = None) -> str:  # fmt: skip
    """The view as one HTML fragment (a notebook output): its heading, lines of plain text, a link (its text and
    address), then every chart with its heading, text, drawing (named by its text alternative) and numbers; plotly.js
    inline when `with_plotly_js`."""
    root = f"mha-nb-{uuid.uuid4().hex[:12]}"
    parts = [f'<div class="mha-nb{" mha-nb-dark" if dark else ""}" id="{root}" lang="{html.escape(lang)}">',
             f"<style>{CSS}</style>"]  # fmt: skip
    if with_plotly_js:  # a plain script: plotly.js 4 sets window.Plotly whether or not require.js is on the page
        parts.append(f"<script>{plotly_js()}</script>")
    parts.append(f"<h3>{plot_math(html.escape(title))}</h3>")
    parts += [f"<p>{plot_math(html.escape(line))}</p>" for line in lines]
    if link:
        text, href = link
        parts.append(f'<p>{html.escape(text)} <a href="{html.escape(href)}" target="_blank" rel="noopener">'
                     f"{html.escape(href)}</a></p>")
    waiting = html.escape(t("nb.drawing", lang))
    for k, chart in enumerate(charts):
        spec = figure_json(chart.figure)
        name, summary = describe(spec, lang, chart.heading)
        fig_id, head_id = f"{root}-fig{k}", f"{root}-h{k}"
        heading = plot_math(html.escape(chart.heading))
        parts.append(f'<section aria-labelledby="{head_id}"><h4 id="{head_id}">{heading}</h4>')
        if chart.text:
            parts.append(f"<p>{plot_math(html.escape(chart.text))}</p>")
        parts.append(f'<script type="application/json" id="{fig_id}">{spec}</script>')
        parts.append(f'<div class="mha-nb-plot" data-figure="{fig_id}" data-key="{html.escape(chart.key)}" '
                     f'data-label="{html.escape(summary)}" data-heading="{html.escape(name)}">'
                     f'<p class="mha-nb-wait">{waiting}</p></div>')  # fmt: skip
        parts.append(_csv_link(spec, chart.key, name, lang))
        parts.append("</section>")
    parts.append(f"<script>{_script(root, lang)}</script></div>")
    return "\n".join(parts)


def document(body: str, *, title: str, lang: str, dark: bool) -> str:
    """A whole HTML page around a fragment (which must carry plotly.js): a file that works offline on its own."""
    background = "#0e1117" if dark else "#ffffff"
    return (f'<!DOCTYPE html>\n<html lang="{html.escape(lang)}">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{html.escape(title)}</title>\n"
            f"<style>body {{ margin: 1em; background: {background}; }}</style>\n</head>\n<body>\n{body}\n</body>\n"
            "</html>\n")  # fmt: skip


def titled(chart: Chart) -> go.Figure:
    """A copy of the chart's figure with its heading as the figure's own title (for a file: the notebook shows the
    heading above the drawing instead), as figures.style.base_layout writes titles."""
    fig = go.Figure(chart.figure)
    style = FigureStyle()
    size = fig.layout.font.size or style.font_size
    fig.update_layout(title={"text": plot_math(safe_label(chart.heading)), "x": 0.0, "xanchor": "left",
                             "automargin": True, "font": {"size": round(size * 1.25)}})  # fmt: skip
    return fig


def style_for(dark: bool, **changes: object) -> FigureStyle:
    """The figures' style in a notebook: the app's, light or dark."""
    return FigureStyle().with_(dark=dark, **changes)


_TAGS = re.compile(r"<[^>]+>")


def plain_text(fragment_html: str, limit: int = 2000) -> str:
    """A fragment's words without markup (its text/plain form)."""
    text = re.sub(r"<(script|style)\b.*?</\1>", " ", fragment_html, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(_TAGS.sub(" ", text))).strip()[:limit]
