"""The lesson "Attention in today's LLMs" (lessons/llm.toml): its shape, every checkpoint answerable as a student
types it, the numbers its texts state checked against formulas written here, its handout's figures of the LLM pages
(at each page's opening controls, which AppTest reads from the pages themselves), and a run through its stops."""

from __future__ import annotations

import ast
import math
import re
from html import escape

import numpy as np
import pytest

import lessons
from explorer.decoding import run_decoding
from explorer.models import LLM_MODELS
from explorer.pipeline import run_scene
from explorer.presets import apply_preset
from explorer.quiz import answer_text, check_answer, feedback, render
from explorer.quiz_llm import LLM_KINDS, OWN_SIZES
from explorer.settings import Settings
from i18n import t
from lessons import handout_llm
from lessons.handout import handout_html
from tests.conftest import PAGES, ROOT
from tests.test_lesson_app import bar, start, texts

LESSON = lessons.get("llm")
LLM_PAGES = ("decoding", "sharing", "positions", "longcontext")


def both(stop_id: str) -> str:
    """Every text of a stop, English and Chinese, as one string."""
    s = LESSON.stop_by_id(stop_id)
    return " ".join(f(lang) for f in (s.title, s.task, s.notes) for lang in ("en", "zh"))


# ---------------------------------------------------------------- the lesson
def test_the_lesson_is_fifteen_to_twenty_minutes_on_the_llm_pages():
    assert 15 <= LESSON.minutes <= 20
    pages = [s.page for s in LESSON.stops]
    assert set(LLM_PAGES) <= set(pages)
    first = LESSON.stops[0]
    assert (first.page, first.step, first.settings.mask) == ("steps", 6, "causal")  # the notes' layer, as a decoder
    kinds = [s.checkpoint.kind for s in LESSON.checkpoints]
    assert len(set(kinds)) == len(kinds) >= 3 and set(kinds) <= set(LLM_KINDS)
    assert {s.page for s in LESSON.checkpoints} >= set(LLM_PAGES)  # a question on each of the four pages


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("stop", LESSON.checkpoints, ids=lambda s: s.id)
def test_each_checkpoint_is_answerable_as_a_student_types_it(stop, lang):
    q = lessons.question(stop, lang)
    r = render(q, lang)
    assert q.kind in OWN_SIZES and r["prompt"] and (lang == "en" or re.search(r"[\u4e00-\u9fff]", r["prompt"]))
    assert check_answer(q, q.answer)
    if q.answer_type == "choice":  # picked by its index; the one right option
        assert [check_answer(q, i) for i in range(len(q.options))].count(True) == 1
        return
    assert check_answer(q, answer_text(q, lang)) and check_answer(q, answer_text(q, lang).replace(",", ""))
    for trap in q.traps:  # every known slip is refused, with its own explanation
        if abs(float(trap.value) - float(q.answer)) > q.tolerance:
            assert not check_answer(q, trap.value) and feedback(q, trap.value) == trap.explain


def test_the_checkpoints_ask_what_their_stops_show():
    """The questions fit their stops: the decoding step of 10 keys, the model of the table, RoPE moved by the
    page's s, a window the page's sliders can set, and an update that rescales the old running sum."""
    answers = {s.id: lessons.question(s) for s in LESSON.checkpoints}
    assert answers["kv-cache"].answer == 10
    run = run_decoding(LESSON.stop_by_id("kv-cache").settings.text, handout_llm.DECODE_NEW)
    assert run.steps[9].weights.shape[-1] == 10  # (layers, h, 10): step 10's new row has 10 keys
    kv = answers["real-cache"].prompt.args
    assert kv["model"].startswith("Llama-2-70B") and kv["L"] == 2048
    rope = answers["rope-shift"]
    assert rope.prompt.key.endswith("prompt_rope") and rope.prompt.args["s"] == handout_llm.SHIFT
    w = answers["windows"].prompt.args
    assert 1 <= w["w"] <= 16 and 1 <= w["n"] <= 6 and answers["windows"].answer == w["n"] * (w["w"] - 1)
    o = answers["online-softmax"].prompt.args
    assert float(o["b2"]) > float(o["m1"])  # the second block brings the larger max: l so far is rescaled


