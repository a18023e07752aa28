"""The lesson "Attention in today's LLMs" in a real browser: Next through every stop in English at 1280 x 900 with a
typed and a picked checkpoint answered, and in Chinese on a 390 x 844 phone; and its printed handout, in both
languages, with the answer key on a page of its own (Chromium's PDF, read back with pdftotext when it is there)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

import lessons
from explorer.quiz import answer_text
from lessons.handout import handout_html
from tests.browser import CHROMIUM, streamlit_server, wait_idle
from tests.test_lesson_browser import bar, click, no_error, path

pytestmark = pytest.mark.browser

if not Path(CHROMIUM).exists():
    pytest.fail(f"Chromium not found at {CHROMIUM}; run `bash .ci/run` to install it", pytrace=False)

LESSON = lessons.get("llm")


@pytest.fixture(scope="module")
def server():
    with streamlit_server() as url:
        yield url


def open_page(browser, server, width: int, height: int, locale: str):
    p = browser.new_context(viewport={"width": width, "height": height}, locale=locale).new_page()
    p.base = server
    return p


def checkpoint_radio(page):
    """The checkpoint's options: the last radio group of the page's main area (the sidebar has its own)."""
    return page.locator("[data-testid='stMain'] [data-testid='stRadio']").last


def test_next_through_the_lesson_with_two_checkpoints_answered(browser, server):
    page = open_page(browser, server, 1280, 900, "en-US")
    n = len(LESSON.stops)
    page.goto(f"{server}/lesson?lesson=llm")
    wait_idle(page)
    assert LESSON.title("en") in page.locator("h1").first.inner_text()
    page.get_by_role("button", name="Start at stop 1").click()
    wait_idle(page)
    for stop in LESSON.stops:
        assert path(page) == stop.page, (stop.number, page.url)
        assert f"stop={stop.number}" in page.url and "lesson=llm" in page.url
        assert f"stop {stop.number} of {n}" in bar(page) and stop.title("en") in bar(page)
        if stop.page == "steps":
            assert page.locator("h2[id^='step-']").count() == 1  # the stop's one step, not nine
        assert page.get_by_test_id("stPlotlyChart").count() + page.locator(".mha-plot").count() >= 1, stop.id
        no_error(page)
        if stop.checkpoint is not None:
            assert page.get_by_text("This question names every size it uses").count() == 1
        q = lessons.question(stop) if stop.checkpoint is not None else None
        if stop.id == "kv-cache":  # typed
            box = page.get_by_label("Your number (e.g. 0.25)")
            box.fill(answer_text(q))
            box.press("Enter")
            wait_idle(page)
            page.get_by_role("button", name="Reveal").click()
            wait_idle(page)
            assert page.get_by_text("Right").count() >= 1 and "la=" in page.url
        if stop.id == "rope-shift":  # picked
            checkpoint_radio(page).get_by_text(answer_text(q), exact=True).click()
            wait_idle(page)
            page.get_by_role("button", name="Reveal").click()
            wait_idle(page)
            assert page.get_by_text("Right").count() >= 1
        if stop.number < n:
            click(page, "Next stop")
    click(page, "Finish")
    assert path(page) == "lesson"
    info = page.get_by_text("Checkpoints revealed").inner_text()
    assert f"2 of {len(LESSON.checkpoints)}" in info and "2 right" in info
    no_error(page)


def test_a_chinese_phone_goes_through_every_stop(browser, server):
    page = open_page(browser, server, 390, 844, "zh-CN")
    n = len(LESSON.stops)
    page.goto(f"{server}/lesson?lesson=llm&lang=zh&stop=1")
    wait_idle(page)
    for stop in LESSON.stops:
        page.goto(f"{server}/{stop.page}?lesson=llm&stop={stop.number}&lang=zh")
        wait_idle(page)
        assert f"第 {stop.number} 站 / 共 {n} 站" in bar(page) and stop.title("zh") in bar(page)
        no_error(page)
        wide = page.evaluate("() => document.documentElement.scrollWidth")
        assert wide <= 390 + 1, (stop.id, wide)  # nothing pushes the phone's page sideways


def pdf_text_pages(pdf: Path) -> list[str] | None:
    """The text of each printed page (pdftotext), or None where poppler's pdftotext is not installed."""
    tool = shutil.which("pdftotext")
    if tool is None:
        return None
    out = subprocess.run([tool, "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    return out.split("\f")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_printed_handout_has_every_stop_and_the_key_on_a_page_of_its_own(browser, tmp_path, lang):
    html = handout_html(LESSON, lang)
    src = tmp_path / f"llm-{lang}.html"
    src.write_text(html, encoding="utf-8")
    page = browser.new_page()
    page.goto(src.as_uri())
    assert page.evaluate("() => [...document.querySelectorAll('svg, table')].every(e => "
                         "e.getBoundingClientRect().right <= document.body.getBoundingClientRect().right + 1)")
    pdf = tmp_path / f"llm-{lang}.pdf"
    pdf.write_bytes(page.pdf(format="A4", print_background=True))
    pages = pdf_text_pages(pdf)
    if pages is None:
        pytest.skip("pdftotext (poppler-utils) is not installed: the PDF's text cannot be read back")
    pages = [re.sub(r"\s+", "", p) for p in pages if p.strip()]
    key = "参考答案" if lang == "zh" else "Answerkey"
    starts = [i for i, p in enumerate(pages) if p.startswith(key)]
    assert len(starts) == 1, "the answer key starts a page"
    key_at = starts[0]
    assert all(key not in p for p in pages[:key_at])
    before, after = "".join(pages[:key_at]), "".join(pages[key_at:])
    word = "检查题" if lang == "zh" else "Checkpoint"
    for number in range(1, len(LESSON.checkpoints) + 1):
        assert f"{word}{number}" in before and f"{word}{number}" in after
    for stop in LESSON.stops:
        assert re.sub(r"\s+", "", stop.title(lang))[:12] in before, stop.id
