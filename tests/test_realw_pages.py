"""AppTest runs of the explorer pages with the real weights (both languages), without the model package, and
with the padding batch."""

from __future__ import annotations

import pytest

import i18n
from figures.style import plot_math
from pretrained.loading import INSTALL_COMMAND
from tests.conftest import PAGES, plotly_specs
from tests.test_app import run_page


def texts(at) -> str:
    parts = [e.value for kind in ("markdown", "success", "info", "caption", "warning") for e in at.get(kind)]
    parts += [e.value for e in at.sidebar.caption]
    return "\n".join(str(p) for p in parts)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("page", ["inputs", "steps", "heads", "quiz"])
def test_pages_run_with_real_weights(make_app, page, lang):
    at = run_page(make_app, page, source="minilm", lang=lang)
    assert not at.error
    ctx = at.session_state["_ctx"]
    assert ctx.settings.real and (ctx.scene.d_model, ctx.scene.n_heads) == (384, 12)
    assert ctx.scene.tokens[0] == "[CLS]" and ctx.scene.tokens[-1] == "[SEP]"
    assert i18n.t("realw.fixed", lang, layer=1, d=384, h=12, dk=32) in texts(at)
    shown = [at.sidebar.number_input(key=k) for k in ("realw_d_model", "realw_n_heads")]
    assert [(w.value, w.disabled) for w in shown] == [(384, True), (12, True)]
    assert i18n.t("realw.flat", lang, top=0, uniform=0)[:12] not in texts(at)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_step_page_names_the_real_previous_token_head(make_app, lang):
    at = run_page(make_app, "steps", source="minilm", lang=lang)
    shown = [e.value for e in at.success]
    sc = at.session_state["_ctx"].scene
    a = sc.weights[2]
    score = float(sum(a[i, i - 1] for i in range(1, sc.len_q)) / (sc.len_q - 1))
    assert shown == [i18n.t("realw.prev_head", lang, layer=1, head=3, score=score)]
    title = plotly_specs(at)[0]["layout"]["title"]["text"]
    assert plot_math(i18n.t("realw.head_title", lang, head=3, layer=1)) in title  # A_3 drawn as A<sub>3</sub>


def test_layer_choice_reaches_the_scene(make_app):
    at = run_page(make_app, "heads", source="minilm", layer=4)
    assert at.session_state["_ctx"].settings.layer == 4
    at.sidebar.number_input(key="layer").set_value(6).run()
    assert at.session_state["_ctx"].settings.layer == 6 and not at.exception


def test_own_sizes_come_back_with_random_weights(make_app):
    at = run_page(make_app, "heads", d_model=32, n_heads=4)
    at.sidebar.selectbox(key="source").set_value("minilm").run()
    assert at.session_state["_ctx"].scene.d_model == 384
    at.sidebar.selectbox(key="source").set_value("random").run()
    assert not at.exception
    s = at.session_state["_ctx"].settings
    assert (s.weight_source, s.d_model, s.n_heads) == ("random", 32, 4)


def test_random_weights_say_the_map_is_flat_and_offer_the_real_head(make_app):
    at = run_page(make_app, "steps")
    assert any(i18n.t("realw.flat", "en", top=0, uniform=0)[:40] in e.value for e in at.info)
    at.button(key="realw_try").click().run()
    assert not at.exception
    ctx = at.session_state["_ctx"]
    assert ctx.settings.real and ctx.settings.layer == 1
    assert "head 3" in at.success[0].value


def test_missing_model_shows_one_message_and_random_weights_work(make_app, monkeypatch):
    import ui.weight_source

    monkeypatch.setattr(ui.weight_source, "real_available", lambda: "missing")
    at = run_page(make_app, "steps", source="minilm", lang="zh")
    errors = [e.value for e in at.sidebar.error]
    assert errors == [i18n.t("realw.unavailable", "zh", detail=i18n.t("realw.reason.missing", "zh"),
                             command=INSTALL_COMMAND)]  # fmt: skip
    ctx = at.session_state["_ctx"]
    assert not ctx.settings.real and ctx.scene.d_model == 64 and plotly_specs(at)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_step_page_shows_the_padding_batch(make_app, lang):
    at = run_page(make_app, "steps", mask="padding", text_pad="A dog ran .", lang=lang)
    assert not at.error
    specs = plotly_specs(at)
    mask_fig = next(s for s in specs if i18n.t("padb.mask_title", lang) in s["layout"]["title"]["text"])
    assert [list(row) for row in mask_fig["data"][0]["z"]] == [[0.0] * 11, [0.0] * 4 + [1.0] * 7]
    ctx = at.session_state["_ctx"]
    assert ctx.scene.batch and len(ctx.scene.batch) == 2
    x_title = "X + P"
    x_fig = next(s for s in specs if s["layout"]["title"]["text"].startswith(x_title))
    assert len(x_fig["data"][0]["z"]) == 11  # the shorter sentence (the item shown first) padded to 11 tokens
    assert "[PAD]" in str(x_fig["layout"]["yaxis"])
    at.segmented_control(key="padb_item").set_value(0).run()
    assert not at.exception


def test_chosen_tokens_is_its_own_mask(make_app):
    at = run_page(make_app, "heads", mask="chosen", padded=[1, 2])
    assert not at.error
    sc = at.session_state["_ctx"].scene
    assert sc.mask[:, :, [1, 2]].all() and not sc.batch


def test_page_list_is_unchanged():
    assert {"inputs", "steps", "heads", "quiz"} <= set(PAGES)


def test_real_weights_on_a_chinese_sentence_say_which_tokens_are_unknown(make_app):
    at = run_page(make_app, "steps", source="minilm", preset="zh", text="小猫坐在垫子上，因为它累了。", lang="zh")
    sc = at.session_state["_ctx"].scene
    n = sc.tokens.count("[UNK]")
    assert n > 0 and i18n.t("realw.unknown", "zh", n=n, L=sc.len_q) in [c.value for c in at.caption]
