"""The teacher's console (`/console`, on the teacher's own laptop window or phone): everything the class must not
see. Start a class (with a lesson or without), the teacher key (shown here once), the lesson's outline with the
current stop and the time spent against the plan, Next/Previous stop (and the clicker keys), the speaker notes, ask /
reveal / close a question, the live count and histogram, the CSV, who is connected, the projector's private link,
the other consoles (accept, refuse, close), and ending the class after a confirmation.

The console drives the class: its sidebar's settings are the class's, and what the class shows (`plan`: the page,
the step, the stop) is published to the room whenever it changes (`publish`, run by the frame on every run). When
another screen moved the class (the projector's clicker, a second console), the console takes the room's state into
its own widgets before they are drawn (`adopt`, then `before_settings`), and publishes nothing until they show it.
"""

from __future__ import annotations

import html
import secrets
import time
from collections.abc import Callable
from typing import Any

import streamlit as st

import lessons
from classroom import answers, asking, identity, leading, plan, seats
from classroom.leading import CLASS, LAST_PRESS, PENDING, PUBLISHED
from classroom.session import (
    CODE,
    CONSOLE,
    DOWN,
    INVITE_KEY,
    KEY,
    POLL_TEACHER,
    ROLE,
    SID,
    STATUS,
    accepted,
    error,
    leave,
    link,
    md,
    qr_svg,
    read_room,
    rooms,
    say,
    screen_pass,
    show_message,
    state_json,
)  # fmt: skip
from liveclass import ACCEPTED, PROJECTOR, WAITING, LiveError, Pass, StoreUnavailable, valid_id
from liveclass import CONSOLE as SCREEN
from ui.context import Context
from ui.nav import PAGES
from ui.present import clicker

KEY_SHOWN = "_live_key_shown"
START_ATTEMPT = "_console_attempt"  # this session's attempt to open a room (Rooms.create's `attempt`); not a _live_
# key, so leaving the last room (in _become) keeps it until the console knows its new room
# Keyboard use: a focus ring that shows on every control of the console (Streamlit's own is faint on some).
CSS = ("<style>.stMain button:focus-visible, .stMain [role='combobox']:focus-visible, .stMain input:focus-visible,"
       " .stMain a:focus-visible { outline: 3px solid #1c5fd4 !important; outline-offset: 2px; }</style>")


def is_console() -> bool:
    return st.session_state.get(ROLE) == CONSOLE


# ---------------------------------------------------------------- becoming the console
def _become(code: str, sid: str, status: str, state: dict[str, Any], key: str | None = None) -> None:
    leave()
    ss = st.session_state
    ss.update({ROLE: CONSOLE, CODE: code, SID: sid, STATUS: status, LAST_PRESS: 0})
    if key:
        ss[KEY], ss[KEY_SHOWN] = key, False
    leading.adopt(state)
    st.query_params["room"], st.query_params["as"] = code, sid


def _start() -> None:
    """Open a room and become its console. A page run can be stopped at any read or write of the session (a second
    click asks for another run), also after the store opened the room and before this session knows its code: so
    the store is asked with this session's attempt (kept before it is asked; `Rooms.create` asked again with it gives
    the same room), and the attempt is dropped once the console knows its room (the next class is a new attempt)."""
    ss = st.session_state
    if not ss.get(START_ATTEMPT):
        ss[START_ATTEMPT] = secrets.token_urlsafe(12)
    lesson = lessons.catalog().get(str(ss.get("console_lesson") or ""))
    ctx: Context = ss["_ctx"]
    browser = identity.browser_id()
    try:
        store = rooms()
        ticket = store.create(identity.client(), attempt=ss[START_ATTEMPT])
        code, screen = store.open_screen(ticket.code, SCREEN, browser, key=ticket.key, attempt=ss[START_ATTEMPT])
        state = plan.start(lesson, ctx.settings, ctx.lang)
        store.lead(code, Pass(screen.sid, browser), state)
    except LiveError as err:
        error(err)
        return
    _become(code, screen.sid, screen.status, state, key=ticket.key)
    ss.pop(START_ATTEMPT, None)


