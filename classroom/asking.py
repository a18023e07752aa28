"""The console's questions: ask the stop's checkpoint or any question of the quiz bank that fits, always on the
class's setting as it is now (the question says which); the answers as they come in, private to the console; reveal;
close (the question leaves every screen, its answers stay for the CSV)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import streamlit as st

import i18n
from classroom import plan, questions, typed_answers
from classroom.leading import CLASS
from classroom.session import CODE, CONSOLE, POLL_TEACHER, accepted, error, rooms, say, screen_pass
from explorer.live_questions import ATTEND, answer_types, attend_question, quiz_question
from liveclass import LiveError
from ui.context import Context


def _setting(ctx: Context) -> dict[str, int]:
    return {"d_model": ctx.settings.d_model, "n_heads": ctx.settings.n_heads, "tokens": ctx.scene.len_q}


def _ask(made: Any, ctx: Context, missing: str) -> None:
    if made is None:
        say("warning", missing, d=ctx.settings.d_model, h=ctx.settings.n_heads)
        return
    question, answer = made
    try:
        rooms().ask(st.session_state[CODE], screen_pass(), {**question, "setting": _setting(ctx)}, answer)
    except LiveError as err:
        error(err)


def _ask_checkpoint() -> None:
    ctx: Context = st.session_state["_ctx"]
    stop = plan.stop_of(st.session_state.get(CLASS, {}))
    if stop is None or stop.checkpoint is None:
        return
    # on the class's setting now (the stop's, unless the teacher changed it): the question says which
    _ask(quiz_question(stop.checkpoint.kind, ctx.scene, stop.checkpoint.seed), ctx, "console.no_checkpoint")


def _ask_other() -> None:
    ss, ctx = st.session_state, st.session_state["_ctx"]
    kind = ss.get("live_ask_kind", ATTEND)
    seed = int(time.time())
    if kind == ATTEND:
        made = attend_question(ctx.scene, int(ss.get("live_ask_head", 0) or 0), int(ss.get("live_ask_query", 0) or 0),
                               seed)  # fmt: skip
        _ask(made, ctx, "live.err.no_margin")
    else:
        _ask(quiz_question(str(kind), ctx.scene, seed), ctx, "live.err.no_such_question")


def _reveal() -> None:
    try:
        rooms().reveal(st.session_state[CODE], screen_pass())
    except LiveError as err:
        error(err)


def _close() -> None:
    try:
        rooms().close(st.session_state[CODE], screen_pass())
    except LiveError as err:
        error(err)


@st.fragment(run_every=POLL_TEACHER)
def panel(tr: Callable[..., str]) -> None:
    """The current question with the class's answers as they come in (private: this is the teacher's screen),
    Reveal and Close; or, with no question, asking one."""
    ss = st.session_state
    if not accepted(CONSOLE):
        return
    ctx: Context = ss["_ctx"]
    code = ss[CODE]
    try:
        store = rooms()
        room = store.room(code)
    except LiveError as err:
        st.warning(tr(f"live.err.{err.code}", **err.params))
        return
    if room.question:
        with st.container(border=True, key="console_question"):
            questions.title(tr, room.question)
            try:
                presence = store.presence(code, screen_pass())
                if typed_answers.is_typed(room.question):
                    bars = store.typed_tally(code, screen_pass()) or []
                    st.caption(tr("live.answers_in", n=sum(b.count for b in bars), connected=presence.connected))
                    st.caption(tr(f"live.typed.expects.{room.question['answer_type']}"))
                    typed_answers.histogram(tr, bars, revealed=room.revealed)
                else:
                    counts = store.tally(code, screen_pass()) or []
                    st.caption(tr("live.answers_in", n=sum(counts), connected=presence.connected))
                    labels = questions.options(tr, room.question)
                    questions.bars(labels, counts, room.answer if room.revealed else None)
                names = [a.nickname for a in store.answers(code, screen_pass()) if a.nickname][-30:]
            except LiveError as err:
                st.warning(tr(f"live.err.{err.code}", **err.params))
                return
            if names:
                st.text(", ".join(names))  # as typed, never as markup
            # side by side where both labels fit, one under the other where not (columns cut "Close the question")
            row = st.container(horizontal=True, wrap=True)
            if not room.revealed:
                row.button(tr("live.reveal"), key="console_reveal", on_click=_reveal, type="primary",
                           icon=":material/visibility:")  # fmt: skip
            row.button(tr("console.close_question"), key="console_close", on_click=_close,
                       icon=":material/close:", help=tr("console.close_help"))  # fmt: skip
        return
    stop = plan.stop_of(ss.get(CLASS, {}))
    with st.container(border=True, key="console_ask"):
        st.markdown(f"**{tr('live.ask')}**")
        if stop is not None and stop.checkpoint is not None:
            name = tr(f"live.kind.{stop.checkpoint.kind}") if f"live.kind.{stop.checkpoint.kind}" in i18n.STRINGS \
                else stop.checkpoint.kind  # fmt: skip
            st.button(tr("console.ask_checkpoint", kind=name), key="console_checkpoint", on_click=_ask_checkpoint,
                      type="primary", icon=":material/quiz:")  # fmt: skip
        sc = ctx.scene
        types = {ATTEND: "choice", **answer_types(sc)}
        kind = st.selectbox(tr("live.ask_kind"), list(types), key="live_ask_kind",
                            format_func=lambda k: tr(f"live.kind.{k}") if f"live.kind.{k}" in i18n.STRINGS else k)
        st.caption(tr(f"live.answered_by.{types.get(kind, 'choice')}"))
        if kind == ATTEND:
            c1, c2 = st.columns(2)
            c1.selectbox(tr("live.ask_head"), range(sc.n_heads), key="live_ask_head", format_func=lambda h: str(h + 1))
            c2.selectbox(tr("live.ask_query"), range(sc.len_q), key="live_ask_query",
                         format_func=lambda i: sc.labels[i])  # fmt: skip
        st.caption(tr("live.q_setting", d=ctx.settings.d_model, h=ctx.settings.n_heads, L=sc.len_q))
        st.button(tr("live.ask_send"), key="live_ask_send", on_click=_ask_other, icon=":material/send:")
