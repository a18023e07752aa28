"""Choices that must survive a page switch and a language switch (issue 23), the causal default query, the
chosen query framed in the tiled heads, the presentation page's compact steps."""

from __future__ import annotations

import io
import json

import numpy as np

import i18n
from tests.conftest import PAGES, plotly_specs


def open_at(make_app, page: str, **state):
    at = make_app(**state)
    at.run()
    at.run()
    at.switch_page(PAGES[page]).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_heads_keeps_view_and_query_after_another_page(make_app):
    at = open_at(make_app, "heads")
    at.radio(key="heads_quantity__en").set_value("scores").run()
    at.selectbox(key="heads_query").set_value(3).run()
    at.toggle(key="heads_shared").set_value(False).run()
    at.switch_page(PAGES["steps"]).run()
    at.switch_page(PAGES["heads"]).run()
    assert not at.exception
    assert at.radio(key="heads_quantity__en").value == "scores"
    assert at.selectbox(key="heads_query").value == 3
    assert at.toggle(key="heads_shared").value is False


def test_heads_view_survives_a_language_switch_with_the_new_labels(make_app):
    at = open_at(make_app, "heads")
    at.radio(key="heads_quantity__en").set_value("scores").run()
    at.selectbox(key="lang").set_value("zh").run()
    assert not at.exception
    radio = at.radio(key="heads_quantity__zh")
    assert radio.value == "scores"
    assert radio.options[:2] == [i18n.t("qty.weights", "zh"), i18n.t("qty.scores", "zh")]


def test_worked_row_label_follows_the_language(make_app):
    at = open_at(make_app, "worked", lang="zh")
    box = at.selectbox(key="worked_softmax_row__zh")
    box.set_value((1, 1)).run()
    at.selectbox(key="lang").set_value("en").run()
    assert not at.exception
    box = at.selectbox(key="worked_softmax_row__en")
    assert box.value == (1, 1)
    assert box.options[0] == i18n.t("worked.softmax_row_option", "en", head=1, row=1, token="x₁")


def test_causal_mask_starts_with_a_query_that_sees_every_key(make_app):
    at = open_at(make_app, "heads", mask="causal")
    query = at.selectbox(key="heads_query").value
    n_tokens = len(at.selectbox(key="heads_query").options)
    assert query == n_tokens - 1 > 0
    at2 = open_at(make_app, "heads")
    assert at2.selectbox(key="heads_query").value == 0  # no mask: the first query, as before


def test_the_chosen_query_is_framed_in_every_head(make_app):
    at = open_at(make_app, "heads", n_heads=4)
    at.selectbox(key="heads_query").set_value(2).run()
    tiled = plotly_specs(at)[0]
    frames = tiled["layout"].get("shapes", [])
    assert len(frames) == 2 * 4  # two tones per head: a line of the background under one of the text colour
    assert [f["line"]["color"] for f in frames[:2]] == ["white", "#222"]
    assert all(f["y1"] - f["y0"] == 1 for f in frames)
    # the frame sits on row 2 of the first tile: the tile starts at the first tick's row
    first_tile_top = min(f["y0"] for f in frames) - 2
    assert first_tile_top >= 0


def test_npz_carries_the_settings_it_was_computed_from():
    from explorer import Settings, run_scene
    from explorer.settings_io import settings_from_json
    from ui.export import trace_npz

    settings = Settings(d_model=16, n_heads=2, seed=5, mask="causal", scale=False)
    data = np.load(io.BytesIO(trace_npz(run_scene(settings), settings, "zh")), allow_pickle=False)
    carried = str(data["settings"][0])
    loaded, lang = settings_from_json(carried.encode())
    assert loaded == settings and lang == "zh"
    assert json.loads(carried)["d_model"] == 16
    np.testing.assert_allclose(data["weights"], run_scene(settings).weights)


def test_reset_brings_back_the_default_setting_and_page_choices(make_app):
    at = open_at(make_app, "heads")
    at.number_input(key="d_model").set_value(32).run()
    at.selectbox(key="heads_query").set_value(4).run()
    at.button(key="reset_defaults").click().run()
    assert not at.exception
    assert at.number_input(key="d_model").value == 64
    assert at.selectbox(key="heads_query").value == 0


def test_png_exports_are_named_after_the_chart_and_setting(make_app):
    at = open_at(make_app, "heads", mask="causal")
    from tests.conftest import chart_data, charts

    configs = [chart_data(el)["config"] for el in charts(at) if el.type == "bidi_component"] or [
        json.loads(el.proto.config) for el in charts(at)
    ]
    names = [c["toImageButtonOptions"]["filename"] for c in configs]
    assert names[0].startswith("mha_heads_tiled_") and "h8" in names[0] and "causal" in names[0]
    assert len(set(names)) == len(names)  # every chart its own name


def test_dark_screen_draws_dark_figures(make_app):
    at = open_at(make_app, "heads", theme="dark")
    layout = plotly_specs(at)[0]["layout"]
    assert layout["paper_bgcolor"] != "white" and layout["font"]["color"] != "#222"
    at2 = open_at(make_app, "heads")
    assert plotly_specs(at2)[0]["layout"]["paper_bgcolor"] == "white"
