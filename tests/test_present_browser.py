"""Presentation mode at a 1280 x 720 projector: every step fits the screen, the clicker keys move between steps,
and the student link opens the same step and numbers without presentation mode, in the teacher's language."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.browser import CHROMIUM, streamlit_server, wait_idle

pytestmark = pytest.mark.browser

if not Path(CHROMIUM).exists():
    pytest.fail(f"Chromium not found at {CHROMIUM}; run `bash .ci/run` to install it", pytrace=False)

VIEWPORT = {"width": 1280, "height": 720}
# a causal mask, so that the mask step has a chart too; d_model 32 keeps the run quick
SETTING = "mask=causal&d_model=32&n_heads=4&seed=7"


@pytest.fixture(scope="module")
def server():
    with streamlit_server() as url:
        yield url


def open_page(browser, url: str, locale: str = "en-US"):
    page = browser.new_context(viewport=VIEWPORT, locale=locale).new_page()
    page.goto(url)
    wait_idle(page)
    return page


def step_number(page) -> int:
    text = page.get_by_text(re.compile(r"Step \d+ of 9")).first.inner_text()
    return int(re.search(r"Step (\d+) of 9", text).group(1))


def wait_for_step(page, n: int) -> None:
    page.get_by_text(f"Step {n} of 9").first.wait_for(timeout=15_000)
    wait_idle(page)


def inside_viewport(box: dict | None) -> bool:
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= VIEWPORT["height"] + 0.5 \
        and box["x"] >= 0 and box["x"] + box["width"] <= VIEWPORT["width"] + 0.5


def visible_charts(page) -> list:
    """The charts on screen (not those folded into a step's expander)."""
    return [c for c in page.locator(".mha-plot").all() if c.is_visible()]


def test_every_step_fits_the_screen_and_the_keys_move_between_steps(browser, server):
    page = open_page(browser, f"{server}/steps?present=true&{SETTING}")
    assert page.locator("h1").count() == 0, "the page title repeats on every step"
    keys = ["ArrowRight", "PageDown", " ", "ArrowRight", "PageDown", " ", "ArrowRight", "PageDown"]
    charts_seen = 0
    for n in range(1, 10):
        assert step_number(page) == n
        assert parse_qs(urlsplit(page.url).query).get("step") == [str(n)], "the step is not in the link"
        next_button = page.locator(".st-key-step_next button")
        assert inside_viewport(next_button.bounding_box()), f"step {n}: Next is not on screen"
        if n != 3:  # the chart element mounts once its component's script has loaded: wait for it
            page.locator(".mha-plot").first.wait_for(state="visible", timeout=30_000)
            wait_idle(page)
        shown = visible_charts(page)
        if n == 3:  # split into heads: its table of shapes, in two halves side by side, on screen
            tables = page.locator("[data-testid='stTable']").all()
            assert len(tables) == 2 and all(inside_viewport(tb.bounding_box()) for tb in tables), "step 3 spills"
        if n != 3:  # step 3 (split into heads) is a table of shapes; every other step shows its chart
            assert shown and shown[0].bounding_box()["height"] > 200, f"step {n}: no chart on screen"
        for chart in shown:
            charts_seen += 1
            assert inside_viewport(chart.bounding_box()), f"step {n}: a chart reaches beyond 1280 x 720"
        if n < 9:
            page.evaluate("document.activeElement && document.activeElement.blur()")  # keys go to the page
            page.keyboard.press(keys[n - 1])
            wait_for_step(page, n + 1)
    assert charts_seen >= 7, "steps without their charts"
    assert page.locator(".st-key-step_next button").is_disabled()
    for key, expected in (("ArrowLeft", 8), ("PageUp", 7), ("Shift+Space", 6)):
        page.keyboard.press(key)
        wait_for_step(page, expected)
    page.context.close()


def test_step_3_fits_in_chinese_too_with_a_batch(browser, server):
    page = open_page(browser, f"{server}/steps?present=true&step=3&lang=zh&mask=padding", locale="zh-CN")
    page.get_by_text("第 3 步").first.wait_for(timeout=15_000)
    tables = page.locator("[data-testid='stTable']").all()
    assert len(tables) == 2 and all(inside_viewport(tb.bounding_box()) for tb in tables)
    assert "2 × 11 × 64" in tables[0].inner_text()  # the batch of two sentences
    page.context.close()


def test_the_student_link_opens_the_same_step_and_numbers_without_presentation(browser, server):
    teacher = open_page(browser, f"{server}/steps?present=true&step=4&{SETTING}")
    teacher.locator("[data-testid='stExpandSidebarButton']").click()
    teacher.get_by_text("Share & export").click()
    code = teacher.locator("[data-testid='stSidebar'] [data-testid='stCode'] code").first
    code.wait_for()
    link = code.inner_text().strip()
    teacher.context.close()
    query = parse_qs(urlsplit(link).query)
    assert query["lang"] == ["en"] and query["step"] == ["4"]
    assert "present" not in query and "large" not in query
    assert query["d_model"] == ["32"] and query["n_heads"] == ["4"] and query["mask"] == ["causal"]

    # a student's phone with a Chinese browser: still English, no presentation mode, the class's step on screen
    student = open_page(browser, link, locale="zh-CN")
    assert "Step by step" in student.locator("h1").first.inner_text()
    assert student.locator(".st-key-step_next").count() == 0, "presentation mode is on"
    heading = student.locator("#step-4")
    student.wait_for_timeout(1000)
    box = heading.bounding_box()
    assert box is not None and 0 <= box["y"] < VIEWPORT["height"], "the link does not open at step 4"
    if student.locator("[data-testid='stExpandSidebarButton']").is_visible():
        student.locator("[data-testid='stExpandSidebarButton']").click()
    assert student.locator(".st-key-d_model input").input_value() == "32"
    assert student.locator(".st-key-n_heads input").input_value() == "4"
    assert student.locator(".st-key-seed input").input_value() == "7"
    student.context.close()


def test_the_dark_screen_can_be_chosen_and_stays_in_the_link(browser, server):
    page = browser.new_context(viewport={"width": 1440, "height": 900}, color_scheme="light").new_page()
    page.goto(f"{server}/heads")
    wait_idle(page)
    background = "() => getComputedStyle(document.querySelector('[data-testid=stApp]')).backgroundColor"
    assert page.evaluate(background) == "rgb(255, 255, 255)"
    page.locator(".st-key-theme").get_by_text("Dark").click()
    page.wait_for_url(re.compile(r"theme=dark"), timeout=15_000)
    page.wait_for_timeout(1500)  # ui/theme.js reloads into the dark theme
    wait_idle(page)
    assert page.evaluate(background) == "rgb(14, 17, 23)"
    assert "theme=dark" in page.url
    paper = page.locator(".st-key-heads_tiled .mha-plot").evaluate("e => e._fullLayout.paper_bgcolor")
    assert paper == "#0e1117", "the figures kept their light background"
    page.context.close()


def test_worked_prints_as_a_handout(browser, server):
    page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    page.goto(f"{server}/worked")
    wait_idle(page)
    page.wait_for_function(  # the page's stylesheet (ui/handout.py) is in place
        "() => [...document.querySelectorAll('style')].some(s => s.textContent.includes('@media print'))")
    page.emulate_media(media="print")
    assert not page.locator("[data-testid='stSidebar']").is_visible()
    assert not page.locator(".stSelectbox").first.is_visible()
    assert not page.locator(".stToggle").first.is_visible()
    main_width = page.locator("[data-testid='stMain']").bounding_box()["width"]
    for eq in page.locator(".katex-display > .katex").all():  # no equation wider than the page
        assert eq.bounding_box()["width"] <= main_width + 1
    pdf = page.pdf(format="A4")
    assert pdf.startswith(b"%PDF") and len(pdf) > 10_000
    page.context.close()
