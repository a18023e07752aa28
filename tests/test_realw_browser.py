"""The real weights and the padding batch in a real browser: links open them, charts are drawn, both languages."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

import i18n
from figures.style import plot_math, safe_label
from tests.browser import CHROMIUM, CHROMIUM_ARGS, streamlit_server, wait_idle

pytestmark = pytest.mark.browser

if not Path(CHROMIUM).exists():
    pytest.fail(f"Chromium not found at {CHROMIUM}; run `bash .ci/run` to install it", pytrace=False)


@pytest.fixture(scope="module")
def page_at():
    from playwright.sync_api import sync_playwright

    with streamlit_server() as url, sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)

        def open_(path: str, width: int = 1440, height: int = 900):
            page = b.new_page(viewport={"width": width, "height": height})
            page.goto(f"{url}/{path}")
            wait_idle(page, 120_000)
            assert page.locator("[data-testid='stException']").count() == 0
            return page

        yield open_
        b.close()


@pytest.mark.parametrize(("lang", "width"), [("en", 1440), ("zh", 1440), ("en", 390)])
def test_link_opens_the_real_previous_token_head(page_at, lang, width):
    page = page_at(f"steps?source=minilm&layer=1&lang={lang}", width, 844 if width < 500 else 900)
    # the title as the figure gives it to plotly: escaped, its A_3 as A<sub>3</sub> (figures.style.plot_math)
    title = plot_math(safe_label(i18n.t("realw.head_title", lang, head=3, layer=1)))
    first = page.locator(".mha-plot").first
    first.scroll_into_view_if_needed()
    first.locator(".main-svg").first.wait_for(timeout=60_000)
    drawn = first.locator(".gtitle").first
    assert drawn.get_attribute("data-unformatted") == title
    # what the screen shows: the same words, the 3 drawn as a subscript (plotly puts zero-width spaces around it)
    assert (drawn.text_content() or "").replace("\u200b", "") == html.unescape(re.sub(r"<[^>]+>", "", title))
    assert "font-size:70%" in (drawn.locator("tspan", has_text="3").first.get_attribute("style") or "")
    banner = i18n.t("realw.prev_head", lang, layer=1, head=3, score=1.0).split("：" if lang == "zh" else ":")[0]
    assert page.get_by_text(banner.strip("*“”"), exact=False).count() >= 1


def test_link_opens_the_padding_batch(page_at):
    page = page_at("steps?mask=padding&text_pad=A+dog+ran+.&lang=en")
    assert page.get_by_text(i18n.t("padb.title", "en")).count() == 1
    assert page.locator("[data-testid='stTable']").first.inner_text().count("[PAD]") == 7
