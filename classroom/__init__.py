"""The live class: a teacher leads from a console, the projector shows the class the lesson, phones follow. One module
per screen over the room store `liveclass` (which knows nothing of pages):

- `console`: the teacher's own screen (`/console`), with `leading` (publishing what the class shows) and `asking`;
- `projector`: the main screen, nothing secret on it;
- `follower`: a student's phone, following passively, exploring on purpose, coming back;
- `join`: joining by link or code; `identity`: which browser, at which address;
- `plan`: the route through a lesson's stops (the `lessons` model) or the teacher's pages, and the clicker's moves;
- `questions`, `typed_answers`, `answers`: questions on each screen and the teacher's CSV; `session`: what they share.

The frame (frame.py) calls: `start_of_run` before the settings, `view` (the class's state when this run draws it for a
follower or the projector, else None: the normal app), `on_page` after the navigation is known, `drawn_to_end` when the
page ran to its end.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from classroom import console, follower, join, leading, projector
from classroom.session import CODE, CONSOLE, STUDENT, accepted, role, show_message
from classroom.watch import page_watch
from ui import handover
from ui.context import Context

handover.install()  # Streamlit 1.67 can lose the end of a page with a fragment timer (ui/handover.py)

FOLLOWER, PROJECTOR = "follower", "projector"  # what `view` says this run draws


def start_of_run(top: Any) -> None:
    """Before the settings widgets: a join, projector or console link; a console's settings to show. `top` is the
    live class's place at the top of the page: the element that asks the browser who it is goes into its first box
    (the message and the bar into the next two, `on_page`), so that every part keeps its place from run to run."""
    params = st.query_params
    with top.container():
        if params.get("join") is not None:
            join.from_link()
        elif params.get("screen") == "projector" and not projector.is_projector():
            projector.open_from_link()
        elif params.get("room") and (params.get("as") or params.get("invite")) and role() is None:
            console.resume_from_link()
    if role() == CONSOLE:
        leading.before_settings()


def view() -> tuple[dict[str, Any], str] | None:
    """(the class's state, FOLLOWER or PROJECTOR) when this run draws the class's page for a following phone or the
    projector; None when it draws the normal app (the explorer, an exploring student, the console)."""
    if follower.following():
        room = follower.room_now()
        return (room.state, FOLLOWER) if room is not None else None
    if projector.is_projector():
        room = follower.room_now()
        return (room.state, PROJECTOR) if room is not None else None
    return None


def view_context(state: dict[str, Any], kind: str, lang: str, tr: Callable[..., str]) -> Context:
    return follower.context(state, lang, tr, projector=kind == PROJECTOR)


def on_page(ctx: Context, page: str, slot: Any, top: Any, state: dict[str, Any] | None) -> None:
    """After the navigation is known, before the page: the console publishes; a follower or the projector goes to
    the class's page; the message and the bar go into `top` (each in a box of its own, always there), the sidebar's
    classroom part into `slot`."""
    tr, now = ctx.t, role()
    if now == CONSOLE:
        leading.publish(ctx)  # first: a refusal (the class ended, this console was closed) leaves before drawing
        now = role()
    message, bar = top.container(), top.container()
    if ctx.screen != PROJECTOR:
        with message:
            show_message(tr)
    if state is not None and ctx.screen == PROJECTOR:
        follower.go_to_class_page(state, page, projector.query())
        with bar:
            st.html(projector.CSS)
            projector.bar(tr)
        return
    if state is not None:
        follower.go_to_class_page(state, page, {"join": st.session_state[CODE], "me": st.session_state["_live_sid"]})
    with slot:
        if now == STUDENT:
            follower.sidebar(tr)
        elif now == CONSOLE and accepted(CONSOLE):
            console.sidebar(tr)
        elif now is None:
            st.page_link("app_pages/console.py", label=tr("live.teach"), icon=":material/co_present:")
    if now == STUDENT:
        ss = st.session_state
        if st.query_params.get("join") != ss[CODE] or st.query_params.get("me") != ss["_live_sid"]:
            st.query_params["join"], st.query_params["me"] = ss[CODE], ss["_live_sid"]  # a reload joins again
        with bar:
            page_watch(follower.class_moved)  # outside the bar's fragment: runs the whole page (classroom/watch.py)
            follower.bar(tr)
    if now == CONSOLE:
        with bar:
            st.html(console.CSS)


def drawn_to_end(mark: bool = True) -> None:
    """The page ran to its end (or stopped itself): a follower's page shows the class's state. `mark`: the run can
    still draw (not after st.stop()), and its last element says what the page shows (follower.mark_drawn)."""
    digest = follower.drawn_to_end()
    if digest is not None and mark:
        follower.mark_drawn(digest)


__all__ = ["FOLLOWER", "PROJECTOR", "drawn_to_end", "on_page", "role", "start_of_run", "view", "view_context"]