def _take_back() -> None:
    ss = st.session_state
    raw_code, key = ss.get("console_code", ""), str(ss.get("console_key", "")).strip()
    try:
        code, screen = rooms().open_screen(raw_code, SCREEN, identity.browser_id(), key=key, address=identity.address())
        room = rooms().room(code)
    except LiveError as err:
        error(err)
        return
    ss["console_key"] = ""
    _become(code, screen.sid, screen.status, room.state, key=key)
    ss[KEY_SHOWN] = True


def resume_from_link() -> bool:
    """A reload of the console (`/console?room=CODE&as=ID`, or a private link with `invite=`): this browser's own
    console again, or the invited one. False when the link is not one or the browser is not known yet."""
    params = st.query_params
    code, own, invite = params.get("room"), params.get("as"), params.get("invite")
    if not code or not (valid_id(own) or valid_id(invite)) or params.get("screen"):
        return False
    browser = identity.ask_browser()
    if not browser:
        return False
    try:
        store = rooms()
        if valid_id(own):
            code, screen = store.open_screen(code, SCREEN, browser, sid=own, address=identity.address())
            if screen.sid != own:  # not this browser's console: it needs the key
                raise LiveError("not_teacher")
        else:
            code, screen = store.open_screen(code, SCREEN, browser, invite=invite, address=identity.address())
        room = store.room(code)
    except LiveError as err:
        for name in ("as", "invite"):
            if name in st.query_params:
                del st.query_params[name]
        error(err)
        return False
    _become(code, screen.sid, screen.status, room.state)
    if "invite" in st.query_params:
        del st.query_params["invite"]
    return True


# ---------------------------------------------------------------- what the class shows
# ---------------------------------------------------------------- the page
def page(ctx: Context) -> None:
    """The console page."""
    tr = ctx.t
    st.session_state["_ctx"] = ctx
    show_message(tr)
    if not is_console():
        _start_panel(ctx)
        return
    if st.session_state.get(STATUS) != ACCEPTED:
        _waiting(tr)
        return
    _header(ctx)
    left, right = st.columns([3, 2], gap="large")
    with left:
        _route(ctx)
    with right:
        asking.panel(tr)
        answers.download(tr, st.session_state[CODE])
        _screens_panel(tr)
        seats.panel(tr)
        _end_button(tr)
    with left:
        clicker(leading.KEYS, leading.on_presses)


def _lesson_title(catalog: lessons.Catalog, lesson_id: str, ctx: Context) -> str:
    lesson = catalog.get(lesson_id) if lesson_id else None
    return lesson.title(ctx.lang) if lesson is not None else ctx.t("console.no_lesson")


def _start_panel(ctx: Context) -> None:
    tr = ctx.t
    st.markdown(tr("console.intro"))
    browser = identity.ask_browser()
    catalog = lessons.catalog()
    choices = ["", *catalog.ids]
    with st.container(border=True):
        st.subheader(tr("console.start_title"))
        st.selectbox(tr("console.lesson"), choices, key="console_lesson",
                     format_func=lambda i: _lesson_title(catalog, i, ctx))
        st.caption(tr("console.start_help"))
        st.button(tr("console.start"), key="console_start", on_click=_start, type="primary", icon=":material/podium:",
                  disabled=not browser)  # fmt: skip
    with st.container(border=True):
        st.subheader(tr("console.take_back_title"))
        st.caption(tr("console.take_back_help"))
        if "console_code" not in st.session_state and st.query_params.get("room"):
            st.session_state["console_code"] = str(st.query_params.get("room"))[:16]
        st.text_input(tr("live.retake_code"), key="console_code", max_chars=16)
        st.text_input(tr("live.retake_key"), key="console_key", type="password", max_chars=64)
        st.button(tr("console.take_back"), key="console_take_back", on_click=_take_back, icon=":material/key:",
                  disabled=not browser)  # fmt: skip


