"""Typed questions of a live class on screen (a number or a shape): the student's box and verdict, the teacher's
histogram of typed answers. Reading, checking and counting the answers is liveclass.typed's (the quiz's own rules)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from classroom import session as live
from explorer.quiz import answer_text
from liveclass import LiveError, Room, Rooms
from liveclass.typed import Bar, as_quiz, is_typed, label, own_feedback, read

ERR = "_live_typed_err"  # (qid, text refused, error code, params): the message stays until the text changes
HIST = "_live_typed_hist"  # (qid, bars, own answer): read once after the reveal (answers are closed then)

__all__ = ["answer_cell", "is_typed", "projector", "student", "teacher_bars"]


def _hints(tr: Callable[..., str], question: dict[str, Any]) -> None:
    tol = question.get("tolerance") or 0
    if question.get("answer_type") == "number" and tol:
        st.caption(tr("quiz.tolerance", tol=f"{tol:.2g}"))


def _send(tr: Callable[..., str], room: Room, text: str, nick: str) -> None:
    """Check the typed text here first (one message, nothing sent when it is not a number / shape); the store
    checks it again."""
    ss = st.session_state
    store = live.rooms()
    try:
        value = read(room.question["answer_type"], text, store.limits.max_answer)
        store.submit(ss[live.CODE], ss[live.SID], room.qid, text, nick)
    except LiveError as err:
        ss[ERR] = (room.qid, text, err.code, err.params)
        return
    ss.pop(ERR, None)
    ss.setdefault(live.SENT, {})[room.qid] = value


def student(tr: Callable[..., str], room: Room) -> None:
    """A student's card: type the answer and send it (changeable until the reveal); then the verdict and why."""
    ss, q = st.session_state, room.question or {}
    sent = ss.setdefault(live.SENT, {})
    with st.container(border=True):
        st.markdown(f"**{tr('live.q_title')}** · {live.prompt(tr, q['prompt'])}")
        if room.revealed and room.solution is not None:
            _student_revealed(tr, room)
            return
        kind = q["answer_type"]
        key = f"live_typed_{room.qid}"
        text = st.text_input(tr(f"quiz.type.{kind}"), key=key, max_chars=live.rooms().limits.max_answer, width=360)
        _hints(tr, q)
        nick = st.text_input(tr("live.nickname"), key="live_nick", max_chars=24, help=tr("live.nickname_help"))
        # never disabled: a click right after typing (the box not yet committed) must send, not be lost
        if st.button(tr("live.send"), key=f"live_send_{room.qid}", icon=":material/send:", type="primary"):
            _send(tr, room, text, nick)
        refused = ss.get(ERR)
        if refused and refused[0] == room.qid and refused[1] == text:
            st.warning(tr(f"live.err.{refused[2]}", **refused[3]), icon=":material/warning:")
        if room.qid in sent:
            st.success(tr("live.sent", answer=live.md(label(sent[room.qid]))), icon=":material/check:")
        else:
            st.caption(tr("live.hidden_until_reveal"))


def _student_revealed(tr: Callable[..., str], room: Room) -> None:
    """The right answer, this student's answer and verdict as the store graded it (after a reload too), the quiz's
    feedback for their slip, why, and the class's histogram. The store is read once per question (answers are
    closed after the reveal), not on every tick of the student's timer."""
    ss = st.session_state
    cached = ss.get(HIST)
    if cached is None or cached[0] != room.qid:
        try:
            store = live.rooms()
            cached = ss[HIST] = (room.qid, store.typed_tally(ss[live.CODE]) or [],
                               store.mine(ss[live.CODE], ss[live.SID]))  # fmt: skip
        except LiveError:  # the store is away: the answer and why still show; the next tick reads again
            cached = (room.qid, [], None)
    _, bars, mine = cached
    q = as_quiz(room.question or {}, room.solution or {})
    right = live.md(answer_text(q))
    if mine is None or mine.value is None:
        st.info(tr("live.answer_is", answer=right), icon=":material/lightbulb:")
    else:
        st.markdown(tr("live.typed.yours", answer=live.md(label(mine.value))))
        if mine.right:
            st.success(tr("live.you_right", answer=right), icon=":material/check_circle:")
        else:
            st.error(tr("live.you_wrong", answer=right), icon=":material/cancel:")
            slip = own_feedback(q, mine.value)
            if slip is not None:
                st.markdown(f"**{live.text(tr, {'key': slip.key, 'params': slip.args})}**")
    st.markdown(live.prompt(tr, room.question["explain"]))
    _histogram(tr, bars, revealed=True)


def _histogram(tr: Callable[..., str], bars: list[Bar], revealed: bool) -> None:
    """The most frequent typed answers as bars (text, readable on a phone and a projector); ✓ on the right ones
    once revealed."""
    total = sum(b.count for b in bars)
    if not total:
        st.caption(tr("live.typed.none_yet"))
        return
    st.caption(tr("live.typed.hist", n=total))
    md = live.md
    for b in bars:
        name = tr("live.typed.other") if b.label is None else md(b.label)
        mark = " ✓" if revealed and b.right else ""
        st.progress(b.count / total, text=f"{name}{mark} — {b.count}")


def teacher_bars(tr: Callable[..., str], store: Rooms, code: str, key: str, room: Room, connected: int) -> None:
    """The teacher's panel, live: how many answered, and the histogram (the right answers marked once revealed)."""
    bars = store.typed_tally(code, key) or []
    st.caption(tr("live.answers_in", n=sum(b.count for b in bars), connected=connected))
    st.caption(tr(f"live.typed.expects.{room.question['answer_type']}"))
    _histogram(tr, bars, revealed=room.revealed)


def projector(tr: Callable[..., str], store: Rooms, code: str, key: str, room: Room) -> None:
    """The main screen (the class sees it): the count while answers come in, the answer, why and the histogram
    once revealed."""
    with st.container(border=True):
        st.markdown(f"**{tr('live.q_title')}** · {live.prompt(tr, room.question['prompt'])}")
        st.caption(tr(f"live.typed.expects.{room.question['answer_type']}"))
        _hints(tr, room.question)
        bars = store.typed_tally(code, key) or []
        if room.revealed and room.solution is not None:
            q = as_quiz(room.question, room.solution)
            st.success(tr("live.answer_is", answer=live.md(answer_text(q))), icon=":material/lightbulb:")
            st.markdown(live.prompt(tr, room.question["explain"]))
            _histogram(tr, bars, revealed=True)
        else:
            st.metric(tr("live.q_answers"), f"{sum(b.count for b in bars):,}", border=False)


def answer_cell(value: Any) -> str:
    """A typed answer in the CSV: normalised as on the histogram's bars."""
    return label(value)
