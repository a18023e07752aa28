"""The app in a real browser: cold start, deep links on fresh servers, h redraws the heads, no exception box."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.browser import ALL_CHARTS_DRAWN, CHART, CHROMIUM, streamlit_server, wait_idle

pytestmark = pytest.mark.browser

if not Path(CHROMIUM).exists():  # .ci/run installs it; fail loudly rather than skip silently in CI
    pytest.fail(f"Chromium not found at {CHROMIUM}; run `bash .ci/run` to install it", pytrace=False)

DEEP_LINKS = {
    "inputs": "Inputs",
    "steps": "Step by step",
    "heads": "Heads",
    "positional": "Positional encoding",
    "minilm": "A real model's heads",
    "why": "Why: scaling",
    "subspaces": "Why: subspaces",
    "note004": "Why multi-head, tested",
}


@pytest.fixture(scope="module")
def server():
    with streamlit_server() as url:
        yield url


def new_page(browser, locale: str = "en-US"):
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000}, locale=locale)
    return ctx.new_page()


def assert_no_exception(page) -> None:
    assert page.locator("[data-testid='stException']").count() == 0, "an exception box is shown"


def test_app_loads_from_cold_server_with_charts(browser, server):
    page = new_page(browser)
    page.goto(server)
    wait_idle(page)
    page.get_by_test_id("stGraphVizChart").first.wait_for(timeout=30_000)
    assert "every number visible" in page.locator("h1").first.inner_text()
    assert page.get_by_text("Page not found").count() == 0
    assert_no_exception(page)
    page.context.close()


@pytest.mark.parametrize("path", list(DEEP_LINKS))
def test_deep_link_works_on_fresh_server(browser, path):
    with streamlit_server() as url:
        page = new_page(browser)
        page.goto(f"{url}/{path}")
        wait_idle(page)
        page.locator(CHART).first.wait_for(timeout=30_000)
        heading = page.locator("h1").first.inner_text()
        assert DEEP_LINKS[path] in heading
        assert page.get_by_text("Page not found").count() == 0, "Streamlit's page-not-found dialog is shown"
        assert_no_exception(page)
        page.context.close()


# Every text the sidebar navigation shows, from the first frame on (a MutationObserver set up before any script).
NAV_WATCH = """(() => { window.__navSeen = new Set();
    const look = () => document.querySelectorAll('[data-testid=stSidebarNav] a, [data-testid=stSidebarNavLink]')
        .forEach(a => window.__navSeen.add(a.innerText.trim().split('\\n').pop()));
    new MutationObserver(look).observe(document, {childList: true, subtree: true, characterData: true}); })()"""


@pytest.mark.parametrize("path", ["", "heads"])
def test_the_first_visit_of_a_fresh_server_never_shows_the_page_files(browser, path):
    """A folder named `pages` beside app.py made Streamlit run a fresh server's first session through its legacy
    multipage path: the navigation listed the file names (app, errata, heads, home, ...) for about 4 s. Plain
    `streamlit run app.py` (nothing of the app runs before the first page)."""
    with streamlit_server(entry="streamlit") as url:
        page = new_page(browser)
        page.add_init_script(NAV_WATCH)
        page.goto(f"{url}/{path}")
        wait_idle(page)
        seen = set(page.evaluate("[...window.__navSeen]"))
        assert "Heads" in seen and "Where the notes are wrong" in seen, seen
        files = {"app", "home", "errata", "note004", "minilm", "subspaces", "worked"}
        assert not seen & files, f"the navigation showed file names: {sorted(seen & files)}"
        page.context.close()


@pytest.mark.parametrize(("lang", "heading"), [("en", "every number visible"), ("zh", "每一个数字都看得见")])
def test_home_goes_to_the_home_page_in_the_users_language(browser, server, lang, heading):
    page = new_page(browser)
    page.goto(f"{server}/home?lang={lang}&n_heads=4")
    wait_idle(page)
    assert heading in page.locator("h1").first.inner_text()
    assert "n_heads=4" in page.url  # the link's settings come along
    assert page.get_by_text("Page not found").count() == 0
    assert_no_exception(page)
    page.context.close()


# The tiled-heads chart by its element key (Streamlit gives a keyed element the class st-key-<key>).
# Not "the first chart": charts draw in any order, and the first one drawn may be another figure.
TILED = ".st-key-heads_tiled .js-plotly-plot"


def _tile_titles(page) -> list[str]:
    """Annotation texts of the tiled heads figure (it puts one title per head)."""
    return page.evaluate(
        """(sel) => {
            const el = document.querySelector(sel);
            return (el && el.layout && el.layout.annotations || []).map(a => a.text);
        }""",
        TILED,
    )


def _wait_for_head_tiles(page, n: int) -> None:
    page.wait_for_function(
        """([sel, n]) => {
            const el = document.querySelector(sel);
            const ann = el && el.layout && el.layout.annotations || [];
            return ann.filter(a => a.text.startsWith('head')).length === n;
        }""",
        arg=[TILED, n],
        timeout=30_000,
    )


def test_changing_h_redraws_the_heads(browser, server):
    page = new_page(browser)
    page.goto(f"{server}/heads")
    wait_idle(page)
    page.locator(TILED).wait_for(timeout=30_000)
    _wait_for_head_tiles(page, 8)
    assert len([t for t in _tile_titles(page) if t.startswith("head")]) == 8
    box = page.get_by_role("spinbutton", name="Number of heads h")
    box.fill("4")
    box.press("Enter")
    wait_idle(page)
    _wait_for_head_tiles(page, 4)
    assert "n_heads=4" in page.url
    assert_no_exception(page)
    page.context.close()


def test_invalid_h_shows_message_and_keeps_charts(browser, server):
    page = new_page(browser)
    page.goto(f"{server}/heads")
    wait_idle(page)
    box = page.get_by_role("spinbutton", name="Number of heads h")
    box.fill("7")
    box.press("Enter")
    wait_idle(page)
    assert page.get_by_text(re.compile("not divisible by h = 7")).count() >= 1
    assert page.locator(".mha-plot").count() >= 1
    assert_no_exception(page)
    _wait_for_head_tiles(page, 8)  # still the last valid setting
    assert json.dumps(_tile_titles(page)).count("head") == 8
    page.context.close()


def _tiled_z(page) -> list:
    """The heatmap values of the tiled heads figure, once plotly has drawn it."""
    page.wait_for_function(
        "(sel) => { const el = document.querySelector(sel); return el && el.data && el.data.length > 0; }",
        arg=TILED,
        timeout=30_000,
    )
    return page.evaluate("(sel) => document.querySelector(sel).data[0].z", TILED)


def test_a_shared_link_opens_with_the_same_heatmap_values(browser, server):
    import numpy as np

    from explorer import Settings, run_scene

    link = f"{server}/heads?preset=custom&text=the+cat+sat+on+the+mat&d_model=16&n_heads=4&seed=7&mask=causal"
    seen = []
    for locale in ("en-US", "zh-CN"):  # a teacher and a student whose browser speaks Chinese
        page = new_page(browser, locale=locale)
        page.goto(link)
        wait_idle(page)
        z = np.array([[np.nan if v is None else v for v in row] for row in _tiled_z(page)], dtype=float)
        seen.append(z)
        assert_no_exception(page)
        page.context.close()
    np.testing.assert_allclose(seen[0], seen[1], rtol=1e-3)  # 4 significant digits drawn; a BLAS may round
    expected = run_scene(Settings(preset="custom", text="the cat sat on the mat", d_model=16, n_heads=4, seed=7,
                                  mask="causal")).weights  # fmt: skip
    finite = seen[0][np.isfinite(seen[0])]
    np.testing.assert_allclose(np.sort(finite), np.sort(expected.ravel()), atol=1e-3)


def test_presentation_mode_steps_forward_in_the_browser(browser, server):
    page = new_page(browser)
    page.goto(f"{server}/steps?present=true")
    wait_idle(page)
    # a presentation link opens with the sidebar collapsed, even on its first run (1400 px would show it)
    assert page.get_by_test_id("stSidebar").get_attribute("data-collapsed") == "true"
    assert page.get_by_text("Step 1 of 9 · Input").is_visible()  # the compact bar (ui/present.py)
    page.get_by_role("button", name="Next step").click()
    wait_idle(page)
    assert page.get_by_text("Step 2 of 9 · Projections Q, K, V").is_visible()
    assert_no_exception(page)
    page.context.close()


def _sidebar_number(page, name: str) -> str:
    return page.get_by_role("spinbutton", name=name).input_value()


def _enter_number(page, name: str, key: str, value: int) -> None:
    """Type a number into a sidebar input, commit it, and wait until the rerun has put it in the URL."""
    box = page.get_by_role("spinbutton", name=name)
    box.fill(str(value))
    box.press("Enter")
    wait_idle(page)
    page.wait_for_function(f"() => location.search.includes('{key}={value}')", timeout=15_000)


def test_a_preset_link_keeps_its_sizes_after_a_click_and_a_page_switch(browser, server):
    """A link with only `preset=paper` fills d_model 512 and the paper's sentence. Streamlit gives the bound
    widgets a new identity after the first run; the preset's values must survive that (they used to fall
    back to d_model 64 at the first click anywhere) and survive a page switch, while a value the user
    changes wins."""
    page = new_page(browser)
    page.goto(f"{server}/steps?preset=paper")
    wait_idle(page)
    # the preset fills the sizes in the run after the first; under load wait_idle can fall between the two runs
    filled = """() => [...document.querySelectorAll("input[type=number]")]
        .some(e => e.getAttribute("aria-label") === "d_model" && e.value === "512")"""
    page.wait_for_function(filled, timeout=20_000)
    assert _sidebar_number(page, "d_model") == "512"
    _enter_number(page, "Weight seed", "seed", 3)
    assert _sidebar_number(page, "d_model") == "512"
    page.locator("[data-testid='stSidebarNav'] a[href$='/heads']").click()
    wait_idle(page)
    page.locator(TILED).wait_for(timeout=30_000)
    assert _sidebar_number(page, "d_model") == "512" and _sidebar_number(page, "Weight seed") == "3"
    assert "animal" in page.get_by_role("textbox", name="Input sentence (queries)").input_value()
    _enter_number(page, "d_model", "d_model", 256)
    assert _sidebar_number(page, "d_model") == "256"
    assert_no_exception(page)
    page.context.close()


def test_a_changed_chart_is_updated_in_place_with_its_toolbar(browser, server):
    """ui/plot.js keeps the chart element and redraws it with Plotly.react (st.plotly_chart in Streamlit
    1.67 unmounts a changed chart and draws a new one: the mark below would be gone)."""
    page = new_page(browser)
    page.goto(f"{server}/heads")
    wait_idle(page)
    _wait_for_head_tiles(page, 8)
    page.evaluate("(sel) => { document.querySelector(sel).__mark = 'kept'; }", TILED)
    box = page.get_by_role("spinbutton", name="Number of heads h")
    box.fill("4")
    box.press("Enter")
    wait_idle(page)
    _wait_for_head_tiles(page, 4)
    assert page.evaluate("(sel) => document.querySelector(sel).__mark", TILED) == "kept"
    # plotly's own toolbar, with the PNG download the classroom exports rely on
    page.locator(TILED).hover()
    titles = page.evaluate(
        "() => [...document.querySelectorAll('.st-key-heads_tiled .modebar-btn')].map(b => b.dataset.title)"
    )
    assert "Download plot as a PNG" in titles
    assert not [t for t in titles if "Share" in t], "no button that uploads the figure to a cloud service"
    assert_no_exception(page)
    page.context.close()


# the x labels under the head tiles, and how many pairs of them cover each other (more than a pixel each way)
X_LABELS = """(sel) => {
  const boxes = [...document.querySelectorAll(sel + ' .xtick text')].map((e) => e.getBoundingClientRect())
    .filter((r) => r.width > 0);
  let touching = 0;
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const a = boxes[i], b = boxes[j];
    const wide = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    if (wide > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1) touching++;
  }
  return [boxes.length, touching];
}"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_token_labels_are_thinned_on_a_phone_and_all_back_on_a_wide_screen(browser, server, lang):
    """On a phone the server's token labels (11 per tile) were stacked on the same pixels; ui/plot.js keeps every
    other one of each tile there, and shows all of them again when the chart is wide."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    page.goto(f"{server}/heads?n_heads=2&lang={lang}")
    wait_idle(page)
    page.wait_for_function(ALL_CHARTS_DRAWN, timeout=30_000)
    page.locator(TILED).scroll_into_view_if_needed()
    page.wait_for_function(f"(sel) => {{ const [n, t] = ({X_LABELS})(sel); return n > 0 && t === 0; }}",
                           arg=TILED, timeout=20_000)  # fmt: skip
    shown, _ = page.evaluate(X_LABELS, TILED)
    assert 2 * 3 <= shown < 2 * 11, shown  # thinned, but every tile still labelled
    texts = page.evaluate("(sel) => [...document.querySelectorAll(sel + ' .xtick text')].map(e => e.textContent)",
                          TILED)  # fmt: skip
    half = len(texts) // 2
    assert texts[:half] == texts[half:], "both tiles show the same tokens"
    page.set_viewport_size({"width": 1440, "height": 900})
    page.wait_for_function(f"(sel) => ({X_LABELS})(sel)[0] === 22", arg=TILED, timeout=20_000)
    assert_no_exception(page)
    ctx.close()


def test_a_chart_says_so_when_plotly_js_cannot_load(browser, server):
    page = new_page(browser, locale="zh-CN")
    page.route("**/app/static/plotly-cartesian-*.min.js", lambda route: route.abort())
    page.goto(f"{server}/heads")
    page.locator(".mha-plot").first.wait_for(timeout=30_000)
    wait_idle(page)
    failed = page.locator(".mha-plot[data-failed='true']")
    assert failed.count() == page.locator(".mha-plot").count() >= 1
    assert "无法绘制此图" in failed.first.inner_text()
    assert_no_exception(page)
    page.context.close()


def test_no_page_asks_for_anything_outside_the_server(browser, server):
    """Offline in a classroom: with every request that is not to this machine blocked (and recorded), every page
    loads, draws its charts and shows no exception, and no request tried to leave (fonts, icons, scripts, images).
    In Chinese here; in English through the school's proxy (tests/test_deploy.py, every page on classroom.lan)."""
    from urllib.parse import urlparse

    from tests.conftest import PAGES

    lang = "zh"
    outside: list[str] = []

    def route(r):
        if urlparse(r.request.url).hostname in ("127.0.0.1", "localhost"):
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort()

    ctx = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="zh-CN")
    ctx.route("**/*", route)
    page = ctx.new_page()
    for name in PAGES:
        page.goto(f"{server}/{name}?lang={lang}")
        wait_idle(page)
        if name in DEEP_LINKS:  # a page with a chart shows no exception once the chart is drawn
            page.locator(CHART).first.wait_for(timeout=30_000)
        assert_no_exception(page)
    page.goto(f"{server}/steps?lang={lang}&present=true&theme=dark")  # presentation mode, the dark screen
    wait_idle(page)
    ctx.close()
    assert not outside, f"requests outside the server: {sorted(set(outside))}"
