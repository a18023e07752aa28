"""Hostile and broken input through the whole pipeline: random text and settings (hypothesis) through validate,
the core and every figure builder; markup and script never executed in a real browser."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from explorer import Settings, run_scene, validate
from figures import attention_lines, matrix_heatmap, pe_curves, pe_heatmap, pe_similarity, query_bars, tiled_heads
from tests.browser import CHART, CHROMIUM, CHROMIUM_ARGS, streamlit_server, wait_idle

HOSTILE = [
    "<script>window.__pwned=1</script>",
    '<img src=x onerror="window.__pwned=1">',
    '<a href="javascript:window.__pwned=1">click</a>',
    "%{customdata} %{z} <br> &amp; &#60;b&#62;",
    "\x00\x07\x1b[31m red \u202e reversed \ufeff",
    "🙂🙃 猫 👩‍👩‍👧 الطيور",
]
TEXT = st.one_of(
    st.sampled_from(HOSTILE),
    st.text(min_size=0, max_size=80),
    st.lists(st.sampled_from([*HOSTILE, "the", "cat", "猫", "1e308", "nan", "-inf"]), max_size=70).map(" ".join),
)


def _assert_clean(fig) -> None:
    text = fig.to_json()
    for bad in ("<script", "<img", "<a href", "<a "):  # escaped to &lt;...: plotly shows it as text
        assert bad not in text, bad

    def refuse(constant: str) -> None:
        raise AssertionError(f"{constant} in the figure JSON")

    json.loads(text, parse_constant=refuse)  # no bare NaN / Infinity is ever drawn


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=TEXT, text_kv=TEXT, cross=st.booleans(),
    d_model=st.sampled_from([1, 2, 3, 4, 6, 8, 12, 16, 0, -4, 2048]), n_heads=st.sampled_from([1, 2, 3, 4, 5, 0, 99]),
    mask=st.sampled_from(["none", "causal", "padding", "chosen", "<script>"]), scale=st.booleans(),
    add_pe=st.booleans(),
    seed=st.integers(min_value=-5, max_value=2**40), padded=st.lists(st.integers(-3, 80), max_size=5),
    edit=st.one_of(st.none(), st.tuples(st.integers(-1, 5), st.integers(-1, 5),
                                        st.sampled_from([0.5, -3.0, 1e308, math.nan, math.inf, -math.inf]))),
)  # fmt: skip
def test_random_text_and_settings_never_escape_as_exceptions_or_nan(
    text, text_kv, cross, d_model, n_heads, mask, scale, add_pe, seed, padded, edit
):
    s = Settings(preset="custom", text=text, text_kv=text_kv, cross=cross, d_model=d_model, n_heads=n_heads,
                 mask=mask, scale=scale, add_pe=add_pe, seed=seed, padded=tuple(padded),
                 x_edits=() if edit is None else (edit,))  # fmt: skip
    problems = validate(s)
    if problems:
        assert all(p.code for p in problems)  # one of our translated messages, no exception
        return
    sc = run_scene(s)
    for arr in (sc.q, sc.k, sc.v, sc.weights, sc.head_outputs, sc.output):
        assert np.isfinite(arr).all()
    assert np.allclose(sc.weights.sum(-1)[~sc.mask.all(-1)], 1.0, atol=1e-4)
    for fig in (
        matrix_heatmap(sc.x_in, list(sc.tokens), None, title=text, lang="zh"),
        tiled_heads(sc.masked_scores, list(sc.tokens), list(sc.kv_tokens), kind="signed", title=text_kv),
        tiled_heads(sc.weights, list(sc.tokens), list(sc.kv_tokens), shared_scale=False),
        query_bars(sc.weights[:, 0], list(sc.kv_tokens), sc.labels[0]),
        attention_lines(sc.weights, list(sc.tokens), list(sc.kv_tokens), heads=list(range(sc.weights.shape[0]))),
        pe_curves(sc.p, [0]),
        pe_heatmap(sc.p),
        pe_similarity(sc.pe_sim),
    ):
        _assert_clean(fig)


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, 1e308, -1e308])
def test_non_finite_and_huge_cells_are_rejected_with_a_message(value):
    problems = validate(Settings(x_edits=((0, 0, value),)))
    assert problems and problems[0].code


def test_a_gigantic_sentence_is_refused_not_drawn():
    problems = validate(Settings(preset="custom", text="word " * 100_000))
    assert problems and problems[0].code


@pytest.mark.browser
def test_injected_markup_does_not_execute_in_the_browser():
    from playwright.sync_api import sync_playwright

    payload = " ".join(HOSTILE[:3])
    with streamlit_server() as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        dialogs = []
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        for path in ("heads", "steps", "inputs"):
            page.goto(f"{url}/{path}")
            wait_idle(page)
            area = page.get_by_role("textbox", name="Input sentence (queries)")
            area.fill(payload)
            area.press("Control+Enter")
            wait_idle(page)
            page.locator(CHART).first.wait_for(timeout=30_000)
            page.wait_for_timeout(500)
            assert page.evaluate("() => window.__pwned") is None
            assert page.locator(".mha-plot img[src='x']").count() == 0
            assert page.locator("a[href^='javascript:']").count() == 0
            ticks = " ".join(page.locator(".mha-plot .xtick text, .mha-plot .ytick text").all_text_contents())
            assert "<" in ticks and "script" in ticks  # the markup is shown as text
        assert not dialogs
        browser.close()


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    d_model=st.sampled_from([512, 1024]), n_heads=st.sampled_from([8, 16]), n_tokens=st.integers(40, 64),
    cross=st.booleans(), mask=st.sampled_from(["none", "causal", "padding"]), seed=st.integers(0, 2**31 - 1),
    word=st.sampled_from(["cat", "猫", "<b>x</b>", "%{z}"]),
)  # fmt: skip
def test_every_pages_figure_builders_stay_small_and_clean_at_the_largest_sizes(
    d_model, n_heads, n_tokens, cross, mask, seed, word
):
    """What /inputs, /steps, /heads, /positional and /subspaces draw, at random settings near the limits: every
    figure well under Streamlit's 50 MB message limit (figures/resolution.py), no markup, no NaN."""
    from mha_core import sinusoidal_positional_encoding, tokenize
    from mha_core.why import head_contributions, residual_layer_norm

    words = [f"{word}{i}" for i in range(n_tokens)]
    while len(tokenize(" ".join(words))) > 64:  # markup splits into several tokens: keep within the limit
        words.pop()
    text = " ".join(words)
    s = Settings(preset="custom", text=text, text_kv=text[: len(text) // 2], cross=cross, d_model=d_model,
                 n_heads=n_heads, mask=mask, seed=seed, padded=(0, 3) if mask == "padding" else ())  # fmt: skip
    assume(not validate(s))  # e.g. a padding batch with cross-attention is refused with its own message
    sc = run_scene(s)
    rows, cols = list(sc.tokens), list(sc.kv_tokens)
    figures = [
        matrix_heatmap(sc.x_in, rows, None, kind="signed"),  # /inputs, /steps
        matrix_heatmap(sc.w_q, None, None, kind="signed"),  # /inputs: W^Q at d_model > 8
        matrix_heatmap(sc.q_fused, rows, None, kind="signed"),  # /steps fused view
        matrix_heatmap(sc.output, rows, None, kind="signed"),
        *(tiled_heads(m, r, None, kind="signed") for m, r in ((sc.q, rows), (sc.k, cols), (sc.head_outputs, rows))),
        tiled_heads(sc.masked_scores, rows, cols, kind="signed"),  # /steps, /heads
        tiled_heads(sc.weights, rows, cols, shared_scale=False),
        query_bars(sc.weights[:, 0], cols, sc.labels[0]),
        attention_lines(sc.weights, rows, cols, heads=list(range(n_heads))),
        tiled_heads(head_contributions(sc.head_outputs, sc.w_o_heads), rows, None, kind="signed"),  # /subspaces
        matrix_heatmap(residual_layer_norm(sc.x_in, sc.output), rows, None, kind="signed"),
        pe_heatmap(sinusoidal_positional_encoding(256, 1024).numpy(), width_fraction=0.45),  # /positional maximum
    ]
    for fig in figures:
        _assert_clean(fig)
        assert len(fig.to_json()) < 8 * 1024 * 1024