@st.fragment(run_every=POLL_TEACHER)
def _waiting(tr: Callable[..., str]) -> None:
    ss = st.session_state
    st.info(tr("console.waiting", room=ss[CODE]), icon=":material/hourglass_top:")
    try:
        status = rooms().screen_beat(ss[CODE], screen_pass()).status
    except LiveError as err:
        leave()
        error(err)
        st.rerun(scope="app")
        return
    if status == ACCEPTED:
        ss[STATUS] = ACCEPTED
        ss.pop(PUBLISHED, None)
        st.rerun(scope="app")
    st.button(tr("live.leave"), key="console_leave", on_click=leave, icon=":material/logout:")


def _key(key: str) -> None:
    """The teacher key, large, in a typeface whose 0/O, 1/l/I and 6/G differ, to copy from this screen only."""
    st.markdown(f"<div class='mha-console-key' translate='no'>{html.escape(key)}</div>", unsafe_allow_html=True)
    st.html("<style>.mha-console-key { font: 600 1.6rem/1.3 'DejaVu Sans Mono', 'Source Code Pro', monospace;"
            " letter-spacing: .08em; user-select: all; }</style>")  # fmt: skip


def _header(ctx: Context) -> None:
    tr, ss = ctx.t, st.session_state
    code = ss[CODE]
    st.markdown(f"<div class='mha-console-code'>{code}</div>", unsafe_allow_html=True)
    st.html("<style>.mha-console-code { font-size: 2.2rem; font-weight: 700; letter-spacing: .15em;"
            " font-family: monospace; line-height: 1.1; }</style>")  # fmt: skip
    if ss.get(KEY) and not ss.get(KEY_SHOWN):
        with st.container(border=True, key="console_key_box"):
            st.markdown(tr("console.key_once"))
            _key(ss[KEY])
            st.button(tr("live.key_noted"), key="console_key_noted", on_click=lambda: ss.update({KEY_SHOWN: True}))
    _live(tr)
    state = ss.get(CLASS, {})
    c1, c2 = st.columns(2)
    c1.toggle(tr("console.join_screen"), value=bool(state.get("join")), key="console_join",
              on_change=lambda: leading.set_class(join=bool(ss.get("console_join"))),
              help=tr("console.join_screen_help"))  # fmt: skip
    if INVITE_KEY not in ss:
        try:
            ss[INVITE_KEY] = rooms().invite(code, screen_pass(), PROJECTOR)
        except LiveError:
            ss[INVITE_KEY] = ""
    page_now = state.get("page") or "home"
    if ss.get(INVITE_KEY):
        c2.link_button(tr("console.open_projector"), link(page_now, room=code, screen="projector",
                                                          invite=ss[INVITE_KEY]),
                       icon=":material/cast:", help=tr("console.open_projector_help"))  # fmt: skip


@st.fragment(run_every=POLL_TEACHER)
def _live(tr: Callable[..., str]) -> None:
    """Presence, the open screens, the clock of the stop; the room's state taken when another screen moved it."""
    ss = st.session_state
    if not accepted(CONSOLE):
        return
    code = ss[CODE]
    try:
        store = rooms()
        store.screen_beat(code, screen_pass())
        room = read_room(store, code)
        presence = store.presence(code, screen_pass())
        screens = store.screens(code, screen_pass())
    except StoreUnavailable:
        st.warning(tr("live.err.store_down"), icon=":material/cloud_off:")
        return
    except LiveError as err:
        leave()
        error(err)
        st.rerun(scope="app")
        return
    if room.state and state_json(room.state) != ss.get(PUBLISHED) and ss.get(PENDING) is None:
        leading.adopt(room.state)  # another screen moved the class (the projector's clicker, another console)
        st.rerun(scope="app")
    if ss.get(DOWN):  # a change made while the store was down, the store back: the full run publishes it
        st.rerun(scope="app")
    consoles = sum(1 for s in screens if s.role == SCREEN and s.status == ACCEPTED and s.open)
    projectors = sum(1 for s in screens if s.role == PROJECTOR and s.status == ACCEPTED and s.open)
    st.markdown(tr("live.presence", connected=presence.connected, following=presence.following,
                   joined=presence.joined) + " · " + tr("console.screens", consoles=consoles,
                                                        projectors=projectors))  # fmt: skip
    for s in screens:
        if s.status == WAITING and s.open:
            box = st.container(border=True)
            box.warning(tr(f"console.asks.{s.role}", at=time.strftime("%H:%M:%S", time.localtime(s.created))),
                        icon=":material/devices:")  # fmt: skip
            a, b = box.columns(2)
            a.button(tr("console.accept"), key=f"console_accept_{s.sid}", on_click=_decide, args=(s.sid, True),
                     type="primary", icon=":material/check:")  # fmt: skip
            b.button(tr("console.refuse"), key=f"console_refuse_{s.sid}", on_click=_decide, args=(s.sid, False),
                     icon=":material/block:")  # fmt: skip
    state = room.state
    stop_min, class_min = plan.minutes_spent(state)
    lesson = plan.lesson_of(state)
    if lesson is not None:
        stop = lesson.stop(int(state.get("stop", 0) or 0))
        st.caption(tr("console.clock", spent=_clock(stop_min), planned=_clock(stop.minutes),
                      total=_clock(class_min), total_planned=_clock(lesson.minutes)))  # fmt: skip


