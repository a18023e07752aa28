"""A student's phone in a live class. It follows passively: the page, settings and step are the class's (read from the
room, never from this phone's widgets), so there is nothing to drift and no Prev/Next to leave the teacher by. An
explicit "Explore on my own" opens the whole app at the class's setting; "Back to the teacher" lands on the class's
page, settings and step every time, because following draws the room's state, not the widgets'.

How a follower learns of a change: its bar is a fragment, and the page's watch (classroom/watch.py) polls the
room's version over HTTP every POLL_STUDENT seconds (liveclass/http.py: one read by primary key, shared by the
process's followers for VERSION_AGE; the poll is the student's heartbeat too) and asks for a run of the bar only
when the version moved, when the bar asked for one (`now`, after a page change), or when the page's run ended
without the mark of what it should show. When the class's page, settings or step moved, the bar reruns the app,
which draws the room's state. Only a run that reached the page's end marks the state drawn (`drawn_to_end`, and
`mark_drawn` at the page's end for the watch): after a run cut short (the browser's next request under load) the
watch asks for the bar, which asks for the page again (at most MAX_REDRAWS times for one state): a follower is never
left on a partly drawn page.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import streamlit as st

from classroom import identity, questions, typed_answers
from classroom.session import (
    BEAT,
    BEAT_AT,
    CODE,
    DOWN,
    FOLLOW,
    MAX_REDRAWS,
    REDRAWS,
    ROLE,
    ROOM,
    SEEN,
    SENT,
    SID,
    STATUS_LINE,
    STUDENT,
    VERSION_AGE,
    digest,
    error,
    followed,
    follower_view,
    fragment_only,
    leave,
    read_room,
    rooms,
    say,
    session_id,
    state_settings,
    state_step,
)  # fmt: skip
from classroom.watch import DRAWN_MARK, watch
from explorer import Settings
from figures.style import FigureStyle
from lessons.pages import page_files
from liveclass import LiveError, Room, StoreUnavailable
from ui import screen
from ui.a11y import move_focus_to
from ui.context import Context
from ui.export import apply_to_widgets


def following() -> bool:
    return st.session_state.get(ROLE) == STUDENT and bool(st.session_state.get(FOLLOW))


FRESH = "_live_fresh"  # in session state: this run reads the room itself (the watch saw the class move: page_watch)


def class_moved() -> None:
    """The page's watch element asks for this run because the class's page, settings or step moved (classroom/watch.py):
    the run reads the room itself, not a version another process or session read a moment before."""
    st.session_state[FRESH] = True


def room_now() -> Room | None:
    """The room as this run shows it: the bar's last read, read again when the room's version moved since (a version
    read is shared by the process's followers for VERSION_AGE) or when the class moved (class_moved); None when the
    room is gone."""
    ss = st.session_state
    try:
        store = rooms()
        fresh = ss.pop(FRESH, False)  # the watch saw the class move (page_watch): read it now, not the process's memo
        if fresh or ss.get(ROOM) is None or store.version(ss[CODE], max_age=VERSION_AGE) != ss.get(SEEN):
            read_room(store, ss[CODE])
    except StoreUnavailable:
        pass  # the last room read, if any: the page stays as it was
    except LiveError as err:
        leave()
        error(err)
        return None
    return ss.get(ROOM)


def context(state: dict[str, Any], lang: str, tr: Callable[..., str], projector: bool = False) -> Context:
    """The context of a followed page: the class's settings, step and presentation mode; this screen's language and
    figure style (a phone's, or the projector's large one)."""
    settings = state_settings(state) or Settings()
    present = projector or bool(state.get("present"))
    dark = screen.browser_is_dark()
    narrow = not projector and screen.is_narrow()  # by the width the browser draws at (ui/a11y.js), as the frame's
    if projector:  # big type, and every chart short enough to fit the screen with a line above it
        style = FigureStyle.present()
    elif narrow:
        style = FigureStyle.phone()
    else:
        style = FigureStyle()
    _run.viewing = followed(state, projector)  # drawn once the page ran to its end (drawn_to_end)
    return Context(lang=lang, t=tr, settings=settings, style=style.with_(dark=dark), large=projector,
                   present=present, screen="projector" if projector else "follower", narrow=narrow)  # fmt: skip


def go_to_class_page(state: dict[str, Any], page: str, query: dict[str, str]) -> None:
    """Before the page: to the class's page when this run is on another, and the class's step."""
    target = state.get("page") or "home"
    files = page_files()
    st.session_state["step_index"] = state_step(state)
    if target != page and target in files:
        st.session_state[REPAIR] = True
        st.switch_page(files[target], query_params=query)


# What each session's last complete run drew, kept outside the session state: after a page's st.stop() the session
# state cannot be read or written any more (every access is a yield point that raises the stop again), and a run that
# is cut short (another request) must leave no mark at all. Keyed by session id, bounded, tiny (a digest each).
_run = threading.local()  # the followed state this script thread's run draws
_drawn: OrderedDict[str, str] = OrderedDict()
_drawn_lock = threading.Lock()
MAX_SESSIONS = 20_000


def drawn_to_end() -> str | None:
    """The frame: this run's page ran to its end (or ended itself with st.stop()): what it followed is on screen.
    Returns the digest of what it followed (None for a page that follows nothing)."""
    viewing, _run.viewing = getattr(_run, "viewing", None), None
    sid = session_id()
    if viewing is None or not sid:
        return None
    drawn = digest(viewing)
    with _drawn_lock:
        _drawn[sid] = drawn
        _drawn.move_to_end(sid)
        while len(_drawn) > MAX_SESSIONS:
            _drawn.popitem(last=False)
    return drawn


def mark_drawn(drawn: str) -> None:
    """The last element of a followed page that ran to its end: the phone's watch sees what the page shows, and asks
    for the page again when a run was cut short before it (a digest of hex digits: nothing to escape)."""
    st.html(f'<span class="{DRAWN_MARK}" data-drawn="{drawn}" hidden></span>')


def is_drawn(state: dict[str, Any]) -> bool:
    with _drawn_lock:
        return _drawn.get(session_id()) == digest(state)


def forget_drawn() -> None:
    with _drawn_lock:
        _drawn.pop(session_id(), None)


# After a page change (st.switch_page), the first run of the bar's timer can leave the browser without the new page's
# elements (Streamlit 1.67: measured with four screens following eight page changes, 3 of 32 pages came out empty,
# the server having drawn each to its end). The page is drawn once more at that first tick: 0 of 96 since.
REPAIR = "_live_repair"


def want_redraw(room: Room | None, projector: bool = False) -> bool:
    """In a run of the bar alone: True when the page must be drawn again (the class moved, the last full run was cut
    short before its end, or it changed page: REPAIR), at most MAX_REDRAWS times for one state."""
    ss = st.session_state
    if ss.pop(REPAIR, None):
        return True
    if room is None:
        return False
    want = followed(room.state, projector)
    if is_drawn(want):
        return False
    last, count = ss.get(REDRAWS) or (None, 0)
    count = count + 1 if last == want else 1
    if count > MAX_REDRAWS:
        return False
    ss[REDRAWS] = (want, count)
    return True


# ---------------------------------------------------------------- joining again, exploring, coming back
def rejoin() -> None:
    """The seat was given back after a long absence (a phone asleep): join again, quietly, with a new seat."""
    ss = st.session_state
    store = rooms()
    code, sid = store.join(ss[CODE], ss[SID], identity.client(), queue=store.limits.join_queue)
    ss[SID] = sid
    st.query_params["join"], st.query_params["me"] = code, sid


def explore() -> None:
    """"Explore on my own": the whole app, at the class's page, settings and step, for this student to change."""
    ss = st.session_state
    room = ss.get(ROOM)
    state = room.state if room is not None else {}
    settings = state_settings(state)
    if settings is not None:
        apply_to_widgets(settings)
    ss["step_index"] = state_step(state)
    ss["present"] = bool(state.get("present"))
    ss[FOLLOW] = False
    ss[BEAT_AT] = 0.0
    move_focus_to(STATUS_LINE)  # "You are exploring": a screen reader hears it; Tab reaches "Back to the teacher"


def back() -> None:
    """"Back to the teacher": following again; the next run draws the class's page, settings and step."""
    ss = st.session_state
    ss[FOLLOW] = True
    ss[BEAT_AT] = 0.0
    forget_drawn()
    ss["present"] = False  # this phone's own presentation toggle (exploring) is not the class's
    move_focus_to(STATUS_LINE)  # "Following class ...", on the class's page


def _leave() -> None:
    leave()
    say("info", "live.left")


def sidebar(tr: Callable[..., str]) -> None:
    """The student's part of the sidebar: which class, and leaving it."""
    st.sidebar.caption(tr("live.student_in", room=st.session_state[CODE]))
    st.sidebar.button(tr("live.leave"), key="live_leave", on_click=_leave, icon=":material/logout:")


# ---------------------------------------------------------------- the bar
CHECKED = "_live_sent_checked"  # the question whose answer from this seat this session has looked up in the store


def sent_again(room: Room) -> None:
    """A phone whose server went away comes back on another server process with its seat (its page joins again: a new
    session), and a reload is a new session too: its "Sent" line comes back, from its answer in the store, read once
    per question and session (when a question is asked, no one has answered yet: a short read)."""
    ss = st.session_state
    sent = ss.setdefault(SENT, {})
    if room.qid in sent or ss.get(CHECKED) == room.qid:
        return
    ss[CHECKED] = room.qid
    try:
        mine = rooms().mine(ss[CODE], ss[SID], identity.browser_id())
    except LiveError:
        return
    if mine is not None:
        sent[room.qid] = mine.text if mine.choice < 0 else mine.choice


@st.fragment
def bar(tr: Callable[..., str]) -> None:
    """Top of every page of a joined student: following or exploring, the way back, the class's question."""
    ss = st.session_state
    if ss.get(ROLE) != STUDENT:
        return
    code, sid = ss[CODE], ss[SID]
    try:
        store = rooms()
        version = store.version(code, max_age=VERSION_AGE)
        if time.monotonic() - float(ss.get(BEAT_AT, 0.0)) > BEAT:
            if not store.heartbeat(code, sid, bool(ss.get(FOLLOW)), every=BEAT):  # the polls' own, if written
                rejoin()
            ss[BEAT_AT] = time.monotonic()
        if version != ss.get(SEEN) or ss.get(ROOM) is None:
            read_room(store, code)
        ss[DOWN] = False
    except StoreUnavailable:
        ss[DOWN] = True
    except LiveError as err:  # the room ended or expired: back to the normal app
        leave()
        error(err)
        st.rerun(scope="app")
    room: Room | None = ss.get(ROOM)
    if ss.get(FOLLOW) and fragment_only() and want_redraw(room):
        st.rerun(scope="app")
    if ss.get(DOWN):  # the class cannot be read: said, and the student may still explore on their own meanwhile
        st.warning(tr("live.err.store_down"), icon=":material/cloud_off:")
    if ss.get(FOLLOW):
        left, right = st.columns([3, 2], vertical_alignment="center")
        left.container(key=STATUS_LINE).caption(f":material/sync: {tr('live.following', room=code)}")
        if right.button(tr("live.explore"), key="live_explore", icon=":material/explore:", width="stretch",
                        help=tr("live.explore_help")):  # fmt: skip
            explore()
            st.rerun(scope="app")  # the whole page becomes the student's own (a button in the bar reruns the bar)
    else:
        left, right = st.columns([3, 2], vertical_alignment="center")
        left.container(key=STATUS_LINE).info(tr("live.exploring"), icon=":material/explore:")
        if right.button(tr("live.back"), key="live_back", icon=":material/undo:", type="primary", width="stretch"):
            back()
            st.rerun(scope="app")
    if room is not None and room.question:
        sent_again(room)
        if typed_answers.is_typed(room.question):
            typed_answers.student(tr, room)
        else:
            questions.student(tr, room, ss.setdefault(SENT, {}))
    # a run at once after a page change (REPAIR); a page cut short before its end (no mark of `want` at its end:
    # mark_drawn) is asked for again by the watch, and drawn again by want_redraw in that run of the bar
    following_now = bool(ss.get(FOLLOW))
    want = follower_view(room.state) if following_now and room is not None else ""
    watch(code, sid, following_now, ss.get(SEEN), following_now and bool(ss.get(REPAIR)), want)


__all__ = ["back", "bar", "context", "drawn_to_end", "explore", "following", "go_to_class_page", "mark_drawn", "rejoin",
           "room_now", "sidebar", "want_redraw"]  # fmt: skip
