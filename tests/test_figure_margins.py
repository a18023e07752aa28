"""The first charts of /heads and /steps (a tiled heatmap, a heatmap) are laid out once (figures.style.label_margins):
their margins, estimated from their labels, titles and colorbar, are
already as large as what plotly's automargin pushes them to, so plotly.js draws it without the second layout pass a
too small margin costs (Plotly.newPlot 48 -> 23 ms at 1x, warm); and the estimate is only a little over (no wide
blank bands). Drawn with the app's own plotly.js in Chromium, at the widths the charts get on a desktop, a projector
and a phone, in English and Chinese, with short and long labels."""

from __future__ import annotations

import json
from pathlib import Path

import plotly.utils
import pytest

from explorer import Settings, run_scene
from figures import tiled_heads
from figures.heatmap import matrix_heatmap
from figures.style import FigureStyle
from tests.browser import CHROMIUM

pytestmark = pytest.mark.browser

if not Path(CHROMIUM).exists():
    pytest.fail(f"Chromium not found at {CHROMIUM}; run `bash .ci/run` to install it", pytrace=False)

PLOTLY = Path(__file__).resolve().parent.parent / "static" / "plotly-cartesian-4.1.1.min.js"
TEXTS = {
    "en": "The cat sat on the mat because it was tired .",
    "zh": "猫 坐在 垫子 上 ， 因为 它 累了 。",
    "long": "Transformers understand extraordinarily long sentences surprisingly well",
}
STYLES = {"desktop": (FigureStyle(), (1000, 1350)), "phone": (FigureStyle.phone(), (350,)),
          "projector": (FigureStyle.present(), (1200,))}  # fmt: skip
# Plotly's margins after its layout, the margins the figure gave, and what pushed them (its labels, the colorbar).
DRAW = """async ([fig, width]) => {
  const el = document.createElement('div'); el.style.width = width + 'px'; document.body.appendChild(el);
  await Plotly.newPlot(el, fig.data, fig.layout, {responsive: false});
  const size = el._fullLayout._size, pushes = el._fullLayout._pushmargin;
  const title = el.querySelector('.gtitle'), box = el.getBoundingClientRect();
  const titleBox = title && title.textContent ? title.getBoundingClientRect() : null;
  const out = {final: {l: size.l, r: size.r, t: size.t, b: size.b}, pushes: JSON.parse(JSON.stringify(pushes)),
               title: titleBox && {top: titleBox.top - box.top, bottom: titleBox.bottom - box.top}};
  Plotly.purge(el); el.remove(); return out; }"""


def figures():
    for text_name, text in TEXTS.items():
        for h in (2, 4, 8):
            scene = run_scene(Settings(text=text, n_heads=h))
            heads = [f"head {i + 1}" if text_name != "zh" else f"头 {i + 1}" for i in range(h)]
            for style_name, (style, widths) in STYLES.items():
                for quantity, stack, cols, kind in (("weights", scene.weights, list(scene.kv_tokens), "weights"),
                                                    ("q", scene.q, None, "signed")):  # fmt: skip
                    for shared in (True, False):
                        fig = tiled_heads(stack, list(scene.tokens), cols, tile_titles=heads, kind=kind,
                                          shared_scale=shared, lang="zh" if text_name == "zh" else "en", style=style,
                                          highlight_row=0)  # fmt: skip
                        spec = json.loads(json.dumps(fig.to_plotly_json(), cls=plotly.utils.PlotlyJSONEncoder))
                        for width in widths:
                            yield f"{text_name} h={h} {style_name} {quantity} shared={shared} {width}px", spec, width
                if h == 4:  # one head's map, as /steps draws it: a title, axis titles, numbers in the cells
                    for title in ("Step 4 · weights A = softmax(S)", None):
                        fig = matrix_heatmap(scene.weights[0], list(scene.tokens), list(scene.kv_tokens),
                                             title=title, kind="weights", row_title="query", col_title="key",
                                             value_name="A", style=style)  # fmt: skip
                        spec = json.loads(json.dumps(fig.to_plotly_json(), cls=plotly.utils.PlotlyJSONEncoder))
                        for width in widths:
                            yield f"{text_name} heatmap {style_name} title={bool(title)} {width}px", spec, width


