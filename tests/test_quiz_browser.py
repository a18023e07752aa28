"""The quiz in a real browser: answers and reveals survive a page switch through the sidebar and a reload."""

from __future__ import annotations

from pathlib import Path

import pytest

from explorer import Settings, run_scene
from explorer.quiz import draw_question, make_questions
from tests.browser import CHROMIUM, CHROMIUM_ARGS, streamlit_server, wait_idle

pytestmark = pytest.mark.browser

if not Path(CHROMIUM).exists():
    pytest.fail(f"Chromium not found at {CHROMIUM}; run `bash .ci/run` to install it", pytrace=False)


@pytest.fixture(scope="module")
def page():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw, streamlit_server() as url:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        p = b.new_context(viewport={"width": 1400, "height": 1000}, locale="en-US").new_page()
        p.goto(f"{url}/quiz")
        wait_idle(p)
        yield p
        b.close()


QUIZ_RADIO = "[data-testid='stMain'] [data-testid='stRadio']"


def score(page) -> str:
    return page.get_by_text("Revealed:").first.inner_text()


def test_answers_survive_a_page_switch_and_a_reload(page):
    q = draw_question("d_k", Settings(), seed=0)
    d, h = q.prompt.args["d"], q.prompt.args["h"]
    # every number box drawn before typing into the first (d_k is question 1): under load a page still being drawn
    # can show a later card's box first
    n_boxes = sum(x.answer_type == "number" for x in make_questions(run_scene(Settings()), 0))
    label = "Your number (e.g. 0.25)"
    page.wait_for_function(f"() => document.querySelectorAll('input[aria-label=\"{label}\"]').length === {n_boxes}")
    box = page.get_by_label(label).first
    box.fill(str(d // h))
    box.press("Enter")
    wait_idle(page)
    page.get_by_role("button", name="Reveal").first.click()
    wait_idle(page)
    assert "Revealed: 1" in score(page) and "right: 1" in score(page)
    radio = page.locator(QUIZ_RADIO).first  # a question's options (the sidebar has radios too: Screen, Mask)
    radio.get_by_test_id("stRadioOption").first.click()
    wait_idle(page)
    assert "qa=" in page.url and "quiz=0" in page.url

    page.locator("[data-testid='stSidebarNav'] a[href$='/steps']").click()
    wait_idle(page)
    page.locator("[data-testid='stSidebarNav'] a[href$='/quiz']").click()
    wait_idle(page)
    assert "Revealed: 1" in score(page) and "right: 1" in score(page)
    assert page.locator(QUIZ_RADIO).first.locator("input:checked").count() == 1
    assert page.get_by_text("No answer given").count() == 0

    page.reload()
    wait_idle(page)
    page.wait_for_selector(QUIZ_RADIO)
    assert "Revealed: 1" in score(page) and "right: 1" in score(page)
    assert page.locator(QUIZ_RADIO).first.locator("input:checked").count() == 1
    assert page.locator("[data-testid='stException']").count() == 0
