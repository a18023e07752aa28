"""A session's first page: the first screen first, then the rest (issue 38, docs/PERFORMANCE.md).

On a slow CPU the browser spent most of a first visit on what the first chart does not need. Measured in Chromium
(CDP trace, the main thread's CPU time before the first chart of /heads, second visit): the whole page 1,040 ms,
the minimal one-chart app 370 ms; without the sidebar's widgets 870, without the navigation too 730, and the page's
first screen alone (its text and first chart) 530. Every element the server has sent is drawn before the first chart:
the browser gets a whole page's elements within a fraction of a second and draws them in a few passes, and the
chart is one of the last things ready (its script, then plotly.js).

So the first run of a session, for a link that carries no setting, draws only the first screen: the frame without
the settings widgets and the navigation (an empty sidebar keeps its place), and the page down to its first chart (the
page says where: `end()`); a hidden element (ui/plot.js) starts loading plotly.js and tells the server once that
chart is on screen, and the server then runs the page as usual (widgets, navigation, the rest of the page). The
first screen is drawn the same way in both runs, so the second one does not redraw it.

Only when it cannot change what is shown: a browser is there (not AppTest, not the warm-up), the link names no
setting (the settings are then the defaults, which need no widget: `context()`), and the page is one of PAGES.
Everything else runs as before.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import streamlit as st

import i18n
from explorer import Settings, run_scene
from ui.page_head import page_name

# The pages whose first screen ends with a chart they mark with end() (the lesson's first stop is the home page).
PAGES = frozenset({"home", "inputs", "steps", "heads", "positional"})
# A link's parameters that leave the settings at their defaults (the language; a lesson and its stop, answers).
NEUTRAL_PARAMS = frozenset({"lang", "lesson", "stop", "la"})
_DONE = "_first_screen_done"  # in session state: this session's first run is over
_ACTIVE = "_first_screen_active"  # in session state, during a first-screen run


def requested_page() -> str:
    """The page the browser's address names (url_path; "home" for the home page)."""
    return page_name(urlsplit(st.context.url or "").path)


def wanted(live: bool = False) -> bool:
    """True for a first-screen run: a browser's first run in this session, on a page of PAGES, with a link that names
    no setting, not `live` (a live class's screen: its bar and the class's state belong on its first screen). Called
    once at the start of every run (the answer holds for the run)."""
    first = not st.session_state.get(_DONE)
    st.session_state[_DONE] = True
    try:
        url = st.context.url
    except Exception:  # no browser (AppTest)
        url = None
    active = bool(
        first and not live and url and requested_page() in PAGES and set(st.query_params) <= NEUTRAL_PARAMS
        and st.query_params.get("lang", "en") in i18n.LANGS
    )  # fmt: skip
    st.session_state[_ACTIVE] = active
    return active


def active() -> bool:
    """True during a first-screen run."""
    return bool(st.session_state.get(_ACTIVE))


def context():
    """The run's Context without the sidebar's widgets: the default settings, the language of the link or the browser,
    the figures' style as the sidebar chooses it with its widgets at their defaults."""
    from ui.screen import browser_is_dark
    from ui.sidebar import _lang_default, make_context

    lang = str(st.query_params.get("lang") or _lang_default())
    settings = Settings()
    run_scene(settings)  # into the scene cache, as build_context does
    return make_context(lang, settings, large=False, present=False, dark=browser_is_dark())


def end() -> None:
    """A page, after its first screen (its first chart): a first-screen run ends here."""
    if active():
        st.session_state[_ACTIVE] = False
        st.stop()
