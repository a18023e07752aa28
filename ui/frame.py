"""The frame every page is drawn in: page config, language, the settings sidebar, navigation.

The page files live in `app_pages/`, not `pages/`: a folder named `pages` beside app.py makes Streamlit 1.67 run the
first session of a fresh server through its legacy multipage path (`PagesManager.uses_pages_directory`), which
lists the folder's file names as the navigation and runs a page file without app.py, until a first
`st.navigation` call switches that off. Each page still starts with `if outside_frame(): st.stop()`, so a page file
run on its own (AppTest.from_file on a page) draws itself through the frame (which runs the page again, inside).
"""

from __future__ import annotations

import threading
from pathlib import Path

import streamlit as st

from budget import on_sweep, start_janitor
from ui import a11y, first_screen, lesson_bar, live, quiz_state, streamlit_fixes, streamlit_guard, warmup
from ui.chart_element import early_element
from ui.closed_sessions import expire_closed_sessions
from ui.fair import install_waiter
from ui.sidebar import build_context
from ui.streamlit_text import not_found_page

_state = threading.local()  # each session's script runs in its own thread

PAGES: tuple[tuple[str, ...], ...] = (
    # (file, url_path == file stem, title key, section key); the first is the home page at "/"
    ("app_pages/home.py", "home", "page.home", "nav.explore"),
    ("app_pages/inputs.py", "inputs", "page.inputs", "nav.explore"),
    ("app_pages/steps.py", "steps", "page.steps", "nav.explore"),
    ("app_pages/heads.py", "heads", "page.heads", "nav.explore"),
    ("app_pages/positional.py", "positional", "page.positional", "nav.explore"),
    ("app_pages/worked.py", "worked", "page.worked", "nav.classroom"),
    ("app_pages/quiz.py", "quiz", "page.quiz", "nav.classroom"),
    ("app_pages/glossary.py", "glossary", "page.glossary", "nav.classroom"),
    ("app_pages/lesson.py", "lesson", "page.lesson", "nav.classroom"),
    ("app_pages/lab.py", "lab", "page.lab", "nav.beyond"),
    ("app_pages/why.py", "why", "page.why", "nav.beyond"),
    ("app_pages/subspaces.py", "subspaces", "page.subspaces", "nav.beyond"),
    ("app_pages/minilm.py", "minilm", "page.minilm", "nav.beyond"),
    ("app_pages/note004.py", "note004", "page.note004", "nav.beyond"),
    ("app_pages/errata.py", "errata", "page.errata", "nav.beyond"),
    ("app_pages/decoding.py", "decoding", "page.decoding", "nav.llm"),
    ("app_pages/sharing.py", "sharing", "page.sharing", "nav.llm"),
    ("app_pages/positions.py", "positions", "page.positions", "nav.llm"),
    ("app_pages/longcontext.py", "longcontext", "page.longcontext", "nav.llm"),
)
# Pages that draw no plotly chart (text, LaTeX, widgets, the Graphviz diagram): plotly.js is not loaded early for them
CHARTLESS = frozenset({"home", "worked", "quiz", "lesson", "lab", "errata"})
HOME_INNER = "home-page"  # Streamlit's own name of the home page (its address is "/"; /home is an alias)
# Material Symbols ship with Streamlit's own static files: they draw the same on every machine, offline,
# where emoji need an emoji font the classroom computer may not have (they show as empty boxes there).
ICONS = {
    "home": "home", "inputs": "text_fields", "steps": "stairs", "heads": "view_module", "positional": "waves",
    "worked": "edit_note", "quiz": "quiz", "lab": "model_training", "why": "lightbulb", "minilm": "smart_toy",
    "subspaces": "extension", "note004": "science", "errata": "rule", "glossary": "translate", "lesson": "school",
    "decoding": "keyboard_double_arrow_right", "sharing": "group_work", "positions": "rotate_right",
    "longcontext": "width_wide",
}  # fmt: skip


