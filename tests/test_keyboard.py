"""Keyboard only, as a student without a mouse (or with a screen reader) uses the app: the presentation's nine steps
and the quiz, with a visible focus at every stop and the focus on the new content after each action.

The helpers are in tests/a11y.py (`tab_to`, `press`, `focused`, `assert_focus_visible`), for the live class and the
lesson to reuse once they are merged."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.a11y import assert_focus_visible, focused, press, tab_to, wait_ready
from tests.browser import CHROMIUM, CHROMIUM_ARGS, streamlit_server

pytestmark = pytest.mark.browser

if not Path(CHROMIUM).exists():
    pytest.fail(f"Chromium not found at {CHROMIUM}; run `bash .ci/run` to install it", pytrace=False)

PROJECTOR = {"width": 1280, "height": 720}
SETTING = "mask=causal&d_model=32&n_heads=4&seed=7"  # small and quick, with a mask step that has a chart


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def server():
    with streamlit_server() as url:
        yield url


def open_page(browser, url: str, scheme: str = "light"):
    page = browser.new_context(viewport=PROJECTOR, color_scheme=scheme).new_page()
    page.goto(url)
    wait_ready(page)
    return page


def step_shown(page, expected: int | None = None) -> int:
    if expected is not None:
        page.get_by_text(f"Step {expected} of 9").first.wait_for(timeout=15_000)
    text = page.get_by_text(re.compile(r"Step \d+ of 9")).first.inner_text()
    return int(re.search(r"Step (\d+) of 9", text).group(1))


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_presentation_by_keyboard_alone(browser, server, scheme):
    page = open_page(browser, f"{server}/steps?present=true&{SETTING}", scheme)
    # the collapsed sidebar's 42 controls are out of the Tab order: Next comes within a few presses, every stop on
    # screen and ringed
    passed = tab_to(page, "Next step", limit=8)
    assert all(p["onScreen"] for p in passed), passed
    assert_focus_visible(page)
    press(page, "Enter")
    assert step_shown(page, 2) == 2
    now = focused(page)
    assert "Step 2 of 9" in now["text"], f"the focus did not move to the new step: {now}"
    assert_focus_visible(page)
    press(page, " ")  # the clicker's Space: the focus is on the step's line, not on a control
    assert step_shown(page, 3) == 3 and "Step 3 of 9" in focused(page)["text"]
    tab_to(page, "Previous", backwards=True, limit=3)
    assert_focus_visible(page)
    press(page, " ")  # Space on a focused Previous presses Previous (it went to "next step" before)
    assert step_shown(page, 2) == 2
    for n in range(3, 10):  # Tab to Next and press it, to the last step
        tab_to(page, "Next step", limit=3)
        press(page, "Enter")
        assert step_shown(page, n) == n
        now = focused(page)
        assert f"Step {n} of 9" in now["text"], f"step {n}: the focus is on {now}"
    assert page.locator(".st-key-step_next button").is_disabled()
    page.context.close()


def test_quiz_by_keyboard_alone(browser, server):
    page = open_page(browser, f"{server}/quiz?{SETTING}")
    # a question to choose from: Tab to its first option, Space chooses it, Tab to Reveal, Enter
    group = page.locator("[data-testid='stMain'] [role='radiogroup']").first
    option = group.locator("label").first.inner_text().strip()
    tab_to(page, option[:25], limit=150)
    assert_focus_visible(page)
    press(page, "Space")
    tab_to(page, "Reveal", limit=6)
    assert_focus_visible(page)
    press(page, "Enter")
    now = focused(page)
    assert now["tag"] != "body" and re.search(r"Right|Not this one", now["text"]), (
        f"the focus did not move to the verdict: {now}")
    assert now["onScreen"]
    assert_focus_visible(page)
    # Tab goes on from the verdict (the "other options" of this question, then the next one), not from the top
    verdict_top = page.evaluate("() => document.activeElement.getBoundingClientRect().top")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.getBoundingClientRect().top") >= verdict_top
    assert_focus_visible(page)
    # a question to type into: the number box, then Reveal
    tab_to(page, "Your number", limit=40)
    assert_focus_visible(page)
    page.keyboard.type("0.25")
    tab_to(page, "Reveal", limit=3)
    press(page, "Enter")
    now = focused(page)
    assert re.search(r"Right|Not this one|I can read", now["text"]), f"the focus is on {now}"
    page.context.close()
