"""axe-core (WCAG 2.0/2.1/2.2 A and AA) on every page of ui/nav.PAGES, in both languages, light and dark, with and
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

from tests.a11y import (
    AXE_JS,
    assert_focus_visible,
    describe,
    focused,
    known_violations,
    press,
    run_axe,
    tab_to,
    unlisted,
    wait_ready,
)
from tests.browser import CHROMIUM, CHROMIUM_ARGS, streamlit_server
from ui.nav import PAGES

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

        tab.browser = browser  # for a test that opens contexts of its own (the live class's screens)
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


# ----- the live class's screens: the console (a class started), the projector, a phone ---------------------------
def test_the_live_class_screens_pass_axe_and_the_console_works_by_keyboard(server, tabs):
    """The console with a lesson started (1440 x 900, light), the projector opened from its private link (1280 x 720,
    dark, as a projector is set up), a phone that joined (390 x 844): axe on each at a stop, with a question asked and
    after the reveal. The console is driven by the keyboard alone from its Next stop button on: Previous, Next, ask
    the stop's question, Reveal, Close, each reached by Tab with a visible focus ring."""
    import i18n
    import lessons

    tr, lesson = i18n.translator("en"), lessons.get("mha45")
    checks: dict[str, list[dict]] = {}

    def axe(name: str, page) -> None:
        wait_ready(page)
        everything = run_axe(page, impacts=None)
        REPORT.setdefault("live", {})[name] = everything
        checks[name] = unlisted([v for v in everything if v["impact"] in ("serious", "critical")],
                                known_violations())  # fmt: skip

    def shows(page, text: str, present: bool = True) -> None:
        """Wait until the page shows `text` (or no longer does); a failure says what it shows instead."""
        try:
            page.wait_for_function(f"t => {'' if present else '!'}document.body.innerText.includes(t)", arg=text,
                                   timeout=60_000)  # fmt: skip
        except Exception as exc:
            raise AssertionError(f"{page.url} {'does not show' if present else 'still shows'} {text!r}: "
                                 f"{page.evaluate('() => document.body.innerText')[:600]!r}") from exc

    def reach(page, name: str, backwards: bool = False) -> None:
        tab_to(page, name, limit=160, backwards=backwards)
        assert_focus_visible(page)
        assert focused(page)["tag"] == "button", focused(page)

    browser = tabs.browser
    contexts = []

    def screen(**options):
        contexts.append(browser.new_context(**options))
        return contexts[-1].new_page()

    try:
        console = screen(viewport={"width": 1440, "height": 900}, color_scheme="light")
        console.goto(f"{server}/console")
        wait_ready(console)
        console.get_by_label(tr("console.lesson")).click()
        console.get_by_role("option", name=lesson.title("en")).click()
        wait_ready(console)
        console.get_by_role("button", name=tr("console.start")).click()
        wait_ready(console)
        code = console.locator(".mha-console-code").inner_text().strip()
        axe("console, the key shown", console)
        console.get_by_role("button", name=tr("live.key_noted")).click()
        wait_ready(console)

        projector = screen(viewport={"width": 1280, "height": 720}, color_scheme="dark")
        projector.goto(console.locator("a[href*='screen=projector']").first.get_attribute("href"))
        shows(projector, tr("projector.class", room=code))
        axe("projector, the join screen", projector)
        phone = screen(viewport={"width": 390, "height": 844}, is_mobile=True)
        phone.goto(f"{server}/?join={code}")
        shows(phone, tr("live.following", room=code))
        console.get_by_text(tr("console.join_screen")).click()  # the join screen off
        wait_ready(console)

        # the keyboard alone from here: Next, Previous, Next (stop 2 asks a question), ask, reveal, close
        console.evaluate("() => document.activeElement && document.activeElement.blur()")  # Tab from the top
        for name, backwards, stop in ((tr("console.next_stop"), False, 2), (tr("console.prev_stop"), True, 1),
                                      (tr("console.next_stop"), False, 2)):  # fmt: skip
            reach(console, name, backwards)
            press(console, "Enter")
            console.get_by_text(tr("console.stop_of", n=stop, total=len(lesson.stops))).first.wait_for()
        axe("console, at a stop", console)
        for page in (projector, phone):
            page.wait_for_function("() => location.pathname.endsWith('/steps')", timeout=60_000)
        axe("projector, at a stop", projector)
        axe("phone, at a stop", phone)
        reach(console, tr("console.ask_checkpoint", kind="").rstrip(": ："))
        press(console, "Enter")
        for page in (projector, phone):
            shows(page, tr("live.q_title"))
        axe("console, a question asked", console)
        axe("projector, a question asked", projector)
        axe("phone, a question asked", phone)
        reach(console, tr("live.reveal"), backwards=True)
        press(console, "Enter")
        answer = tr("live.answer_is", answer="").rstrip(".").strip()
        shows(projector, answer)
        axe("console, revealed", console)
        axe("projector, revealed", projector)
        reach(console, tr("console.close_question"))
        press(console, "Enter")
        shows(projector, tr("live.q_title"), present=False)
        axe("projector, the question closed", projector)
        # on to stop 4, /heads: a following phone shows its sections folded (ui/fold.py), and opens one by keyboard
        for stop in (3, 4):
            reach(console, tr("console.next_stop"))
            press(console, "Enter")
            console.get_by_text(tr("console.stop_of", n=stop, total=len(lesson.stops))).first.wait_for()
        phone.wait_for_function("() => location.pathname.endsWith('/heads')", timeout=60_000)
        shows(phone, tr("heads.one_query"))
        axe("phone, /heads's sections folded", phone)
        phone.locator("summary", has_text=tr("heads.one_query")).focus()
        assert_focus_visible(phone)
        press(phone, "Enter")
        phone.wait_for_function("() => document.querySelectorAll('.mha-plot').length >= 3", timeout=60_000)
        assert_focus_visible(phone)  # the focus stays on the section it opened
        axe("phone, a section of /heads open", phone)
    finally:
        for context in contexts:
            context.close()
    left = {name: describe(v) for name, v in checks.items() if v}
    assert not left, "\n".join(f"{name}:\n{text}" for name, text in left.items())
