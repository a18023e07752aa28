"""Typed questions of a live class on screen (a number or a shape): the student's box and verdict, the histogram of
typed answers (the console's at any time, everyone's once revealed). Reading, checking and counting the answers is
liveclass.typed's (the quiz's own rules); an answer is shown, counted and exported exactly as the student typed it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from classroom import identity
from classroom.questions import title
from classroom.session import CODE, SENT, SID, md, rooms, text
from explorer.quiz import answer_text
from liveclass import LiveError, Room
from liveclass.typed import Bar, as_quiz, is_typed, own_feedback, read

ERR = "_live_typed_err"  # (qid, text refused, error code, params): the message stays until the text changes
HIST = "_live_typed_hist"  # (qid, bars, own answer): read once after the reveal (answers are closed then)

__all__ = ["histogram", "is_typed", "projector", "student"]


def _hints(tr: Callable[..., str], question: dict[str, Any]) -> None:
    tol = question.get("tolerance") or 0
    if question.get("answer_type") == "number" and tol:
        st.caption(tr("quiz.tolerance", tol=f"{tol:.2g}"))


def _send(room: Room, typed: str, nick: str) -> None:
    """Check the typed text here first (one message, nothing sent when it is not a number / shape); the store
    checks it again. What is kept is the text as typed."""
    ss = st.session_state
    store = rooms()
    try:
        read(room.question["answer_type"], typed, store.limits.max_answer)
        store.submit(ss[CODE], ss[SID], room.qid, typed, nick, client=identity.browser_id())
    except LiveError as err:
        ss[ERR] = (room.qid, typed, err.code, err.params)
        return
    ss.pop(ERR, None)
    ss.setdefault(SENT, {})[room.qid] = typed.strip()


def student(tr: Callable[..., str], room: Room) -> None:
    """A student's card: type the answer and send it (changeable until the reveal); then the verdict and why."""
    ss, q = st.session_state, room.question or {}
    sent = ss.setdefault(SENT, {})
    with st.container(border=True):
        title(tr, q)
        if room.revealed and room.solution is not None:
            _student_revealed(tr, room)
            return
        kind = q["answer_type"]
        typed = st.text_input(tr(f"quiz.type.{kind}"), key=f"live_typed_{room.qid}",
                              max_chars=rooms().limits.max_answer, width=360)  # fmt: skip
        _hints(tr, q)
        nick = st.text_input(tr("live.nickname"), key="live_nick", max_chars=24, help=tr("live.nickname_help"))
        # never disabled: a click right after typing (the box not yet committed) must send, not be lost
        if st.button(tr("live.send"), key=f"live_send_{room.qid}", icon=":material/send:", type="primary"):
            _send(room, typed, nick)
        refused = ss.get(ERR)
        if refused and refused[0] == room.qid and refused[1] == typed:
            st.warning(tr(f"live.err.{refused[2]}", **refused[3]), icon=":material/warning:")
        if room.qid in sent:
            st.success(tr("live.sent", answer=md(sent[room.qid])), icon=":material/check:")
        else:
            st.caption(tr("live.hidden_until_reveal"))


def _student_revealed(tr: Callable[..., str], room: Room) -> None:
    """The right answer, this student's answer as typed and its verdict as the store graded it (after a reload too),
    the quiz's feedback for their slip, why, and the class's histogram. The store is read once per question (answers
    are closed after the reveal), not on every tick of the student's timer."""
    ss = st.session_state
    cached = ss.get(HIST)
    if cached is None or cached[0] != room.qid:
        try:
            store = rooms()
            cached = ss[HIST] = (room.qid, store.typed_tally(ss[CODE]) or [],
                                 store.mine(ss[CODE], ss[SID], identity.browser_id()))  # fmt: skip
        except LiveError:  # the store is away: the answer and why still show; the next tick reads again
            cached = (room.qid, [], None)
    _, bars, mine = cached
    q = as_quiz(room.question or {}, room.solution or {})
    right = md(answer_text(q))
    if mine is None or mine.value is None:
        st.info(tr("live.answer_is", answer=right), icon=":material/lightbulb:")
    else:
        st.markdown(tr("live.typed.yours", answer=md(mine.text)))
        if mine.right:
            st.success(tr("live.you_right", answer=right), icon=":material/check_circle:")
        else:
            st.error(tr("live.you_wrong", answer=right), icon=":material/cancel:")
            slip = own_feedback(q, mine.value)
            if slip is not None:
                st.markdown(f"**{text(tr, {'key': slip.key, 'params': slip.args})}**")
    st.markdown(text(tr, room.question["explain"]))
    histogram(tr, bars, revealed=True)


def histogram(tr: Callable[..., str], bars: list[Bar], revealed: bool) -> None:
    """The most frequent typed answers as bars (text, readable on a phone and a projector), each exactly as a number
    (4194304, never 4,194,300); ✓ on the right ones once revealed."""
    total = sum(b.count for b in bars)
    if not total:
        st.caption(tr("live.typed.none_yet"))
        return
    st.caption(tr("live.typed.hist", n=total))
    for b in bars:
        name = tr("live.typed.other") if b.label is None else md(b.label)
        mark = " ✓" if revealed and b.right else ""
        st.progress(b.count / total, text=f"{name}{mark} — {b.count}")


def projector(tr: Callable[..., str], room: Room) -> None:
    """The main screen (the class sees it): the question while answers come in (no count), the answer, why and the
    histogram once revealed."""
    q = room.question or {}
    with st.container(border=True, key="live_projector_question"):
        title(tr, q)
        st.caption(tr(f"live.typed.expects.{q['answer_type']}"))
        _hints(tr, q)
        if room.revealed and room.solution is not None:
            st.success(tr("live.answer_is", answer=md(answer_text(as_quiz(q, room.solution)))),
                       icon=":material/lightbulb:")  # fmt: skip
            st.markdown(text(tr, q["explain"]))
            try:
                bars = rooms().typed_tally(st.session_state[CODE]) or []
            except LiveError:
                bars = []
            histogram(tr, bars, revealed=True)
        else:
            st.caption(tr("live.answer_on_phones"))
