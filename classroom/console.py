"""The teacher's controls of a live class: start, take back, the key, the join code, ask, reveal, the answers, end."""

from __future__ import annotations

import csv
import io
import time
from collections.abc import Callable

import streamlit as st

import i18n
from classroom import typed_answers
from classroom.session import (
    CODE,
    DOWN,
    KEY,
    KEY_SHOWN,
    POLL_TEACHER,
    PUBLISHED,
    ROLE,
    bars,
    error,
    join_link,
    leave,
    qr_svg,
    rooms,
    say,
    state_of,
    text,
)
from explorer.live_questions import ATTEND, answer_types, attend_question, quiz_question
from liveclass import LiveError, Room, Rooms, StoreUnavailable
from ui.context import Context, get_context


def _start() -> None:
    try:
        ticket = rooms().create()
    except LiveError as err:
        error(err)
        return
    leave()
    st.session_state.update({ROLE: "teacher", CODE: ticket.code, KEY: ticket.key, KEY_SHOWN: False})


def _retake() -> None:
    raw_code, key = st.session_state.get("live_retake_code", ""), st.session_state.get("live_retake_key", "")
    try:
        code = rooms().check_teacher(raw_code, str(key).strip())
    except LiveError as err:
        error(err)
        return
    leave()
    st.session_state.update({ROLE: "teacher", CODE: code, KEY: str(key).strip(), KEY_SHOWN: True})
    st.session_state["live_retake_key"] = ""


def _end() -> None:
    try:
        rooms().end(st.session_state[CODE], st.session_state[KEY])
    except LiveError as err:
        if isinstance(err, StoreUnavailable):
            error(err)
            return
    leave()
    say("info", "live.ended_by_you")


def start_panel(tr: Callable[..., str]) -> None:
    with st.expander(tr("live.title"), icon=":material/co_present:"):
        st.caption(tr("live.start_help"))
        st.button(tr("live.start"), key="live_start", on_click=_start, icon=":material/podium:", type="primary")
        st.text_input(tr("live.retake_code"), key="live_retake_code", max_chars=16)
        st.text_input(tr("live.retake_key"), key="live_retake_key", type="password", max_chars=64)
        st.button(tr("live.retake"), key="live_retake", on_click=_retake, icon=":material/key:")


def panel(ctx: Context, page: str) -> None:
    ss, tr = st.session_state, ctx.t
    code = ss[CODE]
    with st.container(border=True):
        st.markdown(f"**:material/co_present: {tr('live.title')}** · {tr('live.code')}")
        st.markdown(f"<div class='mha-live-code'>{code}</div>", unsafe_allow_html=True)
        link = join_link(code)
        st.code(link, language=None, wrap_lines=True)
        st.image(qr_svg(link), width="stretch")
        st.toggle(tr("live.big"), key="live_big", help=tr("live.big_help"))
        if not ss.get(KEY_SHOWN):
            st.info(tr("live.key_once", secret=ss[KEY]), icon=":material/key:")
            st.button(tr("live.key_noted"), key="live_key_noted", on_click=lambda: ss.update({KEY_SHOWN: True}))
        _teacher_live(tr)
        _ask(ctx)
        st.button(tr("live.end"), key="live_end", on_click=_end, icon=":material/stop_circle:")
    st.html("<style>.mha-live-code { font-size: 2.4rem; font-weight: 700; letter-spacing: .15em;"
            " font-family: monospace; line-height: 1.1; }</style>")  # fmt: skip


def publish(ctx: Context, page: str) -> None:
    """The teacher's page, settings and step go to the room whenever they change."""
    ss = st.session_state
    state = state_of(ctx, page)
    if state == ss.get(PUBLISHED):
        return
    try:
        rooms().lead(ss[CODE], ss[KEY], state)
        ss[PUBLISHED] = state
        ss[DOWN] = False
    except StoreUnavailable:
        ss[DOWN] = True
    except LiveError as err:  # not (or no longer) this room's teacher: the room has ended or expired
        leave()
        error(err)


