"""Joining a live class as a student: by the link's code (`?join=CODE`, with `me=` after a reload), or by typing the
code in the home page's join box (Enter joins). A seat is bound to this browser (identity), so a link with someone
else's `me=` gets a seat of its own."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable

import streamlit as st

from classroom import identity
from classroom.session import (
    CODE,
    FOLLOW,
    ROLE,
    SENT,
    SID,
    STATUS_LINE,
    STUDENT,
    error,
    leave,
    role,
    rooms,
    say,
)
from liveclass import LiveError, normalise_code
from ui import first_screen
from ui.a11y import move_focus_to

ATTEMPT = "_live_attempt"  # this session's attempt to join (Rooms.join's `attempt`)
QUEUE = 60.0  # seconds a join may wait in line behind its network's other joins (Limits.join_queue)
TRIED = "_live_tried"  # the join link's code this session already tried (a refusal is said once, not every run)


def join(raw_code: object, sid: object = None) -> bool:
    """Join a room as a student; a refusal becomes the one message of the next run.

    A page run can be stopped at any read or write of the session (Streamlit stops it there when the browser asks
    for another run), also after the store has given the seat and before this session knows it. So the store is
    asked with this session's attempt (a random id kept in the session: `Rooms.join`, asked again with it, gives the
    same seat), and the session writes its seat first and tidies up after: a run stopped anywhere leaves the next run
    to join again, to the same seat (seen under load: a join link's student stayed on the home page, the seat taken
    and not known, 1-2 of 14 phones at 6x CPU on a loaded machine; 0 of 28 since)."""
    ss = st.session_state
    if not ss.get(ATTEMPT):
        ss[ATTEMPT] = secrets.token_urlsafe(12)  # kept before the store is asked
    try:
        store = rooms()
        code, sid = store.join(raw_code, sid, identity.client(), attempt=ss[ATTEMPT],
                               queue=min(QUEUE, store.limits.join_queue), on_wait=wait_in_line)  # fmt: skip
    except LiveError as err:
        error(err)
        return False
    seat = {ROLE: STUDENT, CODE: code, SID: sid, FOLLOW: True, SENT: {}}
    ss.update(seat)
    leave(keep=(*seat, ATTEMPT))  # what was left of an earlier room (a student who follows another class's link)
    st.query_params["join"], st.query_params["me"] = code, sid
    say("success", "live.joined", room=code)
    return True


def wait_in_line(seconds: float) -> None:
    """Many of this network's students join at once: this one waits its turn (Rooms.join), and is told so (the next
    run draws the page without the message). A run stopped before the seat was taken gets the same turn again: the
    process keeps the attempt's turn (Rooms.join)."""
    import i18n

    lang = st.session_state.get("lang")
    if lang not in i18n.LANGS:  # a join link's first run comes before the language picker
        try:
            lang = i18n.normalise_lang(st.context.locale)
        except Exception:  # no browser context (AppTest)
            lang = i18n.DEFAULT_LANG
    st.info(i18n.t("live.join_wait", lang, seconds=max(1, round(seconds))), icon=":material/hourglass_top:")
    time.sleep(seconds)  # nothing of Streamlit's until the seat is taken: a run stopped now would lose the turn


def from_link() -> None:
    """Start of a run: a join link (`?join=CODE&me=ID`) joins once this browser is known (identity.js answers within
    a moment of the page's first run), and joins again in the next run when a run was stopped half-way through (the
    session is a student of no room, or of another one); a refused link leaves the address bar."""
    raw = st.query_params.get("join")
    ss = st.session_state
    if raw is None or ss.get(TRIED) == raw:
        return
    if role() not in (None, STUDENT):  # a console or projector that opens a join link stays what it is
        return
    if role() == STUDENT:
        try:
            if normalise_code(raw) == ss.get(CODE) and ss.get(SID):
                return
        except LiveError:
            pass
    if not identity.ask_browser():
        return
    if not join(raw, st.query_params.get("me")):
        ss[TRIED] = raw  # said once, not at every run (a run stopped before this line says it again: harmless)
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
