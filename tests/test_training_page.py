"""AppTest runs of the training lab page: train with a tiny budget, scrub through the snapshots, switch
tasks, reuse a finished run, both languages."""

from __future__ import annotations

import pytest

from tests.conftest import APP, ROOT, chart_spec, charts

PAGE = "app_pages/lab.py"
SMALL = 20  # steps: enough to draw every figure, fast enough for a test


def open_page(**state):
    """The page through the app's frame once it is registered there, else on its own (get_context()
    then builds the sidebar context itself)."""
    from streamlit.testing.v1 import AppTest

    from ui.nav import PAGES

    registered = any(path == PAGE for path, *_ in PAGES)
    at = AppTest.from_file(APP if registered else str(ROOT / PAGE), default_timeout=120)
    for k, v in state.items():
        at.session_state[k] = v
    at.run()
    if registered:
        at.switch_page(PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def train(at, steps: int = SMALL):
    at.number_input(key="lab_steps").set_value(steps).run()
    at.button(key="lab_train").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def specs(at) -> list[dict]:
    return [chart_spec(el) for el in charts(at)]


def test_page_opens_ready_to_train():
    at = open_page()
    assert [i.value for i in at.info] == ["Choose a task and press **Train**."]
    assert at.selectbox(key="lab_task").options == [
        "Copy the previous token", "Reverse the sequence", "Sort", "Induction (find the earlier copy)",
    ]  # fmt: skip
    assert not at.button(key="lab_train").disabled and at.button(key="lab_stop").disabled
    assert not charts(at)


def test_training_with_a_tiny_budget_shows_curves_heads_and_similarity():
    at = train(open_page())
    lab = at.session_state["lab_session"]
    assert lab.current.step == SMALL and not lab.running
    assert [s.value.startswith(f"Trained {SMALL} steps") for s in at.success] == [True]
    figs = specs(at)
    assert len(figs) == 6  # loss/accuracy, pattern scores, heads over time, final heads, similarity x2
    assert figs[0]["data"][0]["x"] == lab.current.history.steps
    # every head in one tiled heatmap; the causal mask's cells get tiled_heads' grey layer (it says "masked" on hover)
    # and, since i36, a hatched layer over them (figures.style.masked_hatch: horizontal bars, one per run of masked
    # cells in a row, with a diagonal pattern), so colour is not their only cue
    heads = figs[2]
    assert [tr["type"] for tr in heads["data"]] == ["heatmap", "heatmap", "bar"]
    grey, hatch = heads["data"][1], heads["data"][2]
    n_masked = sum(v is not None for row in grey["z"] for v in row)
    assert hatch["marker"]["pattern"]["shape"] and hatch["hoverinfo"] == "skip"
    assert sum(hatch["x"]) == n_masked > 0  # the hatch spans as many cells as are masked
    assert "xaxis2" not in heads["layout"]  # no subplots
    assert at.dataframe[0].value.shape == (3, lab.current.task.seq_len)
    assert not at.button(key="lab_train").disabled and at.button(key="lab_stop").disabled  # controls back


def test_the_slider_scrubs_through_training_time():
    at = train(open_page())
    slider = at.select_slider(key=f"lab_snap_{at.session_state['lab_session'].run_number}")
    assert slider.options[0] == "0" and slider.options[-1] == str(SMALL) and slider.value == SMALL
    last = specs(at)[2]
    slider.set_value(0).run()
    first = specs(at)[2]
    assert "step 0" in first["layout"]["title"]["text"]
    assert first["data"][0]["z"] != last["data"][0]["z"]  # the heads changed during training
    assert specs(at)[0]["layout"]["shapes"][0]["x0"] == 0  # the curves mark the snapshot's step


def test_choosing_a_task_loads_its_settings_and_warns_about_too_few_layers():
    at = open_page()
    at.selectbox(key="lab_task").set_value("induction").run()
    assert at.radio(key="lab_n_layers").value == 2 and at.number_input(key="lab_steps").value == 900
    assert at.select_slider(key="lab_d_model").value == 32 and not at.warning
    at.radio(key="lab_n_layers").set_value(1).run()
    assert [w.value for w in at.warning] == ["This task needs 2 layers; with fewer, expect the accuracy to stay low."]


def test_the_same_settings_are_shown_from_memory_without_training_again():
    at = train(open_page())
    first = at.session_state["lab_session"].current
    at.button(key="lab_train").click().run()
    lab = at.session_state["lab_session"]
    assert lab.current is first and lab.from_cache
    assert any("shown from memory" in c.value for c in at.caption)
    at.number_input(key="lab_seed").set_value(1).run()
    assert any("differ from the run shown" in i.value for i in at.info)


def test_another_example_changes_the_fresh_example():
    at = train(open_page())
    before = at.dataframe[0].value.copy()
    at.button(key="lab_new_example").click().run()
    assert not at.dataframe[0].value.equals(before)


@pytest.mark.parametrize("task", ["reverse", "sort", "induction"])
def test_every_task_trains_on_the_page(task):
    at = open_page()
    at.selectbox(key="lab_task").set_value(task).run()
    train(at, steps=10)
    assert at.session_state["lab_session"].current.config.task == task
    assert len(specs(at)) == 6 + (2 if task == "induction" else 0)  # similarity per layer


def test_the_page_in_chinese():
    at = train(open_page(lang="zh"))
    assert at.title[0].value == "训练实验室：看各个头如何分工"
    assert at.success[0].value.startswith(f"训练了 {SMALL} 步")
    assert specs(at)[0]["data"][0]["name"] == "训练损失"


def test_each_session_has_its_own_lab():
    a = train(open_page())
    b = open_page()
    assert b.session_state["lab_session"] is not a.session_state["lab_session"]
    assert b.session_state["lab_session"].current is None
