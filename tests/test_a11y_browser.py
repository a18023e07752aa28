"""What axe cannot see, checked in the browser: the document's language and title follow the chosen language, every
chart is an image named by its summary with its numbers under it, Streamlit's English names (and its skip link's
words) are replaced on a Chinese page, /home opens without Streamlit's English dialog, and figures take their narrow
layout from the width they are drawn at (a desktop at 400 % zoom: 320 CSS px), not from the browser's user agent."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.a11y import wait_ready
from tests.browser import CHROMIUM, streamlit_server

pytestmark = pytest.mark.browser

if not Path(CHROMIUM).exists():
    pytest.fail(f"Chromium not found at {CHROMIUM}; run `bash .ci/run` to install it", pytrace=False)

CHART_NAMES = "() => [...document.querySelectorAll('.mha-plot')].map(p => { const s = p.querySelector('.main-svg'); " \
              "return s ? [s.getAttribute('role'), s.getAttribute('aria-label')] : [null, null]; })"  # fmt: skip
CSV_BUTTONS = "() => [...document.querySelectorAll('[data-testid=stDownloadButton] button')].map(b => b.innerText)"
SKIP = "a[data-testid='stSkipToContent']"
TILE_COLUMNS = """() => { const el = document.querySelector('.st-key-heads_tiled .js-plotly-plot');
    return new Set(el._fullLayout.annotations.map(a => a.x)).size; }"""


@pytest.fixture(scope="module")
def server():
    with streamlit_server() as url:
        yield url


def open_page(browser, url: str, lang: str = "en", **context):
    page = browser.new_context(**({"viewport": {"width": 1440, "height": 900}} | context)).new_page()
    page.goto(url)
    wait_ready(page, lang)
    return page


def test_language_and_title_follow_the_choice_on_every_run(browser, server):
    page = open_page(browser, f"{server}/heads")
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.title() == "Heads · Multi-head attention explorer"
    for _ in range(3):  # by keyboard: open the list, pick, confirm (a rerun still arriving may close the list)
        page.get_by_role("combobox", name="Language / 语言").focus()
        page.keyboard.press("ArrowDown")
        try:
            page.get_by_role("option", name="简体中文").wait_for(timeout=10_000)
            break
        except Exception:
            page.keyboard.press("Escape")
    page.get_by_role("option", name="简体中文").wait_for(timeout=10_000)
    page.get_by_role("option", name="简体中文").click()
    wait_ready(page, "zh")
    assert page.evaluate("document.documentElement.lang") == "zh-CN"
    page.wait_for_function("() => document.title === '各个头 · 多头注意力探索器'")
    page.locator("[data-testid='stSidebarNavLink']", has_text="逐步计算").click()
    page.wait_for_function("() => document.title === '逐步计算 · 多头注意力探索器'")
    wait_ready(page, "zh")
    # Streamlit's own English names are Chinese now; its navigation is a valid list
    english = page.evaluate("""() => [...document.querySelectorAll('[aria-label]')]
        .map(e => e.getAttribute('aria-label'))
        .filter(v => /^(Help for |Open$|Sidebar$|App pages$|Collapse sidebar$|Download plot as a PNG$)/.test(v))""")
    assert not english
    assert page.locator("[data-testid='stSidebarNavItems']").get_attribute("role") == "list"
    assert page.locator("[aria-label='“演示模式”的说明']").count() == 1
    # Streamlit's skip link, the first thing Tab reaches, in the page's language
    skip = page.locator(SKIP)
    page.wait_for_function(f"() => document.querySelector({SKIP!r}).textContent === '跳到主要内容'")
    assert skip.count() == 1
    page.locator("[data-testid='stSidebarNavLink']", has_text="各个头").click()
    wait_ready(page, "zh")
    assert skip.text_content() == "跳到主要内容"  # a new page of the same session keeps it
    page.context.close()


def test_every_chart_is_an_image_named_by_what_it_shows_with_its_numbers_under_it(browser, server):
    page = open_page(browser, f"{server}/heads?mask=causal&d_model=32&n_heads=4")
    names = page.evaluate(CHART_NAMES)
    assert len(names) >= 4
    for role, label in names:
        assert role == "img" and len(label) > 60, label
        assert "Largest:" in label and "Every number: the CSV under the chart" in label
    assert any(label.startswith("weights A_i. Heatmap of 4 maps, each 11 × 11 cells") for _, label in names), names
    buttons = page.evaluate(CSV_BUTTONS)
    csv = [b for b in buttons if "(CSV)" in b]
    assert len(csv) == len(names) and len(set(csv)) == len(csv), csv  # one per chart, each named by its chart
    page.context.close()


def test_the_pipeline_diagram_is_an_image_named_by_a_sentence(browser, server):
    page = open_page(browser, f"{server}/?lang=zh", "zh")
    page.locator("[data-testid='stGraphVizChart'] svg[role='img']").wait_for(timeout=20_000)
    label = page.locator("[data-testid='stGraphVizChart'] svg").get_attribute("aria-label")
    assert label.startswith("流程图：X（11×64）进入 8 个头"), label
    page.context.close()


def test_home_by_its_name_opens_without_streamlits_english_dialog(browser, server):
    page = open_page(browser, f"{server}/home?lang=zh", "zh")
    assert page.locator("[role='dialog']").count() == 0
    assert page.get_by_text("Page not found").count() == 0
    assert page.locator("h1").first.inner_text().startswith("总览")
    page.context.close()


@pytest.mark.parametrize(("width", "columns"), [(1280, 4), (320, 2)])
def test_figures_choose_their_layout_by_the_width_they_are_drawn_at(browser, server, width, columns):
    # 320 CSS px is a 1280-px desktop at 400 % zoom: a desktop browser (no phone in its user agent)
    page = open_page(browser, f"{server}/heads", viewport={"width": width, "height": 720}, device_scale_factor=1)
    page.wait_for_function(f"() => ({TILE_COLUMNS})() === {columns}", timeout=30_000)
    page.context.close()