def _clock(minutes: float) -> str:
    whole = round(minutes * 60)
    return f"{whole // 60}:{whole % 60:02d}"


def _decide(sid: str, accept: bool) -> None:
    try:
        rooms().decide(st.session_state[CODE], screen_pass(), sid, accept)
    except LiveError as err:
        error(err)


def _route(ctx: Context) -> None:
    """The lesson's outline (current stop, time, Next/Previous, notes), or without a lesson the page the class sees."""
    tr, ss = ctx.t, st.session_state
    state = {**ss.get(CLASS, {})}
    lesson = plan.lesson_of(state)
    catalog = lessons.catalog()
    ids = ["", *catalog.ids]
    now = lesson.id if lesson else ""
    if ss.get("console_lesson_now") not in ids or ss.get("_live_lesson_seen") != now:
        ss["console_lesson_now"], ss["_live_lesson_seen"] = now, now
    st.selectbox(tr("console.lesson"), ids, key="console_lesson_now", on_change=leading.pick_lesson,
                 format_func=lambda i: _lesson_title(catalog, i, ctx))
    if lesson is not None:
        index = lessons.clamp(lesson, state.get("stop", 0))
        stop = lesson.stop(index)
        where = tr("console.stop_of", n=stop.number, total=len(lesson.stops))
        st.markdown(f"### {where} · {md(stop.title(ctx.lang))}")
        prev, nxt = st.columns(2)
        prev.button(tr("console.prev_stop"), key="console_prev", on_click=leading.move, args=([-1],),
                    disabled=index == 0, icon=":material/arrow_back:", width="stretch")  # fmt: skip
        nxt.button(tr("console.next_stop"), key="console_next", on_click=leading.move, args=([1],), type="primary",
                   disabled=index == len(lesson.stops) - 1, icon=":material/arrow_forward:", width="stretch")
        with st.container(border=True, key="console_notes"):
            st.markdown(f"**{tr('console.task')}** {stop.task(ctx.lang)}")
            st.markdown(f"**{tr('console.notes')}** {stop.notes(ctx.lang)}")
        with st.expander(tr("console.outline"), expanded=True):
            for s in lesson.stops:
                mark = "▶" if s.index == index else ("✓" if s.index < index else "·")
                st.button(f"{mark} {s.number}. {s.title(ctx.lang)} — {tr('console.minutes', n=f'{s.minutes:g}')}",
                          key=f"console_stop_{s.index}", on_click=leading.go_to, args=(s.index,), type="tertiary",
                          disabled=s.index == index)  # fmt: skip
        return
    pages = [url for _, url, *_ in PAGES if url != "console"]
    page_now = state.get("page") if state.get("page") in pages else "home"
    if ss.get("console_page") != page_now:
        ss["console_page"] = page_now
    st.selectbox(tr("console.class_page"), pages, key="console_page", format_func=lambda u: tr(f"page.{u}"),
                 on_change=lambda: leading.set_class(page=ss.get("console_page"), step=0))  # fmt: skip
    if page_now == plan.STEPS_PAGE:
        step = int(state.get("step", 0) or 0)
        st.markdown(f"**{tr('steps.progress', n=step + 1, total=lessons.N_STEPS)}**")
        prev, nxt = st.columns(2)
        prev.button(tr("steps.prev"), key="console_prev", on_click=leading.move, args=([-1],), disabled=step == 0,
                    icon=":material/arrow_back:", width="stretch")  # fmt: skip
        nxt.button(tr("steps.next"), key="console_next", on_click=leading.move, args=([1],), type="primary",
                   disabled=step == lessons.N_STEPS - 1, icon=":material/arrow_forward:", width="stretch")
    st.toggle(tr("console.one_step"), value=bool(state.get("present", True)), key="console_present",
              on_change=lambda: leading.set_class(present=bool(ss.get("console_present"))))  # fmt: skip
    st.caption(tr("console.free_help"))


