"""The printable handout: both languages, every stop and checkpoint, figures as inline SVG drawn from the Scene (no
script, nothing from the network), and in Chromium's print the answer key starts on a page of its own."""

from __future__ import annotations

import re
from html import escape
from pathlib import Path

import numpy as np
import pytest

import lessons
from explorer import run_scene
from explorer.quiz import render
from figures.svg import colour, heatmap_svg, tiles_svg
from lessons.handout import handout_html, md_html
from lessons.html import math_html, rich_text
from tests.browser import CHROMIUM, CHROMIUM_ARGS

BUILT_IN = lessons.catalog().lessons


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("lesson", BUILT_IN, ids=lambda le: le.id)
def test_the_handout_holds_every_stop_question_and_answer(lesson, lang):
    html = handout_html(lesson, lang)
    assert html.startswith("<!doctype html>") and f'lang="{"zh-Hans" if lang == "zh" else "en"}"' in html
    for stop in lesson.stops:
        assert escape(stop.title(lang)) in html
        assert stop.notes(lang)[:30] not in html  # speaker notes only in the teacher's copy
    key = html[html.index('class="answers"'):]
    for stop in lesson.checkpoints:
        r = render(lessons.question(stop, lang), lang)
        assert rich_text(r["prompt"]) in html[: html.index('class="answers"')]
        assert rich_text(r["answer_text"]) in key
    assert key.count("<li>") == len(lesson.checkpoints)
    assert html.count('class="question"') == len(lesson.checkpoints)


def test_the_handout_works_offline_and_has_no_script():
    html = handout_html(lessons.get("mha45"), "en")
    assert "<script" not in html.lower()
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html), "the handout must not fetch anything"
    assert html.count("<svg") >= 8
    assert "break-before: page" in html


def test_the_teachers_copy_has_the_speaker_notes():
    lesson = lessons.get("why-heads")
    html = handout_html(lesson, "zh", notes=True)
    assert all(s.notes("zh")[:20] in html for s in lesson.stops)
    assert "教师版" in html


def test_a_figure_shows_the_stops_own_numbers():
    """The worked example's stop prints the computed Q_i (1.45 where note 001 prints −0.05) and its weights."""
    stop = lessons.get("mha45").stop_by_id("worked-example")
    sc = run_scene(stop.settings)
    html = handout_html(lessons.get("mha45"), "en")
    section = html[html.index(escape(stop.title("en"))):]
    section = section[: section.index('class="question"')]
    assert "1.45" in section and "−0.05" not in section
    for w in sc.weights.ravel():
        assert f"{w:.2f}" in section


def test_svg_heatmap_draws_every_cell_with_its_colour_and_number():
    m = np.array([[0.25, 0.75], [1.0, 0.0]])
    svg = heatmap_svg(m, ["a", "b"], ["x", "y"], kind="weights", title="t <1>")
    assert svg.count("<rect") == 4 + 1 + 24 + 1  # cells, the tile's frame, the legend's steps and its frame
    for v in m.ravel():
        assert f">{v:.2f}<" in svg
        assert "#{:02x}{:02x}{:02x}".format(*colour(v, "weights", 1.0)) in svg
    assert "t &lt;1&gt;" in svg and "<title>" in svg


def test_svg_masked_cells_say_minus_infinity_and_signed_scale_is_symmetric():
    m = np.array([[1.0, -np.inf], [-2.0, 0.5]])
    svg = tiles_svg(m[None], ["q0", "q1"], ["k0", "k1"], ["head 1"], kind="signed")
    assert "−∞" in svg and ">−2.00<" in svg
    assert colour(2.0, "signed", 2.0) == (178, 24, 43) and colour(-2.0, "signed", 2.0) == (33, 102, 172)
    assert colour(0.0, "signed", 2.0) == (247, 247, 247)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("lesson", BUILT_IN, ids=lambda le: le.id)
def test_the_handout_prints_math_and_links_not_their_source(lesson, lang):
    """Paper has no KaTeX: the texts' inline math ($W_i^Q$) prints as sub/superscripts, a link as its words."""
    html = re.sub(r"<style>.*?</style>", "", handout_html(lesson, lang, notes=True), flags=re.S)
    assert "$" not in html and "\\" not in html and "](" not in html


def test_inline_math_for_paper():
    assert math_html(r"W_i^Q") == "W<sub>i</sub><sup>Q</sup>"
    assert math_html(r"Q_i K_i^\top / \sqrt{d_k}") == "Q<sub>i</sub> K<sub>i</sub><sup>T</sup> / √d<sub>k</sub>"
    assert math_html(r"4\, d_\text{model}^2") == "4 d<sub>model</sub><sup>2</sup>"
    assert math_html(r"\mathbb{R}^{d_\text{model}}") == "ℝ<sup>d<sub>model</sub></sup>"
    assert math_html(r"\sqrt{L \cdot d_k}") == "√(L · d<sub>k</sub>)"
    assert rich_text("see [the erratum](errata?erratum=x): a < $b_1$") == "see the erratum: a &lt; b<sub>1</sub>"


def test_markdown_subset():
    html = "<p>a <strong>b</strong> <code>c</code></p><ul><li>x</li><li><em>y</em></li></ul>"
    assert md_html("a **b** `c`\n\n- x\n- *y*") == html
    assert md_html("<script>") == "<p>&lt;script&gt;</p>"


def pdf_pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page\b", pdf))


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_printed_the_answer_key_starts_a_page_of_its_own(tmp_path, lang):
    """Chromium prints the handout to PDF: the handout's header and its key, each of which fits half a page, print
    on two pages (without the page break, on one)."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium not found at {CHROMIUM}", pytrace=False)
    from playwright.sync_api import sync_playwright

    html = handout_html(lessons.get("why-heads"), lang)
    # the header (objectives) and the key only: the key would fit on the header's page if it did not start a page
    html = html[: html.index('<section class="stop">')] + html[html.index('<section class="answers"'):]
    start = html.index('<section class="answers"')
    end = html.index("</section>", start) + len("</section>")
    parts = {"whole": html, "no_key": html[:start] + html[end:],
             "key_only": html[: html.index("<body>") + 6] + html[start:end] + "</body></html>"}  # fmt: skip
    pages = {}
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = b.new_page()
        for name, text in parts.items():
            (tmp_path / f"{name}.html").write_text(text, encoding="utf-8")
            page.goto((tmp_path / f"{name}.html").as_uri())
            pages[name] = pdf_pages(page.pdf(format="A4", print_background=True))
            if name == "whole":  # nothing was cut: every figure fits the printed width
                assert page.evaluate("() => [...document.querySelectorAll('svg')].every(s => "
                                     "s.getBoundingClientRect().right <= document.body.getBoundingClientRect().right)")
        b.close()
    assert pages["no_key"] == pages["key_only"] == 1, pages  # each fits one page on its own
    assert pages["whole"] == 2, pages