# The tab's icon is a file of the app: a Material Symbol as favicon is fetched from Google's font server.
FAVICON = Path(__file__).resolve().parent.parent / "static" / "favicon.png"


def page_icon(url: str) -> str:
    """The Material Symbol of a page (its url_path), as Streamlit's icon= parameters take it."""
    return f":material/{ICONS.get(url, 'description')}:"


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
    # The presentation toggle is drawn later in the run; on a link's first run only the URL knows it is on.
    present = bool(st.session_state.get("present", str(st.query_params.get("present", "")).lower() == "true"))
    st.set_page_config(
        page_title="Multi-head attention explorer · 多头注意力", page_icon=str(FAVICON), layout="wide",
        initial_sidebar_state="collapsed" if present else "auto",
    )
    if first_screen.wanted():  # a browser's first page, its link without settings: its first screen first
        _first_screen()
        return
    live.before_settings()  # a join link, or the teacher's settings a live-class student follows
    lesson_bar.before_settings()  # a lesson stop being entered: its settings go into the sidebar's widgets
    live_slot = st.sidebar.container()  # the live-class panel, above the settings
    ctx = build_context()
    install_waiter(ctx.t)  # a heavy chart that has to wait for the CPU says so (ui/fair.py)
    if ctx.large:  # projector: bigger text everywhere, not only in figures
        st.html(
            "<style>[data-testid='stMarkdownContainer'] p, [data-testid='stMarkdownContainer'] li,"
            " [data-testid='stWidgetLabel'] p, [data-testid='stCaptionContainer'] { font-size: 1.3rem; }"
            " h1 { font-size: 3rem !important; } h2 { font-size: 2.2rem !important; }"
            " .katex-display .katex { font-size: 1.5em; } .katex { font-size: 1.1em; }</style>"
        )
    nav = st.navigation(_sections(ctx), position="sidebar", expanded=True)  # 13+ pages: no untranslated "View 3 more"
    a11y.install(ctx, nav.title)  # lang, title, focus ring, ui/a11y.js: for every page, the live ones too
    url = nav.url_path or PAGES[0][1]
    early_element(load_plotly=url not in CHARTLESS)  # the browser fetches plotly.js while the page arrives
    live.on_page(ctx, url, live_slot)
    quiz_state.carry()  # the quiz's answers stay in the link on every page (a reload anywhere keeps them)
    lesson_bar.on_page(ctx, url)  # a self-paced lesson: its stop's page, and the bar on top
    _state.inside = True
    try:
        nav.run()
        lesson_bar.after_page(ctx, url)  # the stop's checkpoint question under the page
        live.after_page()  # a live-class student's page was drawn to the end
    finally:
        _state.inside = False


def _first_screen() -> None:
    """The first screen of a session's first page (ui/first_screen.py): no settings widgets, no navigation (the
    sidebar keeps its place), the page down to its first chart; the hidden element then asks for the full run."""
    ctx = first_screen.context()
    install_waiter(ctx.t)
    st.sidebar.container(key="first_screen_sidebar")  # the sidebar is there from the start: the page does not move
    nav = st.navigation(_sections(ctx), position="hidden")
    a11y.install(ctx, nav.title)  # the first screen has its language, title and focus ring too
    url = nav.url_path or PAGES[0][1]
    if url not in first_screen.PAGES:  # the address named another page after all: the usual run
        st.rerun()
    early_element(load_plotly=url not in CHARTLESS, tell_when_drawn=True)
    lesson_bar.on_page(ctx, url)  # a lesson's first stop: its bar is part of the first screen
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
        page = st.Page(path, title=ctx.t(title), icon=page_icon(url), url_path=url if i else HOME_INNER,
                       default=(i == 0))  # fmt: skip
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
    return st.Page(path, title=title, icon=page_icon(url), url_path=url, visibility="hidden")


def outside_frame() -> bool:
    """True when a page file runs on its own; it has then been drawn through the frame already."""
    if getattr(_state, "inside", False):
        return False
    run_frame()
    return True
