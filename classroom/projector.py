"""The projector: what the whole class sees. The class's current page (the lesson's stop) full screen in presentation
mode, no sidebar; the join code and its QR code when the teacher shows them; a question only while it is asked, its
answer and bars only once revealed, nothing once it is closed. Nothing secret is ever drawn here: no teacher key, no
count of answers before the reveal, no link that opens a console.

A projector is a screen of the room (liveclass: `open_screen(..., "projector")`): opened from the console's private
link (accepted at once), or by `?room=CODE&screen=projector` typed on the projector's computer (it waits until the
console accepts it). It follows the room like a phone (`follower`), and while accepted its clicker keys move the class:
every press, in order (ui/keys.js counts them; `plan.move` applies them one by one).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import streamlit as st

from classroom import identity, plan, questions, typed_answers
from classroom.follower import want_redraw
from classroom.session import (
    BEAT,
    BEAT_AT,
    CODE,
    DOWN,
    PARAMS,
    POLL_STUDENT,
    PROJECTOR,
    ROLE,
    ROOM,
    SEEN,
    SID,
    VERSION_AGE,
    error,
    fragment_only,
    join_link,
    leave,
    link,
    md,
    qr_svg,
    read_room,
    rooms,
    screen_pass,
    state_json,
)  # fmt: skip
from liveclass import ACCEPTED, LiveError, StoreUnavailable, valid_id
from liveclass import PROJECTOR as SCREEN
from ui.present import clicker, pressed

STATUS, LAST_PRESS = "_live_status", "_live_last_press"
KEYS = "live_projector_keys"
TOP_PAGES = ("steps", "home", "worked", "quiz", "errata")  # fit one screen, or are text the class reads from the top
# The projector is the whole screen: no Streamlit header or toolbar over the lesson, little space above it.
CSS = ("<style>header[data-testid='stHeader'] { display: none; }"
       " .stMainBlockContainer { padding-top: 1rem !important; padding-bottom: 1rem !important; }</style>")


def is_projector() -> bool:
    return st.session_state.get(ROLE) == PROJECTOR


def open_from_link() -> bool:
    """A link `?room=CODE&screen=projector` (with the console's `invite=`, or this window's own `as=` after a reload):
    this session becomes the room's projector. False when the link is not one, or the browser is not known yet."""
    params = st.query_params
    if params.get("screen") != "projector" or not params.get("room"):
        return False
    browser = identity.ask_browser()
    if not browser:
        return False  # identity.js answers in a moment: the next run opens it
    invite, own = params.get("invite"), params.get("as")
    try:
        code, screen = rooms().open_screen(params.get("room"), SCREEN, browser, invite=invite if valid_id(invite)
                                           else None, sid=own if valid_id(own) else None,
                                           address=identity.address())  # fmt: skip
    except LiveError as err:
        leave()
        error(err)
        return False
    leave()
    ss = st.session_state
    ss.update({ROLE: PROJECTOR, CODE: code, SID: screen.sid, STATUS: screen.status, LAST_PRESS: 0})
    if "invite" in st.query_params:
        del st.query_params["invite"]  # the private link's token leaves the address bar (it is on the projector)
    st.query_params["room"], st.query_params["screen"], st.query_params["as"] = code, "projector", screen.sid
    return True


def query() -> dict[str, str]:
    """The query a projector's pages keep (switching pages keeps the projector a projector after a reload)."""
    ss = st.session_state
    return {"room": ss[CODE], "screen": "projector", "as": ss[SID]}


def _on_presses() -> None:
    """Clicker presses came in: apply, in order, the ones not applied yet, to the class's state as it is now (if the
    console moved the class meanwhile, to its move: a change is made only on the state it was made from)."""
    ss = st.session_state
    presses = pressed(KEYS)
    new = [d for n, d in presses if n > ss.get(LAST_PRESS, 0)]
    if ss.get(STATUS) != ACCEPTED or not new:
        return
    try:
        store = rooms()
        for _ in range(3):
            room = read_room(store, ss[CODE])
            moved = plan.move(room.state, new)
            if state_json(moved) == state_json(room.state):
                break
            try:
                store.lead(ss[CODE], screen_pass(), moved, base=room.state)
                break
            except LiveError as err:
                if err.code != "moved":
                    raise
        read_room(store, ss[CODE])
    except LiveError as err:
        error(err)
        return
    ss[LAST_PRESS] = max(n for n, _ in presses)