def test_the_numbers_the_lesson_states_are_computed():
    """Each number a text of the lesson states, from the published sizes and the formulas, computed here."""
    by_name = {m.name.split(" (")[0]: m for m in LLM_MODELS}

    def kib_per_token(name: str) -> float:
        m = by_name[name]
        return 2 * m.layers * m.n_kv_heads * m.d_k * 2 / 1024  # K and V, every layer, g heads of d_k, 2 bytes

    assert kib_per_token("Llama-2-70B") == 320 and kib_per_token("Llama-2-7B") == 512
    assert "320 KiB" in both("real-cache") and "512 KiB" in both("real-cache")
    assert 320 * 2048 / 1024 == 640 and "640 MiB" in both("real-cache")
    m70 = by_name["Llama-2-70B"]
    assert (m70.n_heads, m70.n_kv_heads) == (64, 8) and "8 times smaller" in both("shared-kv")

    def never_turned(d_k: int, trained: int) -> int:  # pair j turns by (trained - 1) * 10000^(-2j/d_k) at the end
        return sum((trained - 1) * 10000 ** (-2 * j / d_k) < 2 * math.pi for j in range(d_k // 2))

    assert never_turned(64, 512) == 16 and never_turned(64, 4096) == 9
    assert "16 of RoPE's 32" in both("alibi-beyond") and "9 of the 32" in both("alibi-beyond")
    slopes = [2 ** (-8 * i / 8) for i in range(1, 9)]
    assert slopes[0] == 0.5 and f"{slopes[-1]:.2g}" == "0.0039" and "0.0039" in both("alibi-beyond")
    assert 32 * (4096 - 1) == 131_040 and "131,040" in both("windows")
    assert 3 * (4 - 1) == 9 and "9 in all" in both("windows")  # the page opens at w = 4 and three layers
    score_bytes = [8 * n * n * 4 for n in (1024, 131072)]  # h = 8 float32 score matrices of one layer
    assert score_bytes == [32 * 2**20, 512 * 2**30] and "32 MiB" in both("online-softmax")
    assert "512 GiB" in both("online-softmax")


# ---------------------------------------------------------------- the handout
def section(html: str, stop: lessons.Stop, lang: str) -> str:
    """The handout's section of one stop: from its heading to the next stop (or the answer key)."""
    start_at = html.index("<h2>" + escape(t("handout.stop", lang, n=stop.number, title=stop.title(lang))))
    end = html.find('<section class="stop">', start_at)
    return html[start_at: end if end > 0 else html.index('<section class="answers"')]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_handout_draws_every_llm_page_once_with_its_own_numbers(lang):
    html = handout_html(LESSON, lang)
    first_of = {}
    for stop in LESSON.stops:
        part = section(html, stop, lang)
        if stop.page in first_of:
            assert part.count("<figure>") == 0 and f"{first_of[stop.page]}" in part  # "the figure of stop n"
            continue
        first_of[stop.page] = stop.number
        figure = part[part.index("<figure>"): part.index("</figure>")]
        assert "<svg" in figure, stop.id
        if stop.page in LLM_PAGES:
            assert "<table>" in figure, stop.id
    decoding = section(html, LESSON.stop_by_id("kv-cache"), lang)
    c = run_decoding(LESSON.stop_by_id("kv-cache").settings.text, handout_llm.DECODE_NEW).config
    assert f"h = {c.n_heads}" in decoding and f"g = {c.kv_heads}" in decoding and f"d_model = {c.d_model}" in decoding
    # ALiBi, head 1 of 8: m = 2^-1, so a key 10 back costs 5
    assert "<td>−5</td>" in section(html, LESSON.stop_by_id("rope-shift"), lang)
    # the last block's running sum is the softmax's denominator of that row: computed here from the scores
    s = LESSON.stop_by_id("windows").settings
    sc = run_scene(s)
    q, k = np.asarray(sc.q[0], float), np.asarray(sc.k[0], float)
    row = q[-1] @ k.T * sc.scale_factor  # (L,): the last query sees every key
    denominator = np.exp(row - row.max()).sum()
    assert f"<td>{denominator:.3f}</td>" in section(html, LESSON.stop_by_id("windows"), lang)


def page_literal(page: str, name: str) -> object:
    """A constant of a page's file (its source read, not run: importing a page draws it)."""
    tree = ast.parse((ROOT / PAGES[page]).read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                names = [e.id for e in target.elts] if isinstance(target, ast.Tuple) else [getattr(target, "id", "")]
                if name in names:
                    value = ast.literal_eval(node.value)
                    return value[names.index(name)] if isinstance(target, ast.Tuple) else value
    raise LookupError(name)


def test_the_handouts_opening_controls_are_the_pages(make_app):
    """The handout draws each LLM page as it opens: its controls' first values, read from the pages here."""
    at = start(make_app, page="decoding")
    assert at.session_state["decode_new"] == handout_llm.DECODE_NEW
    steps = run_decoding(apply_preset(Settings(), "en").text, handout_llm.DECODE_NEW).steps
    assert at.session_state["decode_step"] == len(steps) and at.session_state["decode_layer"] == 1
    at.switch_page(PAGES["sharing"]).run()
    assert at.session_state["share_g"] == handout_llm.opening_g(8)
    at.switch_page(PAGES["positions"]).run()
    got = [at.session_state[k] for k in ("pos_head", "pos_shift", "pos_trained", "pos_dk")]
    assert got == [handout_llm.POS_HEAD + 1, handout_llm.SHIFT, handout_llm.TRAINED, handout_llm.BEYOND_DK]
    at.switch_page(PAGES["longcontext"]).run()
    got = [at.session_state[k] for k in ("long_length", "long_window", "long_layers", "long_block", "long_head",
                                         "long_tile")]  # fmt: skip
    assert got == [handout_llm.WINDOW_LENGTH, handout_llm.WINDOW, handout_llm.WINDOW_LAYERS, handout_llm.BLOCK,
                   handout_llm.TILE_HEAD + 1, handout_llm.TILE]  # fmt: skip
    assert not at.exception
    assert page_literal("positions", "TRAINED") == handout_llm.TRAINED_LENGTHS
    assert page_literal("longcontext", "LENGTHS") == handout_llm.LENGTHS


# ---------------------------------------------------------------- the lesson in the app
def test_next_through_the_lesson_shows_each_stops_page_bar_and_checkpoint(make_app):
    at = start(make_app, {"lesson": LESSON.id})
    at.button(key="lesson_start").click().run()
    for stop in LESSON.stops:
        assert not at.exception, [e.value for e in at.exception]
        assert f"stop {stop.number} of {len(LESSON.stops)}" in bar(at)
        assert at.query_params["stop"] == str(stop.number) and at.query_params["lesson"] == LESSON.id
        assert at.session_state["mask"] == "causal"
        assert at.title[0].value.startswith(t(f"page.{stop.page}"))  # the stop's page is drawn
        assert stop.task("en").split("\n")[0][:40] in texts(at)
        own = "This question names every size it uses"
        assert (own in texts(at)) == (stop.checkpoint is not None), stop.id
        if stop.checkpoint is not None:
            assert render(lessons.question(stop))["prompt"][:40] in texts(at).replace("\\", "")
        key = "lesson_next_top" if stop.number < len(LESSON.stops) else "lesson_finish_top"
        at.button(key=key).click().run()
    assert at.title[0].value == f"Lessons: {LESSON.title('en')}"
    assert not at.exception


def test_a_chinese_stop_of_the_lesson_speaks_chinese(make_app):
    stop = LESSON.stop_by_id("rope-shift")
    at = start(make_app, {"lesson": LESSON.id, "stop": str(stop.number), "lang": "zh"}, page="positions")
    shown = texts(at).replace("\\", "")
    assert stop.task("zh")[:30] in shown and f"第 {stop.number} 站 / 共 {len(LESSON.stops)} 站" in shown
    assert render(lessons.question(stop, "zh"), "zh")["prompt"][:20] in shown
    assert stop.task("en")[:30] not in shown and "这道题写明了" in shown
