"""axe-core (WCAG 2.0/2.1/2.2 A and AA) on every page of ui/frame.PAGES, in both languages, light and dark, with and
without presentation mode: a serious or critical violation that docs/ACCESSIBILITY.md does not list fails.

One server and one browser for the module; each combination of language, theme and mode is one browser context (its
locale and colour scheme: the app follows the browser's theme by default), each page one visit in its tab. Three
combinations: each language, each theme, presentation mode (a language changes words, not colours or markup, so every
language is not run in every theme; presentation mode changes the markup and the type size, not the colours). About
5 s a visit on a quiet machine, 39 visits; 12 minutes for the four combinations of before on this busy one.
`A11Y_REPORT=path.json` writes every violation of every impact per page (the before/after table of
docs/ACCESSIBILITY.md is made from it).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.a11y import AXE_JS, describe, known_violations, run_axe, unlisted, wait_ready
from tests.browser import CHROMIUM, CHROMIUM_ARGS, streamlit_server
from ui.frame import PAGES

pytestmark = pytest.mark.browser

if not Path(CHROMIUM).exists():
    pytest.fail(f"Chromium not found at {CHROMIUM}; run `bash .ci/run` to install it", pytrace=False)
if not AXE_JS.is_file():
    pytest.fail(f"{AXE_JS} missing: run `npm ci` (bash .ci/run does)", pytrace=False)


@dataclass(frozen=True)
class Combo:
    lang: str
    theme: str  # the browser's colour scheme, which the app's default theme ("Browser") follows
    present: bool

    @property
    def id(self) -> str:
        return f"{self.lang}-{self.theme}" + ("-present" if self.present else "")


COMBOS = (Combo("en", "light", False), Combo("zh", "dark", False), Combo("en", "dark", True))  # a projector: dark
URLS = [url for _, url, *_ in PAGES]  # a page added to the frame is checked without a change here
REPORT: dict[str, dict[str, list[dict]]] = {}


@pytest.fixture(scope="module")
def server():
    with streamlit_server() as url:
        yield url


@pytest.fixture(scope="module")
def tabs():
    """One browser, one tab per combination (opened on first use)."""
    from playwright.sync_api import sync_playwright

    opened: dict[Combo, object] = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)

        def tab(combo: Combo):
            if combo not in opened:
                ctx = browser.new_context(viewport={"width": 1440, "height": 900}, color_scheme=combo.theme,
                                          locale="zh-CN" if combo.lang == "zh" else "en-US")  # fmt: skip
                opened[combo] = ctx.new_page()
            return opened[combo]

        yield tab
        browser.close()
    path = os.environ.get("A11Y_REPORT")
    if path:
        Path(path).write_text(json.dumps(REPORT, ensure_ascii=False, indent=1), encoding="utf-8")


@pytest.mark.parametrize("url", URLS)
@pytest.mark.parametrize("combo", COMBOS, ids=lambda c: c.id)
def test_no_serious_axe_violation(server, tabs, combo, url):
    page = tabs(combo)
    page.goto(f"{server}/{url}?lang={combo.lang}" + ("&present=true" if combo.present else ""))
    wait_ready(page, combo.lang)
    everything = run_axe(page, impacts=None)
    REPORT.setdefault(combo.id, {})[url] = everything
    left = unlisted([v for v in everything if v["impact"] in ("serious", "critical")], known_violations())
    assert not left, f"/{url} ({combo.id}), not in docs/ACCESSIBILITY.md:\n{describe(left)}"
