"""The self-paced lesson in a real browser: Next through a whole lesson, a checkpoint answered, a page of one's
own and a reload there (the place in the lesson is kept), the end; and quiz answers kept by a reload on any page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import lessons
from explorer.quiz import answer_text
from tests.browser import CHROMIUM, CHROMIUM_ARGS, streamlit_server, wait_idle

pytestmark = pytest.mark.browser

if not Path(CHROMIUM).exists():
    pytest.fail(f"Chromium not found at {CHROMIUM}; run `bash .ci/run` to install it", pytrace=False)


@pytest.fixture(scope="module")
def server():
    with streamlit_server() as url:
        yield url


@pytest.fixture
def page(server):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        p = b.new_context(viewport={"width": 1280, "height": 900}, locale="en-US").new_page()
        p.base = server
        yield p
        b.close()


def bar(page) -> str:
    return page.locator(".st-key-lesson_bar").inner_text()


def click(page, name: str) -> None:
    page.locator(".st-key-lesson_bar").get_by_role("button", name=name).click()
    wait_idle(page)


def path(page) -> str:
    """The page's url_path ("" is the home page, the default)."""
    return re.sub(r"^https?://[^/]+/", "", page.url).split("?")[0] or "home"


def no_error(page) -> None:
    assert page.locator("[data-testid='stException']").count() == 0


def test_next_through_a_whole_lesson_with_a_checkpoint_and_a_reload_elsewhere(page):
    lesson = lessons.get("mha45")
    n = len(lesson.stops)
    page.goto(f"{page.base}/lesson?lesson=mha45")
    wait_idle(page)
    assert "Multi-head attention in 45 minutes" in page.locator("h1").first.inner_text()
    page.get_by_role("button", name="Start at stop 1").click()
    wait_idle(page)
    for stop in lesson.stops:
        assert path(page) == stop.page, (stop.number, page.url)
        assert f"stop={stop.number}" in page.url and "lesson=mha45" in page.url
        assert f"stop {stop.number} of {n}" in bar(page) and stop.title("en") in bar(page)
        if stop.page == "steps":  # the stop's one step, not nine
            assert page.locator("h2[id^='step-']").count() == 1
        no_error(page)
        if stop.id == "one-head":  # the checkpoint: typed, revealed, right
            q = lessons.question(stop)
            page.get_by_label("Your number (e.g. 0.25)").fill(answer_text(q))
            page.get_by_label("Your number (e.g. 0.25)").press("Enter")
            wait_idle(page)
            page.get_by_role("button", name="Reveal").click()
            wait_idle(page)
            assert page.get_by_text("Right:").count() >= 1 or page.get_by_text("Right").count() >= 1
            assert "la=" in page.url
        if stop.id == "projections":  # a page of one's own, a reload there, and back to the stop
            page.locator("[data-testid='stSidebarNav'] a[href$='/positional']").click()
            wait_idle(page)
            assert "stop=5" in page.url and "la=" in page.url
            page.reload()
            wait_idle(page)
            assert path(page) == "positional" and "stop 5 of 12" in bar(page)
            click(page, "Back to the stop (Step by step)")
            assert path(page) == "steps" and page.locator("h2[id^='step-']").count() == 1
        if stop.number < n:
            click(page, "Next stop")
    click(page, "Finish")
    assert path(page) == "lesson"
    info = page.get_by_text("Checkpoints revealed").inner_text()
    assert "1 of 7" in info and "1 right" in info
    page.reload()
    wait_idle(page)
    assert "1 right" in page.get_by_text("Checkpoints revealed").inner_text()
    no_error(page)


def test_a_tampered_lesson_link_gets_one_message(page):
    page.goto(f"{page.base}/lesson?lesson=nope")
    wait_idle(page)
    assert page.get_by_text("There is no lesson “nope”").count() == 1
    page.goto(f"{page.base}/heads?lesson=mha45&stop=999&la=zz~1:x")
    wait_idle(page)
    assert "stop 12 of 12" in bar(page)
    no_error(page)


def test_quiz_answers_survive_a_reload_on_another_page(page):
    page.goto(f"{page.base}/quiz")
    wait_idle(page)
    quiz_radio = page.locator("[data-testid='stMain'] [data-testid='stRadio']").first  # not the sidebar's radios
    quiz_radio.get_by_test_id("stRadioOption").first.click()
    wait_idle(page)
    page.get_by_role("button", name="Reveal").first.click()
    wait_idle(page)
    before = page.get_by_text("Revealed:").first.inner_text()
    assert "Revealed: 1" in before
    page.locator("[data-testid='stSidebarNav'] a[href$='/heads']").click()
    wait_idle(page)
    assert "qa=" in page.url, page.url
    page.reload()
    wait_idle(page)
    page.locator("[data-testid='stSidebarNav'] a[href$='/quiz']").click()
    wait_idle(page)
    assert page.get_by_text("Revealed:").first.inner_text() == before
    no_error(page)
