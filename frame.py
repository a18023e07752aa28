"""The frame every page is drawn in: page config, language, the settings sidebar, navigation.

The page files live in `app_pages/`, not `pages/`: a folder named `pages` beside app.py makes Streamlit 1.67 run the
first session of a fresh server through its legacy multipage path (`PagesManager.uses_pages_directory`), which
lists the folder's file names as the navigation and runs a page file without app.py, until a first
`st.navigation` call switches that off. Each page still starts with `if outside_frame(): st.stop()`, so a page file
run on its own (AppTest.from_file on a page) draws itself through the frame (which runs the page again, inside).
"""

from __future__ import annotations

import base64
import copy
import threading
from pathlib import Path

import streamlit as st
from streamlit.runtime.scriptrunner_utils.exceptions import StopException

import classroom
import i18n
from budget import on_sweep, start_janitor
from ui import a11y, first_screen, lesson_bar, quiz_state, streamlit_fixes, streamlit_guard, warmup
from ui.chart_element import early_element
from ui.closed_sessions import expire_closed_sessions
from ui.context import set_context
from ui.fair import install_waiter
from ui.nav import CHARTLESS, HOME_INNER, PAGES, page_icon
from ui.sidebar import build_context, language_choice
from ui.streamlit_text import not_found_page

_state = threading.local()  # each session's script runs in its own thread
# Every screen: a display formula wider than a phone scrolls inside its own box instead of widening the page; the
# live class's place at the top takes no room (not even the gap under it) while it holds nothing: 16 px more pushed
# the charts of presentation mode below 720 px.
# A following phone's watches (classroom/watch.py), the mark at the end of its page and the browser's identity element
# (classroom/identity.py: a first screen has only its empty place, which takes no gap) draw nothing and take no gap.
_CSS = ("<style>[data-testid='stMarkdownContainer'] .katex-display { overflow-x: auto; overflow-y: hidden;"
        " max-width: 100%; padding-bottom: .2rem; }"
        " [data-testid='stLayoutWrapper']:has(> .st-key-live_top):not(:has([data-testid='stElementContainer']))"
        " { display: none; } .st-key-live_watch, .st-key-live_watch_page, .st-key-live_identity,"
        " [data-testid='stElementContainer']:has(.mha-drawn) { display: none; }</style>")  # fmt: skip

# The tab's icon is a file of the app: a Material Symbol as favicon is fetched from Google's font server. It goes to
# the browser as a data URL read once: a file's path is read, hashed and stored again by Streamlit on every run.
FAVICON = Path(__file__).resolve().parent / "static" / "favicon.png"
FAVICON_URL = "data:image/png;base64," + base64.b64encode(FAVICON.read_bytes()).decode("ascii")


def run_frame() -> None:
    """Draw the frame and run the page the URL asks for (a visitor's run holds the server's warm-up back)."""
    with warmup.visitor():
        _run_frame()


def _run_frame() -> None:
    start_janitor()  # once per process: idle cache entries expire, freed memory goes back to the system
    streamlit_fixes.install()  # once per process: four per-run costs of Streamlit 1.67 (ui/streamlit_fixes.py)
    streamlit_guard.install()  # no request outside, forged widget states dropped (if the server's start did not)
    streamlit_guard.clean_session()
    on_sweep(expire_closed_sessions)  # and closed tabs past Streamlit's time to live are forgotten (registered once)
    # The live class's own place, first on every page: its bar is a fragment, and a fragment's later runs write to
    # the place it had, so nothing that comes and goes may stand before it (a message that came and went moved the
    # page under it, and a follower's next tick wrote the bar over the step's title).
    top = st.container(key="live_top")
    classroom.start_of_run(top)  # a join, projector or console link; a console's settings to show
    shown = classroom.view()  # the class's state when this run draws it for a following phone or the projector
    # The presentation toggle is drawn later in the run; on a link's first run only the URL knows it is on. A
    # follower's and a projector's sidebar starts collapsed anyway: their runs, the most frequent, do not read the URL
    # (a lock and a copy).
    present = False
    if shown is None:
        present = st.session_state.get("present")
        if present is None:
            present = str(st.query_params.get("present", "")).lower() == "true"
    st.set_page_config(
        page_title="Multi-head attention explorer · 多头注意力", page_icon=FAVICON_URL, layout="wide",
        initial_sidebar_state="collapsed" if present or shown else "auto",
    )
    # A browser's first page, its link without settings: its first screen first. Never in a live class (a join,
    # projector or console link names no setting either, but the class's bar and state are not part of a first screen).
    if first_screen.wanted(live=shown is not None or classroom.role() is not None):
        _first_screen(top)
        return
    if shown is None:
        lesson_bar.before_settings()  # a lesson stop being entered: its settings go into the sidebar's widgets
        live_slot = st.sidebar.container()  # the live-class part of the sidebar, above the settings
        ctx = build_context()
    else:  # a live class's follower or projector: the class's settings, no settings widgets to drift
        state, kind = shown
        if kind == classroom.PROJECTOR:  # the class's language, and no sidebar at all
            live_slot = st.container()
            lang = state.get("lang") if state.get("lang") in i18n.LANGS else i18n.DEFAULT_LANG
        else:
            live_slot = st.sidebar.container()
            lang = language_choice()
        ctx = classroom.view_context(state, kind, lang, i18n.translator(lang))
        set_context(ctx)
    install_waiter(ctx.t)  # a heavy chart that has to wait for the CPU says so (ui/fair.py)
    if ctx.large:  # projector: bigger text everywhere, not only in figures
        st.html(
            "<style>[data-testid='stMarkdownContainer'] p, [data-testid='stMarkdownContainer'] li,"
            " [data-testid='stWidgetLabel'] p, [data-testid='stCaptionContainer'] { font-size: 1.3rem; }"
            " h1 { font-size: 3rem !important; } h2 { font-size: 2.2rem !important; }"
            " .katex-display .katex { font-size: 1.5em; } .katex { font-size: 1.1em; }</style>"
        )
    st.html(_CSS)
    # 13+ pages: expanded, no untranslated "View 3 more"; a follower and the projector navigate with the class only
    nav = st.navigation(_sections(ctx), position="hidden" if shown else "sidebar", expanded=True)
    projector = shown is not None and shown[1] == classroom.PROJECTOR
    # lang, title, focus ring, ui/a11y.js: for every page and screen (the projector has no sidebar: in its own place)
    a11y.install(ctx, nav.title, where=live_slot if projector else None)
    page_now = PAGES[0][1] if nav.url_path in ("", HOME_INNER) else nav.url_path  # the home page is "home"
    early_element(load_plotly=page_now not in CHARTLESS)  # the browser fetches plotly.js while the page arrives
    classroom.on_page(ctx, page_now, live_slot, top, shown[0] if shown else None)
    if not projector:  # the quiz's answers stay in the link on every page (a reload anywhere keeps them)
        quiz_state.carry()
    if shown is None:
        lesson_bar.on_page(ctx, page_now)  # a self-paced lesson: its stop's page, and the bar on top
    _state.inside = True
    try:
        nav.run()
        if shown is None:
            lesson_bar.after_page(ctx, page_now)  # the stop's checkpoint question under the page
    except StopException:  # st.stop() in the page: it ended there on purpose
        classroom.drawn_to_end(mark=False)
        raise
    else:  # a run cut short by another request (a RerunException) is not drawn: a follower's page is drawn again
        classroom.drawn_to_end()
    finally:
        _state.inside = False


