"""A student's phone in a live class: the bar that follows the teacher, exploring and coming back, the question card."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import streamlit as st

from classroom import typed_answers
from classroom.session import (
    APPLIED,
    BEAT,
    BEAT_AT,
    CODE,
    DOWN,
    ECHOES,
    FOLLOW,
    MAX_REDRAWS,
    OPEN,
    PENDING,
    POLL_STUDENT,
    REDRAWS,
    ROLE,
    ROOM,
    SEEN,
    SENT,
    SHOWN,
    SID,
    VERSION_AGE,
    bars,
    error,
    fragment_only,
    leave,
    prompt,
    rooms,
    text,
)
from liveclass import LiveError, Room, StoreUnavailable, follow
from ui.nav import PAGES


def back() -> None:
    st.session_state[FOLLOW] = True
    st.session_state[APPLIED] = None
    st.session_state[BEAT_AT] = 0.0


def panel(tr: Callable[..., str]) -> None:
    st.caption(tr("live.student_in", room=st.session_state[CODE]))
    st.button(tr("live.leave"), key="live_leave", on_click=leave, icon=":material/logout:")


def _follow(state: dict[str, Any], page: str) -> None:
    """Go where the teacher is: the next run applies their settings before the widgets are drawn."""
    files = {p[1]: p[0] for p in PAGES}
    target = state.get("page")
    ss = st.session_state
    ss[APPLIED] = state
    if target not in files:
        return
    ss[PENDING] = state
    ss[OPEN] = True  # drawn only once a full run reaches after_page (a run cut short earlier is asked again)
    echoes = ss.get(ECHOES, [])
    if not echoes or echoes[-1][1] != state:  # a new state of the teacher (a retry adds nothing, ages nothing)
        ss[ECHOES] = follow.remember(echoes, time.monotonic(), ss.get(SHOWN), state)
    if target != page:  # bound settings widgets write the URL themselves from the state applied next run
        st.switch_page(files[target], query_params={"join": ss[CODE], "me": ss[SID]})
    st.rerun(scope="app")


@st.fragment(run_every=POLL_STUDENT)
def bar(tr: Callable[..., str], page: str) -> None:
    ss = st.session_state
    if ss.get(ROLE) != "student":
        return
    code, sid = ss[CODE], ss[SID]
    try:
        store = rooms()
        version = store.version(code, max_age=VERSION_AGE)
        if time.monotonic() - float(ss.get(BEAT_AT, 0.0)) > BEAT:
            store.heartbeat(code, sid, bool(ss.get(FOLLOW)))
            ss[BEAT_AT] = time.monotonic()
        if version != ss.get(SEEN) or ss.get(ROOM) is None:
            ss[ROOM], ss[SEEN] = store.room(code), version
        ss[DOWN] = False
    except StoreUnavailable:
        ss[DOWN] = True
    except LiveError as err:  # the room ended or expired: back to the normal app
        leave()
        error(err)
        st.rerun(scope="app")
    room: Room | None = ss.get(ROOM)
    if room is not None and ss.get(FOLLOW) and room.state and room.state != ss.get(APPLIED):
        _follow(room.state, page)
    if ss.get(FOLLOW) and ss.get(OPEN) and fragment_only() and ss.get(REDRAWS, 0) < MAX_REDRAWS:
        # the last full run reached the follow decision but was cut short before the page was drawn (the
        # browser's next request, under load): nothing else would ever draw it, so run the page again
        ss[REDRAWS] = ss.get(REDRAWS, 0) + 1
        st.rerun(scope="app")
    if ss.get(DOWN):
        st.warning(tr("live.err.store_down"), icon=":material/cloud_off:")
    elif ss.get(FOLLOW):
        st.caption(f":material/sync: {tr('live.following', room=code)}")
    else:
        left, right = st.columns([3, 1], vertical_alignment="center")
        left.info(tr("live.exploring"), icon=":material/explore:")
        right.button(tr("live.back"), key="live_back", on_click=back, icon=":material/undo:", type="primary",
                     width="stretch")  # fmt: skip
    if room is not None and room.question:
        _student_question(tr, room)


def _student_question(tr: Callable[..., str], room: Room) -> None:
    ss, q = st.session_state, room.question or {}
    if typed_answers.is_typed(q):  # a number or a shape to type
        typed_answers.student(tr, room)
        return
    options = [text(tr, o) for o in q.get("options", [])]
    sent = ss.setdefault(SENT, {})
    with st.container(border=True):
        st.markdown(f"**{tr('live.q_title')}** · {prompt(tr, q['prompt'])}")
        if room.revealed and room.answer is not None:
            _revealed(tr, room, options, sent.get(room.qid))
            return
        pick = st.radio(tr("live.q_title"), range(len(options)), index=None, key=f"live_pick_{room.qid}",
                        format_func=lambda i: options[i], label_visibility="collapsed")  # fmt: skip
        nick = st.text_input(tr("live.nickname"), key="live_nick", max_chars=24, help=tr("live.nickname_help"))
        if st.button(tr("live.send"), key=f"live_send_{room.qid}", disabled=pick is None, icon=":material/send:",
                     type="primary"):  # fmt: skip
            try:
                rooms().submit(ss[CODE], ss[SID], room.qid, int(pick), nick)
                sent[room.qid] = int(pick)
            except LiveError as err:
                st.warning(tr(f"live.err.{err.code}", **err.params), icon=":material/warning:")
        if room.qid in sent:
            st.success(tr("live.sent", answer=options[sent[room.qid]]), icon=":material/check:")
        else:
            st.caption(tr("live.hidden_until_reveal"))


def _revealed(tr: Callable[..., str], room: Room, options: list[str], mine: int | None) -> None:
    q = room.question or {}
    right = options[room.answer] if room.answer is not None else ""
    if mine is None:
        st.info(tr("live.answer_is", answer=right), icon=":material/lightbulb:")
    elif mine == room.answer:
        st.success(tr("live.you_right", answer=right), icon=":material/check_circle:")
    else:
        st.error(tr("live.you_wrong", answer=right), icon=":material/cancel:")
    st.markdown(prompt(tr, q["explain"]))
    try:
        counts = rooms().tally(st.session_state[CODE])
    except LiveError:
        counts = None
    if counts:
        bars(tr, options, counts, room.answer)


def after_page() -> None:
    """End of a page run that was not cut short: the state a following student was sent is on their screen."""
    if st.session_state.get(ROLE) == "student":
        st.session_state[OPEN] = False
        st.session_state[REDRAWS] = 0