@st.fragment(run_every=POLL_TEACHER)
def _teacher_live(tr: Callable[..., str]) -> None:
    ss = st.session_state
    if ss.get(ROLE) != "teacher":
        return
    code, key = ss[CODE], ss[KEY]
    try:
        store = rooms()
        presence = store.presence(code, key)
        room = store.room(code)
        counts = store.tally(code, key) if room.question else None
    except StoreUnavailable:
        st.warning(tr("live.err.store_down"), icon=":material/cloud_off:")
        return
    except LiveError as err:
        st.warning(tr(f"live.err.{err.code}", **err.params))
        return
    if ss.get(DOWN) and ss.get(PUBLISHED) is not None:  # the store is back: publish what was missed
        ss[PUBLISHED] = None
        ss[DOWN] = False
        st.rerun(scope="app")
    st.markdown(tr("live.presence", connected=presence.connected, following=presence.following,
                   joined=presence.joined))  # fmt: skip
    if room.question and counts is not None:
        options = [text(tr, o) for o in room.question.get("options", [])]
        plain = [text(tr, o, markdown=False) for o in room.question.get("options", [])]
        if typed_answers.is_typed(room.question):
            typed_answers.teacher_bars(tr, store, code, key, room, presence.connected)
        else:
            st.caption(tr("live.answers_in", n=sum(counts), connected=presence.connected))
            bars(tr, options, counts, room.answer if room.revealed else None)
        names = [a.nickname for a in store.answers(code, key) if a.nickname][-30:]
        if names:
            st.text(", ".join(names))  # as typed, never as markup
        left, right = st.columns(2)
        if not room.revealed and left.button(tr("live.reveal"), key="live_reveal", icon=":material/visibility:",
                                             type="primary"):  # fmt: skip
            try:
                store.reveal(code, key)
            except LiveError as err:
                error(err)
            st.rerun(scope="app")
        right.download_button(tr("live.csv"), data=lambda: answers_csv(store, code, key, plain, room),
                              file_name=f"live-{code}.csv", mime="text/csv", key="live_csv",
                              icon=":material/download:")  # fmt: skip


def answers_csv(store: Rooms, code: str, key: str, options: list[str], room: Room) -> str:
    """The answers, anonymous: order, nickname (as typed, neutralised for spreadsheets), answer, right or not."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["n", "nickname", "answer", "correct", "seconds"])
    answer = store.room(code).answer
    rows = store.answers(code, key)
    t0 = rows[0].at if rows else 0.0
    for n, a in enumerate(rows, start=1):
        nick = "'" + a.nickname if a.nickname[:1] in ("=", "+", "-", "@", "\t", "\r") else a.nickname
        if a.value is not None:  # a typed answer, graded by the store (the quiz's check)
            given, correct = typed_answers.answer_cell(a.value), "" if answer is None else ("yes" if a.right else "no")
        else:
            given = options[a.choice] if 0 <= a.choice < len(options) else a.choice
            correct = "" if answer is None else ("yes" if a.choice == answer else "no")
        writer.writerow([n, nick, given, correct, f"{a.at - t0:.1f}"])
    return out.getvalue()


def _ask(ctx: Context) -> None:
    """Send a question to the class: any quiz question on this setting, or the quick 'attend most' one."""
    tr, sc = ctx.t, ctx.scene
    types = {ATTEND: "choice", **answer_types(sc)}  # how students answer each kind, said under the list
    kinds = list(types)
    with st.expander(tr("live.ask"), icon=":material/quiz:"):
        kind = st.selectbox(tr("live.ask_kind"), kinds, key="live_ask_kind",
                            format_func=lambda k: tr(f"live.kind.{k}") if f"live.kind.{k}" in i18n.STRINGS else k)
        st.caption(tr(f"live.answered_by.{types.get(kind, 'choice')}"))
        if kind == ATTEND:
            c1, c2 = st.columns(2)
            c1.selectbox(tr("live.ask_head"), range(sc.n_heads), key="live_ask_head", format_func=lambda h: str(h + 1))
            c2.selectbox(tr("live.ask_query"), range(sc.len_q), key="live_ask_query",
                         format_func=lambda i: sc.labels[i])  # fmt: skip
        st.button(tr("live.ask_send"), key="live_ask_send", on_click=_send_question, icon=":material/send:",
                  type="primary")  # fmt: skip


def _send_question() -> None:
    ss, ctx = st.session_state, get_context()
    kind = ss.get("live_ask_kind", ATTEND)
    seed = int(time.time())
    if kind == ATTEND:
        made = attend_question(ctx.scene, int(ss.get("live_ask_head", 0) or 0), int(ss.get("live_ask_query", 0) or 0),
                               seed)  # fmt: skip
    else:
        made = quiz_question(str(kind), ctx.scene, seed)
    if made is None:
        say("warning", "live.err.no_margin" if kind == ATTEND else "live.err.no_such_question")
        return
    question, answer = made
    try:
        rooms().ask(ss[CODE], ss[KEY], question, answer)
    except LiveError as err:
        error(err)
