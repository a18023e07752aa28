"""The chart element (ui/chart_element.show): plotly.js committed in the static folder, the figure sent to
ui/plot.js with a version that follows its content, and st.plotly_chart when plotly.js cannot be served."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import subprocess
import tomllib
from pathlib import Path

import plotly
import plotly.graph_objects as go

from tests.conftest import chart_data, chart_spec, charts
from tests.test_app import run_page
from ui import chart_element as ui_charts
from ui import plotly_js
from ui.figure_cache import FrozenFigure


def test_the_app_draws_with_the_component_and_sends_each_figure_with_its_version(make_app):
    at = run_page(make_app, "heads")
    els = charts(at)
    assert els and all(el.type == "bidi_component" for el in els)
    for el in els:
        data = chart_data(el)
        assert set(data) == {"spec", "v", "config", "src", "failed", "label"}
        assert len(data["label"]) > 40  # the chart's text alternative (figures/describe.py)
        assert data["src"] == f"app/static/{ui_charts.STATIC_NAME}"
        assert data["config"]["displaylogo"] is False and data["config"]["toImageButtonOptions"]["format"] == "png"
        assert "could not be drawn" in data["failed"]
        fig = json.loads(data["spec"])
        assert fig["data"] and "layout" in fig
    tiled = next(el for el in els if el.proto.id.endswith("heads_tiled"))
    assert sum(a["text"].startswith("head") for a in chart_spec(tiled)["layout"]["annotations"]) == 8


def test_the_version_follows_the_figure_and_the_key_keeps_the_element(make_app):
    at = run_page(make_app, "heads")
    before = {el.proto.id: chart_data(el)["v"] for el in charts(at)}
    at.run()  # the same setting: the same versions
    assert {el.proto.id: chart_data(el)["v"] for el in charts(at)} == before
    at.sidebar.number_input(key="n_heads").set_value(4).run()
    after = {el.proto.id: chart_data(el)["v"] for el in charts(at)}
    # keyed elements keep their id (the browser keeps the chart and updates it in place) ...
    tiled_id = next(i for i in before if i.endswith("heads_tiled"))
    assert tiled_id in after
    # ... and a changed figure gets a new version, which is what makes ui/plot.js redraw it
    assert after[tiled_id] != before[tiled_id]


def test_zh_session_gets_the_failure_message_in_chinese(make_app):
    at = run_page(make_app, "heads", lang="zh")
    data = chart_data(charts(at)[0])
    assert "plotly.js" in data["failed"] and "无法绘制" in data["failed"]


def test_without_plotly_js_the_charts_fall_back_to_st_plotly_chart(make_app, monkeypatch, tmp_path):
    monkeypatch.setattr(ui_charts, "PLOTLY_JS", tmp_path / "missing" / "plotly.min.js")
    at = run_page(make_app, "heads")
    assert not at.exception
    plot_elements = [el for el in at.get("bidi_component") if el.proto.component_name.endswith("mha_plot")]
    assert not plot_elements and len(at.get("plotly_chart")) == len(charts(at)) >= 1


def test_a_frozen_figure_carries_the_figure_and_a_version_that_follows_it():
    fig = go.Figure(go.Heatmap(z=[[1, 2], [3, float("nan")]]), layout={"title": {"text": "<b>t</b>"}})
    a = FrozenFigure(fig)
    b = FrozenFigure(go.Figure(go.Heatmap(z=[[1, 2], [3, 5]])))
    assert json.loads(a.json)["data"][0]["z"] == [[1, 2], [3, None]]  # NaN (a masked cell) is null, never NaN
    assert json.loads(a.json)["layout"]["title"]["text"] == "<b>t</b>"
    assert a.version != b.version and a.version == FrozenFigure(fig).version
    # only strings are kept (the JSON, and the text alternatives read from it once), never its dict as well
    assert a.__slots__ == ("_described", "json", "key", "version") and a.key == ""  # not kept in FIGURE_CACHE
    assert a.figure().to_dict()["data"][0]["type"] == "heatmap"


def _header_version(path: Path) -> str:
    head = path.read_bytes()[:200].decode()
    return re.search(r"plotly\.js(?: \(cartesian - minified\))? v(\d+\.\d+\.\d+)", head)[1]


def test_the_vendored_bundle_is_the_plotly_packages_plotly_js_version():
    """The figures are built by the plotly package for its own plotly.js; the browser must run that version."""
    package_js = Path(plotly.__file__).resolve().parent / "package_data" / "plotly.min.js"
    assert _header_version(ui_charts.PLOTLY_JS) == _header_version(package_js) == plotly_js.PLOTLY_JS_VERSION
    assert "(cartesian - minified)" in ui_charts.PLOTLY_JS.read_bytes()[:200].decode()


def test_the_vendored_bundle_is_the_file_its_readme_names():
    readme = (ui_charts.PLOTLY_JS.parent / "README.md").read_text()
    digest = hashlib.sha256(ui_charts.PLOTLY_JS.read_bytes()).hexdigest()
    assert f"sha256: `{digest}`" in readme
    assert (ui_charts.PLOTLY_JS.parent / "LICENSE-plotly.js").read_text().startswith("MIT License")


def test_short_tables_are_static_and_long_ones_scroll(make_app):
    at = run_page(make_app, "inputs")  # 11 tokens: the token table is static, no grid on the page
    assert at.table and not at.dataframe
    text = " ".join(f"w{i}" for i in range(20))
    at = run_page(make_app, "inputs", preset="custom", text=text)
    assert at.dataframe and at.dataframe[0].value.shape == (1, 20)
    at = run_page(make_app, "heads", preset="custom", text=text)  # the 20 x 8 entropy table scrolls
    assert at.dataframe and at.dataframe[0].value.shape == (20, 8)


def test_the_served_bundle_is_committed_where_streamlit_serves_it():
    """Nothing is copied at start (a read-only install, a non-root container): git holds static/<bundle>, the
    config serves ./static, and the Docker image gets the folder."""
    root = plotly_js.ROOT
    assert root / "static" / ui_charts.STATIC_NAME == ui_charts.PLOTLY_JS
    tracked = subprocess.run(["git", "ls-files", "static"], cwd=root, capture_output=True, text=True).stdout.split()
    assert f"static/{ui_charts.STATIC_NAME}" in tracked and "static/LICENSE-plotly.js" in tracked
    assert tomllib.loads((root / ".streamlit" / "config.toml").read_text())["server"]["enableStaticServing"] is True
    ignored = (root / ".dockerignore").read_text().split()
    assert not any(p.strip("/") == "static" or p.startswith("static") for p in ignored)
    assert not hasattr(ui_charts, "install_plotly_js")


def test_the_page_icon_is_a_file_of_the_app():
    import frame

    assert frame.FAVICON.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert frame.FAVICON.parent == ui_charts.PLOTLY_JS.parent
    # sent as a data URL read once (a path would be read and stored by Streamlit on every run)
    head, _, data = frame.FAVICON_URL.partition(",")
    assert head == "data:image/png;base64" and base64.b64decode(data) == frame.FAVICON.read_bytes()
    assert ":material/" not in (plotly_js.ROOT / "frame.py").read_text().split("set_page_config")[1][:200]
