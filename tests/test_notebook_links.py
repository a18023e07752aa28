"""From the app to the notebook and back: a link of the app opens as the same setting in a notebook, and a notebook's
setting opens in the app. The app itself is the oracle: each link is run through the whole app (AppTest: its URL
parsing, the sidebar's widgets bound to the URL, the preset's fill) and the Settings it computes are compared with
explorer.links.settings_from_link's, which the notebook uses."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlsplit

import numpy as np
import pytest

import mha_notebook as nb
from explorer import Settings, run_scene
from explorer.links import link, link_query, settings_from_link
from i18n import t
from tests.conftest import APP

# every parameter of a setting link, the presets, every mask, the real model, Chinese text, bad and unknown values
LINKS = [
    "", "d_model=32&n_heads=4", "preset=zh&lang=zh", "scale=True", "scale=false&add_pe=FALSE", "seed=0012",
    "mask=chosen&padded=1,2,30", "preset=worked", "preset=worked&d_model=8&mask=causal", "preset=paper&n_heads=16",
    "preset=paper&d_model=²", "source=minilm&layer=3",
    "source=minilm&layer=3&d_model=32&cross=true&mask=chosen&padded=0,5,40",
    "mask=padding&text_pad=A+dog+.&cross=true", "cross=true&text_kv=Le+chien+.&mask=chosen&padded=0,3,4",
    "mask=padding&padded=1,2", "text=%E5%B0%8F%E7%8C%AB%E5%9D%90%E7%9D%80&lang=zh-CN&seed=7", "d_model=10&n_heads=3",
    "text=", "seed=-1&n_heads=99&bogus=1", "lang=fr&theme=dark&present=true&step=3&large=false",
    "preset=custom&text=a+b+c&mask=causal", "preset=zh&text=hello+world",
    "preset=worked&cross=true&mask=chosen&padded=1,5",
    "source=minilm&preset=worked", "layer=4", "mask=chosen&padded=0&text=one+two", "source=random&layer=2&mask=none",
    "preset=en&d_model=16&n_heads=16&text=%3Cscript%3E+x", "quiz=3&qa=1&lesson=mha45&stop=2&join=ABC&d_model=48",
]  # fmt: skip


def app_settings(query: str) -> tuple[Settings, str, list[str]]:
    """(the Settings the app computes, its language, the parameters it names as rejected) for a link's query."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(APP, default_timeout=60)
    for name, value in dict(parse_qsl(query, keep_blank_values=True)).items():
        at.query_params[name] = value
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    state = at.session_state
    settings = state["_last_good_settings"] if "_last_good_settings" in state else Settings()  # none good: defaults
    return settings, state["lang"], [r for r in state["_url_rejected"] if r != "?"]


@pytest.mark.parametrize("query", LINKS, ids=lambda q: q[:40] or "empty")
def test_every_link_of_the_app_reads_as_the_app_reads_it(query):
    settings, lang, rejected = app_settings(query)
    read = settings_from_link(f"http://classroom.lan:8501/steps?{query}")
    assert read.settings == settings
    assert (read.lang or "en") == lang and list(read.rejected) == rejected
    assert read.page == "steps"
    if not read.problems:
        view = nb.open_link(f"http://classroom.lan:8501/steps?{query}")
        assert view.settings == settings and view.lang == lang
        np.testing.assert_array_equal(view.arrays.weights, run_scene(settings).weights)  # the app's own numbers


SETTINGS = [
    Settings(),
    Settings(preset="worked", text="x₁ x₂", d_model=4, n_heads=2, add_pe=False, seed=5),
    Settings(preset="zh", text="小猫坐在垫子上，因为它累了。", d_model=32, n_heads=4, mask="causal", scale=False),
    Settings(preset="custom", text="a b a b", cross=True, text_kv="x y z", mask="chosen", padded=(0, 2), seed=9),
    Settings(mask="padding", text_pad="A dog .", add_pe=False),
    Settings(weight_source="minilm", layer=4, d_model=384, n_heads=12, add_pe=False, mask="chosen", padded=(1,)),
    Settings(preset="paper", text="The animal didn't cross the street because it was too tired .", d_model=512,
             n_heads=16),
]


@pytest.mark.parametrize("settings", SETTINGS, ids=lambda s: f"{s.preset}-{s.mask}-{s.weight_source}")
def test_a_notebooks_setting_opens_in_the_app_as_the_same_setting(settings):
    for lang in ("en", "zh"):
        view = nb.view_of(settings, lang=lang)
        url = view.link(page="heads")
        assert urlsplit(url).path == "/heads" and dict(parse_qsl(urlsplit(url).query))["lang"] == lang
        assert app_settings(urlsplit(url).query)[:2] == (settings, lang)
        assert settings_from_link(url).settings == settings


def test_the_link_is_the_apps_student_link():
    from ui.share import student_link, student_query

    s = Settings(d_model=32, n_heads=4, mask="causal")
    assert student_query(s, "zh", 3) == link_query(s, "zh", 3)
    assert student_link("http://h:1/steps?x=1", s, "en") == link("http://h:1/steps", s, "en")


def test_explore_is_the_apps_preset_and_refuses_what_the_app_would_change():
    worked = nb.explore(preset="worked")
    np.testing.assert_allclose(worked.arrays.q[0], [[0.0, 1.45], [-0.95, -0.45]], atol=1e-6)  # note 001's X W_1^Q
    assert settings_from_link(worked.link()).settings == worked.settings
    with pytest.raises(nb.NotebookError, match="other values of d_model, n_heads"):
        nb.explore(preset="worked", d_model=8, n_heads=4)  # the worked example fixes its sizes
    with pytest.raises(nb.NotebookError, match="d_model = 10 is not divisible by h = 3"):
        nb.explore(d_model=10, n_heads=3)
    with pytest.raises(nb.NotebookError, match="nheads is not a setting"):
        nb.explore(nheads=4)
    with pytest.raises(nb.NotebookError) as err:
        nb.explore(d_model=10, n_heads=3, lang="zh")
    assert str(err.value).startswith(t("nb.error.setting", "zh", problems="").strip())


def test_a_link_the_app_refuses_is_refused_with_the_apps_message():
    with pytest.raises(nb.NotebookError) as err:
        nb.open_link("?d_model=10&n_heads=3&lang=zh")
    assert "d_model = 10" in str(err.value) and "无法计算此设置" in str(err.value)
    view = nb.open_link("?d_model=32&n_heads=4&seed=abc")  # a bad value is left out, as the app leaves it out
    assert view.rejected == ("seed",) and t("nb.trace.rejected", "en", names="seed") in view.lines


def test_a_trace_of_the_core_has_no_link():
    from mha_core import AttentionConfig, MultiHeadAttention, embed_tokens

    view = nb.show(MultiHeadAttention(AttentionConfig(d_model=8, n_heads=2))(embed_tokens(["a", "b"], 8)))
    with pytest.raises(nb.NotebookError, match="not made from a setting"):
        view.link()
