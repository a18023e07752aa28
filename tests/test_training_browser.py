"""The training lab in a real browser: training shows live progress and the Stop button stops it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.browser import CHROMIUM, CHROMIUM_ARGS, streamlit_server, wait_idle

pytestmark = pytest.mark.browser

if not Path(CHROMIUM).exists():  # .ci/run installs it; fail loudly rather than skip silently in CI
    pytest.fail(f"Chromium not found at {CHROMIUM}; run `bash .ci/run` to install it", pytrace=False)


@pytest.fixture(scope="module")
def page():
    from playwright.sync_api import sync_playwright

    with streamlit_server() as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="en-US").new_page()
        page.goto(f"{url}/lab")
        wait_idle(page)
        yield page
        browser.close()


def test_stop_ends_a_long_training_early_and_keeps_the_model(page):
    from playwright.sync_api import expect

    steps = page.get_by_test_id("stNumberInput").filter(has_text="Training steps").locator("input")
    steps.fill("2000")
    steps.press("Enter")
    wait_idle(page)
    page.get_by_test_id("stMainBlockContainer").get_by_test_id("stBaseButton-primary").click()  # Train
    page.get_by_text(re.compile(r"Step \d+ of 2000")).wait_for(timeout=60_000)  # live progress
    expect(page.locator(".mha-plot")).to_have_count(2, timeout=30_000)  # the live curves
    page.get_by_role("button", name="Stop", exact=True).click()
    page.get_by_text(re.compile(r"Stopped at step \d+ of 2000")).wait_for(timeout=60_000)
    wait_idle(page)
    stopped_at = int(re.search(r"Stopped at step (\d+)", page.get_by_text("Stopped at step").inner_text())[1])
    assert 0 < stopped_at < 2000
    expect(page.locator(".mha-plot")).to_have_count(6, timeout=30_000)  # the stopped model's results
    assert page.locator("[data-testid='stException']").count() == 0
    train = page.get_by_test_id("stMainBlockContainer").get_by_test_id("stBaseButton-primary")
    assert train.is_enabled()  # Train can be pressed again