def needed(pushes: dict, final: dict, width: int) -> dict[str, float]:
    """What plotly needed on each side: the largest push (a colorbar at x = 1.02 of the plot needs its size plus
    0.02 of the plot's width)."""
    need = {"l": 0.0, "r": 0.0, "b": 0.0}
    for name, push in pushes.items():
        if name == "base":
            continue
        for side in need:
            if push.get(side) and push[side].get("size") is not None:  # a title's push names only the top
                size, at = push[side]["size"], push[side]["val"]
                if side == "r" and at > 1:
                    size = (size + (at - 1) * (width - final["l"])) / at
                elif (side == "r" and at < 1) or (side in "lb" and at > 0):
                    continue  # a push from inside the plot (an x label's end at the left edge is at 0)
                need[side] = max(need[side], size)
    return need


@pytest.fixture(scope="module")
def drawn(browser):
    page = browser.new_page()
    page.set_content("<html><body style='margin:0'></body></html>")
    page.add_script_tag(path=str(PLOTLY))
    out = [(name, spec, width, page.evaluate(DRAW, [spec, width])) for name, spec, width in figures()]
    page.close()
    return out


def wrapped(spec: dict) -> bool:
    """A title broken into lines (figures.style.wrap_title): plotly pushes the top margin for its other lines."""
    return "<br>" in str(spec["layout"].get("title", {}).get("text", ""))


def test_every_tiled_chart_is_laid_out_once(drawn):
    """Once, except above a wrapped title (a phone's long title): plotly lays that one out twice (label_margins)."""
    second_pass = [(name, spec["layout"]["margin"], got["final"]) for name, spec, _, got in drawn
                   if any(got["final"][side] > spec["layout"]["margin"][side] + 0.5 for side in "lrb")
                   or (got["final"]["t"] > spec["layout"]["margin"]["t"] + 0.5 and not wrapped(spec))]  # fmt: skip
    # texts x (h x quantities x scales + two heatmaps) x widths (2 desktop, phone, projector)
    assert len(drawn) == len(TEXTS) * (3 * 2 * 2 + 2) * 4
    assert any(wrapped(spec) for _, spec, _, _ in drawn)  # the phone's heatmap title, the case below
    assert not second_pass, f"{len(second_pass)} of {len(drawn)} charts needed a second layout pass: {second_pass[:5]}"


def test_a_title_stays_above_its_chart_on_every_line(drawn):
    """Every line of a chart's title is inside the figure and above the plot: a phone's wrapped title too (plotly.js
    drew its second line over the first row when the margin already had room for it)."""
    titled = [(name, got) for name, _, _, got in drawn if got["title"]]
    assert titled
    bad = [(name, got["title"], got["final"]["t"]) for name, got in titled
           if got["title"]["top"] < -0.5 or got["title"]["bottom"] > got["final"]["t"] + 0.5]  # fmt: skip
    assert not bad, bad[:5]


def test_the_estimate_is_only_a_little_over(drawn):
    """At about the width the style expects (FigureStyle.width_px). A chart much wider than that (1350 px: a desktop
    with the sidebar closed) may get its x labels turned less than the estimate assumed: a band under them stays
    blank (up to 72 px with the longest tokens here), the price of drawing once at the usual width."""
    over = []
    for name, spec, width, got in drawn:
        if width == 1350:
            continue
        given, need = spec["layout"]["margin"], needed(got["pushes"], got["final"], width)
        for side, limit in (("l", 12), ("r", 36), ("b", 45)):
            if need[side] and given[side] - need[side] > limit + 0.25 * need[side]:
                over.append((name, side, round(given[side] - need[side])))
    assert not over, over[:5]
