"""AppTest runs of every page: defaults, presets, masks, cross-attention, invalid settings, numbers in figures."""

from __future__ import annotations

import numpy as np
import pytest

from explorer import Settings, apply_preset, run_scene
from tests.conftest import CHARTLESS, PAGES, charts, plotly_specs

X_EDITOR = "editor__x_edits__0"  # ui.editing's key for the first version of the X editor


def run_page(make_app, page: str, **state):
    at = make_app(**state)
    at.run()
    at.run()  # AppTest: widget ids settle after the first run (the page hash becomes known)
    if page != "home":
        at.switch_page(PAGES[page]).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def heads_drawn(at) -> int:
    """Number of head tiles in the tiled heads figure (one tile title annotation per head)."""
    specs = plotly_specs(at)
    titles = [a.get("text", "") for a in specs[0]["layout"].get("annotations", [])]
    return sum(1 for t in titles if t.startswith("head ") or t.startswith("头 "))


@pytest.mark.parametrize("page", list(PAGES))
def test_every_page_runs_at_default(make_app, page):
    at = run_page(make_app, page)
    assert len(charts(at)) >= (0 if page in CHARTLESS else 1)
    assert not at.error


@pytest.mark.parametrize("preset", ["zh", "worked", "paper"])
@pytest.mark.parametrize("page", ["inputs", "steps", "heads"])
def test_every_preset_runs(make_app, page, preset):
    s = apply_preset(Settings(), preset)
    state = {"preset": preset, "text": s.text, "d_model": s.d_model, "n_heads": s.n_heads, "add_pe": s.add_pe}
    at = run_page(make_app, page, **state)
    assert not at.error


@pytest.mark.parametrize("mask", ["causal", "padding", "chosen"])
@pytest.mark.parametrize("page", ["steps", "heads"])
def test_every_mask_runs(make_app, page, mask):
    at = run_page(make_app, page, mask=mask, padded=[0, 2])
    assert not at.error


@pytest.mark.parametrize("page", list(PAGES))
def test_cross_attention_runs(make_app, page):
    at = run_page(make_app, page, cross=True, text_kv="Le chat dort .")
    assert not at.error


@pytest.mark.parametrize("n_heads", [1, 2, 4, 16])
def test_changing_h_changes_the_number_of_heads_drawn(make_app, n_heads):
    at = run_page(make_app, "heads", n_heads=n_heads)
    assert heads_drawn(at) == n_heads


def test_changing_h_with_the_widget_redraws(make_app):
    at = run_page(make_app, "heads")
    assert heads_drawn(at) == 8
    at.sidebar.number_input(key="n_heads").set_value(4).run()
    assert not at.exception
    assert heads_drawn(at) == 4


def test_invalid_h_shows_message_and_keeps_last_good(make_app):
    at = run_page(make_app, "heads")
    at.sidebar.number_input(key="n_heads").set_value(7).run()
    assert not at.exception
    errors = [e.value for e in at.sidebar.error]
    assert any("not divisible by h = 7" in e and "h = 4, 8" in e for e in errors)
    assert heads_drawn(at) == 8  # the last valid result stays on screen


def test_invalid_d_model_message_in_chinese(make_app):
    at = run_page(make_app, "steps", lang="zh")
    at.sidebar.number_input(key="d_model").set_value(30).run()
    assert not at.exception
    assert any("不能被" in e.value for e in at.sidebar.error)


def test_empty_sentence_shows_message(make_app):
    at = run_page(make_app, "inputs")
    at.sidebar.text_area(key="text").set_value("   ").run()
    assert not at.exception
    assert any("no tokens" in e.value for e in at.sidebar.error)
    assert len(charts(at)) >= 1


def test_weights_figure_carries_the_trace_numbers(make_app):
    at = run_page(make_app, "heads", d_model=16, n_heads=4)
    sc = run_scene(Settings(d_model=16, n_heads=4, preset="en"))
    spec = plotly_specs(at)[0]
    z = np.array([[np.nan if v is None else v for v in row] for row in spec["data"][0]["z"]], dtype=float)
    finite = z[np.isfinite(z)]
    expected = np.sort(sc.weights.ravel())
    assert finite.size == expected.size
    np.testing.assert_allclose(np.sort(finite), expected, atol=1e-3)


def test_x_edit_through_the_data_editor_changes_the_numbers(make_app):
    at = run_page(make_app, "inputs", d_model=16, n_heads=2)  # above 8: no weight editors on the page
    assert not at.data_editor, "the grid is drawn only when asked for"
    at.toggle(key="edit_x_open").set_value(True).run()
    assert at.data_editor, "the X editor is shown"
    at.session_state[X_EDITOR] = {"edited_rows": {0: {"0": 3.5}}, "added_rows": [], "deleted_rows": []}
    at.run()
    assert not at.exception
    spec = plotly_specs(at)[0]
    assert spec["data"][0]["z"][0][0] == pytest.approx(3.5, abs=1e-3)
    at.switch_page(PAGES["heads"]).run()
    at.switch_page(PAGES["inputs"]).run()
    assert at.toggle(key="edit_x_open").value and at.data_editor, "with edits in X the editor opens by itself"


def test_non_number_cell_is_rejected_with_message(make_app):
    at = run_page(make_app, "inputs", d_model=8, n_heads=2, edit_x_open=True)
    at.session_state[X_EDITOR] = {"edited_rows": {0: {"1": "abc"}}, "added_rows": [], "deleted_rows": []}
    at.run()
    assert not at.exception
    assert any("“abc” is not a number" in e.value for e in at.error)  # at the editor, naming the cell