def _first_screen(top) -> None:
    """The first screen of a session's first page (ui/first_screen.py): no settings widgets, no navigation (the
    sidebar keeps its place), the page down to its first chart; the hidden element then asks for the full run. The
    live class's place (`top`) is drawn first, as in every run, and stays empty: the page keeps its places."""
    ctx = first_screen.context()
    install_waiter(ctx.t)
    st.sidebar.container(key="first_screen_sidebar")  # the sidebar is there from the start: the page does not move
    st.html(_CSS)
    nav = st.navigation(_sections(ctx), position="hidden")
    a11y.install(ctx, nav.title)  # the first screen has its language, title and focus ring too
    page_now = PAGES[0][1] if nav.url_path in ("", HOME_INNER) else nav.url_path
    if page_now not in first_screen.PAGES:  # the address named another page after all: the usual run
        st.rerun()
    early_element(load_plotly=page_now not in CHARTLESS, tell_when_drawn=True)
    lesson_bar.on_page(ctx, page_now)  # a lesson's first stop: its bar is part of the first screen
    _state.inside = True
    try:
        nav.run()
    finally:
        _state.inside = False


def _sections(ctx) -> dict[str, list]:
    """The navigation's pages by section, titles in the run's language."""
    sections: dict[str, list] = {}
    for i, (path, url, title, *section) in enumerate(PAGES):
        # The home page is "/"; Streamlit names a page by its url_path, so the home page's own one is left
        # to the hidden /home below (Streamlit would say "Page not found" there).
        page = made_page(path, ctx.t(title), page_icon(url), url if i else HOME_INNER, default=(i == 0))
        sections.setdefault(ctx.t(section[0] if section else "nav.beyond"), []).append(page)
        if i == 0:
            sections[ctx.t(section[0])].append(home_alias(path, ctx.t(title), url))
    missing = not_found_page({url for _, url, *_ in PAGES}, ctx.t, PAGES[0][0])  # instead of Streamlit's dialog
    if missing is not None:
        sections.setdefault(ctx.t("nav.explore"), []).append(missing)
    return sections


def home_alias(path: str, title: str, url: str) -> st.Page:
    """A hidden page at /<url> that draws the home page (whose address is "/"): an old /home link works. It is
    not a redirect: `st.switch_page` cannot clear the settings' query parameters, which are bound to widgets."""
    return made_page(path, title, page_icon(url), url, visibility="hidden")


_PAGES_MADE: dict[tuple, st.Page] = {}  # bounded: (pages + the alias) x languages


def made_page(path: str, title: str, icon: str, url_path: str, default: bool = False,
              visibility: str = "visible") -> st.Page:  # fmt: skip
    """`st.Page(path, ...)`, made once per process: a new st.Page looks its file up on the disk (a tenth of a following
    phone's run of /heads went there). st.navigation marks the pages it is given, so each run gets a copy."""
    key = (path, title, icon, url_path, default, visibility)
    if key not in _PAGES_MADE:
        _PAGES_MADE[key] = st.Page(path, title=title, icon=icon, url_path=url_path, default=default,
                                   visibility=visibility)  # fmt: skip
    return copy.copy(_PAGES_MADE[key])


def outside_frame() -> bool:
    """True when a page file runs on its own; it has then been drawn through the frame already."""
    if getattr(_state, "inside", False):
        return False
    run_frame()
    return True
