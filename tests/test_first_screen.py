"""A browser's first page of a session: the first screen first (the page down to its first chart, no settings widgets,
no navigation), then, once that chart is on screen, the whole page, without drawing the first screen again
(ui/first_screen.py). Only for a link without settings, on the pages that mark their first screen."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.a11y import AXE_JS, describe, known_violations, run_axe, unlisted
from tests.browser import CHROMIUM, streamlit_server, wait_idle

pytestmark = pytest.mark.browser

if not Path(CHROMIUM).exists():
    pytest.fail(f"Chromium not found at {CHROMIUM}; run `bash .ci/run` to install it", pytrace=False)

# Recorded in the page when its first chart is on screen: what else was there at that moment.
AT_FIRST_CHART = """(() => {
  const sel = ".mha-plot[data-drawn], [data-testid='stGraphVizChart'] svg";
  const seen = () => {
    const chart = document.querySelector(sel);
    if (window.__atFirstChart || !chart) return;
    chart.__mark = "first";
    const box = chart.getBoundingClientRect();
    window.__atFirstChart = {
      sidebarInputs: document.querySelectorAll("[data-testid='stSidebar'] :is(input, textarea)").length,
      nav: !!document.querySelector("[data-testid='stSidebarNav']"),
      sidebar: !!document.querySelector("[data-testid='stSidebar']"),
      firstScreen: !!document.querySelector(".st-key-mha_first_screen"),
      mainControls: document.querySelectorAll("[data-testid='stMain'] :is([role=radiogroup], input[type=checkbox], "
                                              + "[data-testid='stForm'])").length,
      x: Math.round(box.x), width: Math.round(box.width), drawn: chart.dataset ? chart.dataset.drawn || "" : "",
      title: (document.querySelector("h1") || {}).textContent || "",
    };
  };
  new MutationObserver(seen).observe(document, {subtree: true, childList: true, attributes: true,
                                                attributeFilter: ["data-drawn"]});
})();"""
AFTER = """() => { const chart = document.querySelector(".mha-plot[data-drawn], [data-testid='stGraphVizChart'] svg");
  const box = chart.getBoundingClientRect();
  return {same: chart.__mark === "first", x: Math.round(box.x), width: Math.round(box.width),
          drawn: chart.dataset ? chart.dataset.drawn || "" : "",
          sidebarInputs: document.querySelectorAll("[data-testid='stSidebar'] input").length,
          nav: !!document.querySelector("[data-testid='stSidebarNav']")}; }"""


# ui/plot.js tells the server once per page load; marked as told already, the page stays at its first screen.
HOLD_FIRST_SCREEN = "window.__mhaFirstScreen = true;"
FOCUS_RING_CSS = """() => [...document.querySelectorAll('style')].some(s => s.textContent.includes(':focus-visible')
    && s.textContent.includes('outline: 3px solid'))"""


@pytest.fixture(scope="module")
def server():
    with streamlit_server(warmup=True) as url:
        yield url


def first_visit(browser, url: str, locale: str = "en-US") -> tuple:
    page = browser.new_context(viewport={"width": 1280, "height": 900}, locale=locale).new_page()
    page.add_init_script(AT_FIRST_CHART)
    page.goto(url)
    page.wait_for_function("() => window.__atFirstChart", timeout=60_000)
    wait_idle(page)
    return page, page.evaluate("() => window.__atFirstChart"), page.evaluate(AFTER)


@pytest.mark.parametrize("path", ["/heads", "/steps", "/?lesson=mha45&stop=1"])
def test_the_first_chart_comes_before_the_settings_and_stays_when_the_page_is_complete(browser, server, path):
    page, first, after = first_visit(browser, server + path)
    assert first["firstScreen"], "the first run was not a first-screen run"
    assert first["sidebarInputs"] == 0 and not first["nav"], "settings or navigation drawn before the first chart"
    assert first["sidebar"], "the sidebar keeps its place from the start (the page does not move)"
    assert after["sidebarInputs"] >= 5 and after["nav"], "the whole page came after the first chart"
    assert after["same"], "the second run drew the first chart again"
    assert (after["x"], after["width"]) == (first["x"], first["width"]), "the first chart moved"
    assert after["drawn"] == first["drawn"]
    # the first screen has no control of its own above its chart: /heads's quantity and scale come under the chart,
    # and a self-paced lesson's stop has no join box (nor will it, a stop is the lesson's)
    assert first["mainControls"] == 0
    if "lesson" in path:
        assert page.locator(".st-key-lesson_bar").count() == 1
        assert page.get_by_role("button", name="Next").count() >= 1
        assert page.locator("[data-testid='stMain'] [data-testid='stForm']").count() == 0
    if path == "/heads":
        chart = page.locator(".mha-plot").first.bounding_box()
        radio = page.locator("[data-testid='stMain']").get_by_role("radiogroup").first.bounding_box()
        assert radio["y"] > chart["y"] + chart["height"], "the tiled view's controls are under its chart"
    page.context.close()


# Where the main area's first blocks stand: the title, the join box, the first chart or diagram.
TOPS = ("() => [...document.querySelectorAll(\"[data-testid='stMain'] :is(h1, [data-testid='stForm'], "
        "[data-testid='stGraphVizChart'], .mha-plot)\")].slice(0, 3).map(e => Math.round(e.getBoundingClientRect().y))")


@pytest.mark.parametrize("path", ["/", "/heads"])
def test_the_full_run_does_not_move_what_the_first_screen_drew(browser, server, path):
    """Held at its first screen, then completed in another tab: the same blocks at the same heights (the home page's
    identity element, an empty place in the first screen, took a 16 px gap above the join box in the full run)."""
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.add_init_script(HOLD_FIRST_SCREEN)
    page.goto(server + path)
    page.wait_for_selector(".mha-plot[data-drawn], [data-testid='stGraphVizChart'] svg", timeout=60_000)
    page.wait_for_function("() => document.querySelector('.katex')", timeout=30_000)
    page.wait_for_timeout(1000)  # KaTeX and the diagram settle (nothing else comes: the page is held)
    assert page.locator(".st-key-mha_first_screen").count() == 1
    held = page.evaluate(TOPS)
    page.context.close()
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(server + path)
    wait_idle(page)
    assert page.evaluate(TOPS)[: len(held)] == held
    page.context.close()


def test_a_chinese_browser_gets_its_first_screen_in_chinese(browser, server):
    page, first, _ = first_visit(browser, server + "/heads", locale="zh-CN")
    assert first["firstScreen"]
    assert page.locator("h1").first.inner_text() == first["title"]
    assert any("\u4e00" <= ch <= "\u9fff" for ch in first["title"]), first["title"]
    page.context.close()


@pytest.mark.parametrize("path", ["/heads?n_heads=4", "/heads?present=true", "/quiz", "/?join=ABC234",
                                  "/heads?screen=projector"])  # a live class's screens draw their bar at once
def test_a_link_with_settings_or_a_page_without_a_first_screen_runs_as_before(browser, server, path):
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.add_init_script("""new MutationObserver(() => { if (document.querySelector('.st-key-mha_first_screen'))
        window.__firstScreen = true; }).observe(document, {subtree: true, childList: true});""")
    page.goto(server + path)
    wait_idle(page)
    assert not page.evaluate("() => !!window.__firstScreen")
    page.context.close()


def test_the_next_page_of_the_session_is_drawn_in_one_run(browser, server):
    page, _, _ = first_visit(browser, server + "/heads")
    page.evaluate("""() => new MutationObserver(() => { if (document.querySelector('.st-key-mha_first_screen'))
        window.__again = true; }).observe(document, {subtree: true, childList: true})""")
    page.get_by_role("link", name="Step by step", exact=True).click()
    page.get_by_role("heading", name="Step by step").wait_for()
    wait_idle(page)
    assert not page.evaluate("() => !!window.__again")
    assert page.locator("[data-testid='stSidebar'] input").count() >= 5
    page.context.close()


def test_a_server_started_without_static_serving_still_completes_the_page(browser):
    """st.plotly_chart draws the charts there: the first screen ends when its chart is drawn all the same."""
    with streamlit_server(extra=("--server.enableStaticServing", "false"), warmup=True) as url:
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        page.goto(url + "/heads")
        wait_idle(page)
        page.locator("[data-testid='stSidebarNav']").wait_for(timeout=30_000)
        assert page.locator("[data-testid='stSidebar'] input").count() >= 5
        page.context.close()


@pytest.mark.parametrize(("path", "locale", "lang", "title"), [
    ("/heads", "en-US", "en", "Heads · Multi-head attention explorer"),
    ("/steps", "zh-CN", "zh-CN", "逐步计算 · 多头注意力探索器"),
    ("/", "en-US", "en", "Overview · Multi-head attention explorer"),
])  # fmt: skip
def test_the_first_screen_has_its_language_title_focus_ring_and_no_axe_violation(browser, server, path, locale, lang,
                                                                                  title):  # fmt: skip
    """What a screen reader meets before the rest of the page comes (held at its first screen)."""
    page = browser.new_context(viewport={"width": 1440, "height": 900}, locale=locale).new_page()
    page.add_init_script(HOLD_FIRST_SCREEN)
    page.goto(server + path)
    page.wait_for_selector(".mha-plot[data-drawn], [data-testid='stGraphVizChart'] svg", timeout=60_000)
    page.wait_for_function("(tag) => window.__mhaA11y && document.documentElement.lang === tag", arg=lang,
                           timeout=30_000)  # fmt: skip
    page.wait_for_function("(t) => document.title === t", arg=title, timeout=30_000)
    page.wait_for_timeout(300)
    assert page.locator(".st-key-mha_first_screen").count() == 1, "not the first screen any more"
    assert page.evaluate(FOCUS_RING_CSS), "the focus ring's CSS is missing"
    names = page.evaluate("() => [...document.querySelectorAll('.mha-plot .main-svg[role=img]')]"
                          ".map(s => s.getAttribute('aria-label'))")  # fmt: skip
    if lang == "zh-CN":  # the charts are named in the page's language (there is no language widget yet)
        assert names and all(any("\u4e00" <= ch <= "\u9fff" for ch in n) for n in names), names
    if AXE_JS.is_file():
        bad = unlisted(run_axe(page), known_violations())
        assert not bad, describe(bad)
    page.context.close()