# ---------------------------------------------------------------- questions
# ---------------------------------------------------------------- screens, the other device, ending
def _screens_panel(tr: Callable[..., str]) -> None:
    ss = st.session_state
    code = ss[CODE]
    with st.expander(tr("console.devices"), icon=":material/devices:"):
        st.markdown(tr("console.projector_pairing", link=md(link(room=code, screen="projector"))))
        if st.button(tr("console.phone_link"), key="console_phone_link", icon=":material/qr_code_2:"):
            try:
                token = rooms().invite(code, screen_pass(), SCREEN)
            except LiveError as err:
                error(err)
            else:
                private = link("console", room=code, invite=token)
                st.caption(tr("console.phone_link_help"))
                st.image(qr_svg(private), width=220, alt=tr("console.qr_alt"))
                st.code(private, language=None, wrap_lines=True)
        if ss.get(KEY) and st.toggle(tr("console.show_key"), key="console_show_key"):
            _key(ss[KEY])
        try:
            screens = rooms().screens(code, screen_pass())
        except LiveError:
            screens = []
        for s in screens:
            if s.status == ACCEPTED and s.sid != ss[SID] and s.open:
                st.button(tr(f"console.close_screen.{s.role}",
                             at=time.strftime("%H:%M:%S", time.localtime(s.created))),
                          key=f"console_drop_{s.sid}", on_click=_decide, args=(s.sid, False),
                          icon=":material/close:", type="tertiary")  # fmt: skip


def _end() -> None:
    try:
        rooms().end(st.session_state[CODE], screen_pass())
    except LiveError as err:
        if isinstance(err, StoreUnavailable):
            error(err)
            return
    leave()
    say("info", "live.ended_by_you")


CONFIRM_END = "_live_confirm_end"


def _end_button(tr: Callable[..., str]) -> None:
    """End the class, after a confirmation that says what ending does (and offers the answers once more)."""
    ss = st.session_state
    if not ss.get(CONFIRM_END):
        st.button(tr("live.end"), key="console_end", icon=":material/stop_circle:",
                  on_click=lambda: ss.update({CONFIRM_END: True}))  # fmt: skip
        return
    with st.container(border=True, key="console_end_confirm"):
        st.markdown(f"**{tr('console.end_title')}**")
        st.markdown(tr("console.end_text"))
        answers.download(tr, ss[CODE], key="console_csv_end")
        a, b = st.columns(2)
        a.button(tr("console.end_confirm"), key="console_end_yes", type="primary", icon=":material/stop_circle:",
                 on_click=_end)  # fmt: skip
        b.button(tr("console.end_cancel"), key="console_end_no", on_click=lambda: ss.update({CONFIRM_END: False}))


def sidebar(tr: Callable[..., str]) -> None:
    """A console's part of every page's sidebar: which class, and the way to the console."""
    st.sidebar.caption(tr("console.in_sidebar", room=st.session_state[CODE]))
    st.sidebar.page_link("app_pages/console.py", label=tr("page.console"), icon=":material/admin_panel_settings:")


__all__ = ["is_console", "page", "resume_from_link", "sidebar"]