@st.cache_resource(show_spinner=False)
def _view_component():
    js = Path(__file__).with_name("projector.js").read_text(encoding="utf-8")
    return st.components.v2.component("mha_projector_view", js=js, isolate_styles=False)


def _view(room: Any) -> None:
    """Where the projector's page should be scrolled: its top while a question or the join screen is shown and on
    /steps (one step fits the screen), else its first chart (a page longer than the screen)."""
    state = room.state
    top = bool(room.question) or bool(state.get("join")) or state.get("page") in TOP_PAGES
    key = json.dumps([state.get("page"), state.get("stop"), state.get("step"), room.qid, room.revealed,
                      bool(state.get("join"))])  # fmt: skip
    _view_component()(data={"key": key, "target": "top" if top else "chart"}, key="live_projector_view")


def _join_card(tr: Callable[..., str], code: str) -> None:
    link_ = join_link(code)
    with st.container(border=True, key="live_join_card"):
        left, right = st.columns([3, 2], vertical_alignment="center")
        left.markdown(tr("live.join_here"))
        left.markdown(f"<div class='mha-live-big'>{code}</div>", unsafe_allow_html=True)
        left.markdown(f"`{md(link_)}`")
        right.image(qr_svg(link_), width="stretch", alt=tr("live.qr_alt", room=code))
    st.html("<style>.mha-live-big { font-size: clamp(2.5rem, 6vw, 6.5rem); font-weight: 800; white-space: nowrap;"
            " letter-spacing: .12em; font-family: monospace; line-height: 1; }</style>")  # fmt: skip


@st.dialog(" ", width="small")
def _console_help(tr: Callable[..., str]) -> None:
    code = st.session_state[CODE]
    st.markdown(tr("projector.console_help", room=code))
    st.link_button(tr("projector.console_open"), link("console", room=code), icon=":material/open_in_new:")


def _toggle_join() -> None:
    ss = st.session_state
    try:
        store = rooms()
        room = read_room(store, ss[CODE])
        store.lead(ss[CODE], screen_pass(), {**room.state, "join": not room.state.get("join")})
        read_room(store, ss[CODE])
    except LiveError as err:
        error(err)


@st.fragment(run_every=POLL_STUDENT)
def bar(tr: Callable[..., str]) -> None:
    """Top of the projector's page: the join screen when shown, the question, the clicker; the page again when the
    class moved."""
    ss = st.session_state
    if ss.get(ROLE) != PROJECTOR:
        return
    code = ss[CODE]
    try:
        store = rooms()
        version = store.version(code, max_age=VERSION_AGE)
        if version != ss.get(SEEN) or ss.get(ROOM) is None:
            read_room(store, code)
        if time.monotonic() - float(ss.get(BEAT_AT, 0.0)) > BEAT:
            ss[STATUS] = store.screen_beat(code, screen_pass()).status
            ss[BEAT_AT] = time.monotonic()
        ss[DOWN] = False
    except StoreUnavailable:
        ss[DOWN] = True
    except LiveError as err:  # the class ended, or the console closed this projector
        leave()
        error(err)
        st.rerun(scope="app")
    room = ss.get(ROOM)
    if fragment_only() and want_redraw(room, projector=True):
        st.rerun(scope="app")
    top = st.container(horizontal=True, horizontal_alignment="right", vertical_alignment="center")
    with top:  # the invisible parts sit in the top row: in the page's column each would add a gap above the lesson
        if ss.get(STATUS) == ACCEPTED:
            clicker(KEYS, _on_presses)
        if room is not None:
            _view(room)
    top.caption(tr("projector.class", room=code) if ss.get(STATUS) == ACCEPTED else tr("projector.waiting", room=code))
    top.button(tr("projector.join_button"), key="live_projector_join", on_click=_toggle_join, type="tertiary",
               icon=":material/qr_code_2:", disabled=ss.get(STATUS) != ACCEPTED)  # fmt: skip
    if top.button(tr("projector.console_button"), key="live_projector_console", type="tertiary",
                  icon=":material/admin_panel_settings:"):  # fmt: skip
        _console_help(tr)
    if ss.get(DOWN):
        st.warning(tr("live.err.store_down"), icon=":material/cloud_off:")
    if room is None:
        return
    if room.state.get("join"):
        _join_card(tr, code)
    if room.question:
        if typed_answers.is_typed(room.question):
            typed_answers.projector(tr, room)
        else:
            questions.projector(tr, room)


__all__ = ["PARAMS", "bar", "is_projector", "open_from_link", "query"]
