"""A multiple-choice question of a live class on each screen: the student's card (pick, send, then the verdict), the
projector's (the question and its options; the answer and the class's bars only once revealed), the bars. Typed
questions (a number or a shape) are drawn by `typed_answers`. Which setting a question is about is said with it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from classroom import identity
from classroom.session import CODE, SID, md, rooms, text
from liveclass import LiveError, Room


def setting_line(tr: Callable[..., str], question: dict[str, Any]) -> None:
    """Which setting the question is about (the class's when it was asked), in one caption."""
    setting = question.get("setting")
    if isinstance(setting, dict) and {"d_model", "n_heads", "tokens"} <= setting.keys():
        st.caption(tr("live.q_setting", d=setting["d_model"], h=setting["n_heads"], L=setting["tokens"]))


def options(tr: Callable[..., str], question: dict[str, Any], markdown: bool = True) -> list[str]:
    return [text(tr, o, markdown) for o in question.get("options", [])]


def bars(options: list[str], counts: list[int], correct: int | None) -> None:
    """The class's answers as a histogram of bars (text, so it reads on a phone and a projector alike)."""
    total = max(sum(counts), 1)
    for i, (label, n) in enumerate(zip(options, counts, strict=False)):
        mark = " ✓" if i == correct else ""
        st.progress(n / total, text=f"{label}{mark} — {n}")


def title(tr: Callable[..., str], question: dict[str, Any]) -> None:
    st.markdown(f"**{tr('live.q_title')}** · {text(tr, question['prompt'])}")
    setting_line(tr, question)


def student(tr: Callable[..., str], room: Room, sent: dict[str, int]) -> None:
    """A student's card: pick and send (changeable until the reveal); then right or not, why, and the bars."""
    ss, q = st.session_state, room.question or {}
    labels = options(tr, q)
    with st.container(border=True):
        title(tr, q)
        if room.revealed and room.answer is not None:
            _revealed(tr, room, labels, sent.get(room.qid))
            return
        pick = st.radio(tr("live.q_title"), range(len(labels)), index=None, key=f"live_pick_{room.qid}",
                        format_func=lambda i: labels[i], label_visibility="collapsed")  # fmt: skip
        nick = st.text_input(tr("live.nickname"), key="live_nick", max_chars=24, help=tr("live.nickname_help"))
        if st.button(tr("live.send"), key=f"live_send_{room.qid}", disabled=pick is None, icon=":material/send:",
                     type="primary"):  # fmt: skip
            try:
                rooms().submit(ss[CODE], ss[SID], room.qid, int(pick), nick, client=identity.browser_id())
                sent[room.qid] = int(pick)
            except LiveError as err:
                st.warning(tr(f"live.err.{err.code}", **err.params), icon=":material/warning:")
        if room.qid in sent:
            st.success(tr("live.sent", answer=labels[sent[room.qid]]), icon=":material/check:")
        else:
            st.caption(tr("live.hidden_until_reveal"))


def _revealed(tr: Callable[..., str], room: Room, labels: list[str], mine: int | None) -> None:
    q = room.question or {}
    right = labels[room.answer] if room.answer is not None else ""
    if mine is None:
        st.info(tr("live.answer_is", answer=right), icon=":material/lightbulb:")
    elif mine == room.answer:
        st.success(tr("live.you_right", answer=right), icon=":material/check_circle:")
    else:
        st.error(tr("live.you_wrong", answer=right), icon=":material/cancel:")
    st.markdown(text(tr, q["explain"]))
    try:
        counts = rooms().tally(st.session_state[CODE])
    except LiveError:
        counts = None
    if counts:
        bars(labels, counts, room.answer)


def projector(tr: Callable[..., str], room: Room) -> None:
    """The question on the main screen: the question and its options while the class answers (no count: the class
    sees this screen), then the right answer, why and the class's bars once revealed."""
    q = room.question or {}
    labels = options(tr, q)
    with st.container(border=True, key="live_projector_question"):
        title(tr, q)
        if room.revealed and room.answer is not None:
            st.success(tr("live.answer_is", answer=labels[room.answer]), icon=":material/lightbulb:")
            st.markdown(text(tr, q["explain"]))
            try:
                counts = rooms().tally(st.session_state[CODE])
            except LiveError:
                counts = None
            if counts:
                bars(labels, counts, room.answer)
        else:
            st.markdown("  \n".join(f"**{chr(65 + i)}.** {o}" for i, o in enumerate(labels)))
            st.caption(tr("live.answer_on_phones"))


def plain_options(tr: Callable[..., str], question: dict[str, Any]) -> list[str]:
    """The options as text for a CSV cell (no markdown escapes)."""
    return options(tr, question, markdown=False)


__all__ = ["bars", "md", "options", "plain_options", "projector", "setting_line", "student", "title"]
