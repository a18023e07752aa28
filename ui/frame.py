"""The frame every page is drawn in: page config, language, the settings sidebar, navigation.

Streamlit runs the very first request after a server start through its legacy `pages/` path, which
executes a page file without app.py. Each page therefore starts with `if outside_frame(): st.stop()`:
run on its own, it draws itself through the frame (which runs the page again, inside) and stops.
"""

from __future__ import annotations

import threading
from pathlib import Path

import streamlit as st

from budget import on_sweep, start_janitor
from ui import a11y, live, streamlit_fixes
from ui.closed_sessions import expire_closed_sessions
from ui.fair import install_waiter
from ui.sidebar import build_context
from ui.streamlit_text import default_placeholder, home_by_name, not_found_page

_state = threading.local()  # each session's script runs in its own thread

PAGES: tuple[tuple[str, ...], ...] = (
    # (file, url_path == file stem, title key, section key); the first is the home page at "/"
    ("pages/home.py", "home", "page.home", "nav.explore"),
    ("pages/inputs.py", "inputs", "page.inputs", "nav.explore"),
    ("pages/steps.py", "steps", "page.steps", "nav.explore"),
    ("pages/heads.py", "heads", "page.heads", "nav.explore"),
    ("pages/positional.py", "positional", "page.positional", "nav.explore"),
    ("pages/worked.py", "worked", "page.worked", "nav.classroom"),
    ("pages/quiz.py", "quiz", "page.quiz", "nav.classroom"),
    ("pages/lab.py", "lab", "page.lab", "nav.beyond"),
    ("pages/why.py", "why", "page.why", "nav.beyond"),
    ("pages/subspaces.py", "subspaces", "page.subspaces", "nav.beyond"),
    ("pages/minilm.py", "minilm", "page.minilm", "nav.beyond"),
    ("pages/note004.py", "note004", "page.note004", "nav.beyond"),
    ("pages/errata.py", "errata", "page.errata", "nav.beyond"),
)
# Material Symbols ship with Streamlit's own static files: they draw the same on every machine, offline,
# where emoji need an emoji font the classroom computer may not have (they show as empty boxes there).
ICONS = {
    "home": "home", "inputs": "text_fields", "steps": "stairs", "heads": "view_module", "positional": "waves",
    "worked": "edit_note", "quiz": "quiz", "lab": "model_training", "why": "lightbulb", "minilm": "smart_toy",
    "subspaces": "extension", "note004": "science", "errata": "rule",
}  # fmt: skip


# The tab's icon is a file of the app: a Material Symbol as favicon is fetched from Google's font server.
FAVICON = Path(__file__).resolve().parent.parent / "static" / "favicon.png"


def page_icon(url: str) -> str:
    """The Material Symbol of a page (its url_path), as Streamlit's icon= parameters take it."""
    return f":material/{ICONS.get(url, 'description')}:"


def run_frame() -> None:
    """Draw the frame and run the page the URL asks for."""
    start_janitor()  # once per process: idle cache entries expire, freed memory goes back to the system
    streamlit_fixes.install()  # once per process: four per-run costs of Streamlit 1.67 (ui/streamlit_fixes.py)
    on_sweep(expire_closed_sessions)  # and closed tabs past Streamlit's time to live are forgotten (registered once)
    # The presentation toggle is drawn later in the run; on a link's first run only the URL knows it is on.
    present = bool(st.session_state.get("present", str(st.query_params.get("present", "")).lower() == "true"))
    st.set_page_config(
        page_title="Multi-head attention explorer · 多头注意力", page_icon=str(FAVICON), layout="wide",
        initial_sidebar_state="collapsed" if present else "auto",
    )
    live.before_settings()  # a join link, or the teacher's settings a live-class student follows
    live_slot = st.sidebar.container()  # the live-class panel, above the settings
    ctx = build_context()
    install_waiter(ctx.t)  # a heavy chart that has to wait for the CPU says so (ui/fair.py)
    sections: dict[str, list] = {}
    by_name = home_by_name(PAGES[0][1])  # /home: the home page under its name, not Streamlit's "Page not found"
    for i, (path, url, title, *section) in enumerate(PAGES):
        page = st.Page(path, title=ctx.t(title), icon=page_icon(url), url_path=url, default=(i == 0 and not by_name))
        sections.setdefault(ctx.t(section[0] if section else "nav.beyond"), []).append(page)
    missing = not_found_page({url for _, url, *_ in PAGES}, ctx.t, PAGES[0][0])  # instead of Streamlit's dialog
    if missing is not None:
        sections.setdefault(ctx.t("nav.explore"), []).append(missing)
    if by_name:
        sections.setdefault(ctx.t("nav.explore"), []).append(default_placeholder(PAGES[0][0], ctx.t(PAGES[0][2])))
    if ctx.large:  # projector: bigger text everywhere, not only in figures
        st.html(
            "<style>[data-testid='stMarkdownContainer'] p, [data-testid='stMarkdownContainer'] li,"
            " [data-testid='stWidgetLabel'] p, [data-testid='stCaptionContainer'] { font-size: 1.3rem; }"
            " h1 { font-size: 3rem !important; } h2 { font-size: 2.2rem !important; }"
            " .katex { font-size: 1.5em; }</style>"
        )
    nav = st.navigation(sections, position="sidebar", expanded=True)  # 13+ pages: no untranslated "View 3 more"
    a11y.install(ctx, nav.title)  # lang, title, focus ring, ui/a11y.js (for every page, the live ones too)
    live.on_page(ctx, nav.url_path or PAGES[0][1], live_slot)
    _state.inside = True
    try:
        nav.run()
        live.after_page()  # a live-class student's page was drawn to the end
    finally:
        _state.inside = False


def outside_frame() -> bool:
    """True when a page file runs on its own; it has then been drawn through the frame already."""
    if getattr(_state, "inside", False):
        return False
    run_frame()
    return True
