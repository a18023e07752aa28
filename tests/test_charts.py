"""The chart element (ui/charts.show): plotly.js put in place for the static folder, the figure sent to
ui/plot.js with a version that follows its content, and st.plotly_chart when plotly.js cannot be served."""

from __future__ import annotations

import json

import plotly.graph_objects as go
import pytest

from tests.conftest import chart_spec, charts
from tests.test_app import run_page
from ui import charts as ui_charts


@pytest.fixture
def fresh_asset(monkeypatch):
    """A process that has not put plotly.js in place yet (the flag is per process)."""
    monkeypatch.setattr(ui_charts, "_asset", {"ready": False})


def test_install_copies_the_plotly_packages_own_file(tmp_path, fresh_asset):
    assert ui_charts.install_plotly_js(tmp_path)
    copied = tmp_path / "static" / "plotly.min.js"
    assert copied.read_bytes() == ui_charts.PLOTLY_JS.read_bytes()
    assert not list((tmp_path / "static").glob("*.partial"))


def test_install_replaces_a_truncated_copy(tmp_path, fresh_asset):
    (tmp_path / "static").mkdir()
    (tmp_path / "static" / "plotly.min.js").write_text("/* half a file */")
    assert ui_charts.install_plotly_js(tmp_path)
    assert (tmp_path / "static" / "plotly.min.js").stat().st_size == ui_charts.PLOTLY_JS.stat().st_size


def test_install_reports_failure_instead_of_raising(tmp_path, fresh_asset, monkeypatch):
    monkeypatch.setattr(ui_charts, "PLOTLY_JS", tmp_path / "missing" / "plotly.min.js")
    assert ui_charts.install_plotly_js(tmp_path) is False
    assert ui_charts.uses_component() is False


def test_the_app_draws_with_the_component_and_sends_each_figure_with_its_version(make_app):
    at = run_page(make_app, "heads")
    els = charts(at)
    assert els and all(el.type == "bidi_component" for el in els)
    for el in els:
        data = json.loads(el.proto.json)
        assert set(data) == {"spec", "v", "config", "failed"}
        assert data["config"]["displaylogo"] is False and data["config"]["toImageButtonOptions"]["format"] == "png"
        assert "could not be drawn" in data["failed"]
        fig = json.loads(data["spec"])
        assert fig["data"] and "layout" in fig
    tiled = next(el for el in els if el.proto.id.endswith("heads_tiled"))
    assert sum(a["text"].startswith("head") for a in chart_spec(tiled)["layout"]["annotations"]) == 8


def test_the_version_follows_the_figure_and_the_key_keeps_the_element(make_app):
    at = run_page(make_app, "heads")
    before = {el.proto.id: json.loads(el.proto.json)["v"] for el in charts(at)}
    at.run()  # the same setting: the same versions
    assert {el.proto.id: json.loads(el.proto.json)["v"] for el in charts(at)} == before
    at.sidebar.number_input(key="n_heads").set_value(4).run()
    after = {el.proto.id: json.loads(el.proto.json)["v"] for el in charts(at)}
    # keyed elements keep their id (the browser keeps the chart and updates it in place) ...
    tiled_id = next(i for i in before if i.endswith("heads_tiled"))
    assert tiled_id in after
    # ... and a changed figure gets a new version, which is what makes ui/plot.js redraw it
    assert after[tiled_id] != before[tiled_id]


def test_zh_session_gets_the_failure_message_in_chinese(make_app):
    at = run_page(make_app, "heads", lang="zh")
    data = json.loads(charts(at)[0].proto.json)
    assert "plotly.js" in data["failed"] and "无法绘制" in data["failed"]


def test_without_plotly_js_the_charts_fall_back_to_st_plotly_chart(make_app, fresh_asset, monkeypatch, tmp_path):
    monkeypatch.setattr(ui_charts, "PLOTLY_JS", tmp_path / "missing" / "plotly.min.js")
    at = run_page(make_app, "heads")
    assert not at.exception
    assert not at.get("bidi_component") and len(at.get("plotly_chart")) == len(charts(at)) >= 1


def test_an_unmemoised_figure_is_frozen_on_the_fly():
    fig = go.Figure(go.Heatmap(z=[[1, 2], [3, 4]]))
    a, b = ui_charts._freeze(fig), ui_charts._freeze(go.Figure(go.Heatmap(z=[[1, 2], [3, 5]])))
    assert json.loads(a._frozen_json)["data"][0]["z"] == [[1, 2], [3, 4]]
    assert a._version != b._version and a._version == ui_charts._freeze(fig)._version
