"""Joining a live class as a student: by the link's code (`?join=CODE`, with `me=` after a reload), or by typing the
code in the home page's join box (Enter joins). A seat is bound to this browser (identity), so a link with someone
else's `me=` gets a seat of its own."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from classroom import identity
from classroom.session import CODE, FOLLOW, ROLE, SENT, SID, STATUS_LINE, STUDENT, error, leave, role, rooms, say
from liveclass import LiveError, normalise_code
from ui import first_screen
from ui.a11y import move_focus_to

TRIED = "_live_tried"  # the join link's code this session already tried (a refusal is said once, not every run)


def join(raw_code: object, sid: object = None) -> bool:
    """Join a room as a student; a refusal becomes the one message of the next run."""
    try:
        code, sid = rooms().join(raw_code, sid, identity.client())
    except LiveError as err:
        error(err)
        return False
    leave()
    st.session_state.update({ROLE: STUDENT, CODE: code, SID: sid, FOLLOW: True, SENT: {}})
    st.query_params["join"], st.query_params["me"] = code, sid
    say("success", "live.joined", room=code)
    return True


def from_link() -> None:
    """Start of a run: a join link (`?join=CODE&me=ID`) joins once this browser is known (identity.js answers within
    a moment of the page's first run); a refused link leaves the address bar."""
    raw = st.query_params.get("join")
    ss = st.session_state
    if raw is None or ss.get(TRIED) == raw:
        return
    if role() == STUDENT:
        try:
            if normalise_code(raw) == ss.get(CODE):
                return
        except LiveError:
            pass
    if role() is not None:  # a console or projector that opens a join link stays what it is
        return
    if not identity.ask_browser():
        return
    ss[TRIED] = raw
    if not join(raw, st.query_params.get("me")):
        for name in ("join", "me"):
            if name in st.query_params:
                del st.query_params[name]


def _join_typed() -> None:
    raw = st.session_state.get("live_join_code", "")
    move_focus_to(STATUS_LINE)  # once joined, "Following class ..." (a refusal keeps the join box, and the focus)
    if identity.browser_id():
        join(raw)
    else:  # the browser has not said who it is yet (a moment after the page opened): as a join link, it joins then
        st.query_params["join"] = str(raw)[:16]


def join_box(tr: Callable[..., str]) -> None:
    """Home page: type the code the teacher shows, then Enter or the button."""
    if role():
        return
    identity.ask_browser(later=first_screen.active())  # a first screen is not rerun before its first chart
    with st.form("live_join_form", border=True, enter_to_submit=True):
        left, right = st.columns([3, 1], vertical_alignment="bottom")
        left.text_input(tr("live.join_label"), key="live_join_code", max_chars=16, placeholder="ABC234",
                        help=tr("live.join_help"))  # fmt: skip
        right.form_submit_button(tr("live.join"), on_click=_join_typed, icon=":material/login:", width="stretch")
