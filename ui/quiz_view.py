"""One quiz question on a page: the open question (options to pick, or a box to type into) and, once revealed,
the verdict with the explanations. Used by the quiz page and by a lesson's checkpoint (ui/lesson_bar.py).

Answers live in a plain dict `store` ({question ident: {"a": answer, "r": revealed}}), never only in a widget:
Streamlit drops a widget's value when its page is not shown.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import streamlit as st

from explorer.quiz import Msg, Question, answer_text, check_answer, feedback, parse_answer, text
from ui import quiz_state
from ui.a11y import move_focus_to


def md(value: object) -> str:
    """Tokens are user text: keep markdown and LaTeX characters literal in labels and messages."""
    return re.sub(r"([\\`*_{}\[\]()#+\-!|$<>~^])", r"\\\1", str(value))


def say(msg: Msg, lang: str) -> str:
    """A question's text: user text (tokens) escaped, the catalogue's Markdown (errata links, LaTeX) live."""
    return text(msg, lang, escape=md)


def _keep(store: dict, ident: str, key: str) -> None:
    """A widget changed: copy its value into the store (widget values die on a page switch)."""
    store[ident] = {**store.get(ident, {}), "a": st.session_state.get(key)}


def _reveal(store: dict, ident: str) -> None:
    store[ident] = {**store.get(ident, {}), "r": True}


def ask(q: Question, key: str, given: Any, store: dict, tr: Callable[..., str], lang: str, label: str,
        on_reveal: Callable[[], None] | None = None) -> None:  # fmt: skip
    """The open question: options to pick, or a box to type a number or a shape into, and the Reveal button."""
    if q.answer_type == "choice":
        st.radio(
            label, range(len(q.options)), index=given if isinstance(given, int) else None, key=key,
            label_visibility="collapsed", format_func=lambda i, q=q: say(q.options[i].label, lang),
            on_change=_keep, args=(store, q.ident, key),
        )  # fmt: skip
    else:
        st.text_input(tr(f"quiz.type.{q.answer_type}"), value=quiz_state.clip(given), key=key, max_chars=40,
                      width=360, on_change=_keep, args=(store, q.ident, key))  # fmt: skip
        if q.answer_type == "number" and q.tolerance:
            st.caption(tr("quiz.tolerance", tol=f"{q.tolerance:.2g}"))

    def reveal() -> None:
        _keep(store, q.ident, key)  # a typed answer not yet confirmed with Enter counts too
        _reveal(store, q.ident)
        move_focus_to(f"{key}_done")  # the verdict is read out; Tab goes on to the next question
        if on_reveal is not None:
            on_reveal()

    st.button(tr("quiz.reveal"), key=f"{key}_reveal", icon=":material/visibility:", on_click=reveal)


def revealed(q: Question, given: Any, tr: Callable[..., str], lang: str) -> bool:
    """The revealed question: options as plain text (readable on a projector), the verdict, the explanations.
    Returns whether the answer given was right."""
    picked = parse_answer(q, given) if given not in (None, "") else None
    right = picked is not None and check_answer(q, given)
    answer = md(answer_text(q, lang))
    if q.answer_type == "choice":
        marks = {q.answer: ":green[:material/check_circle:]"}  # icons, not emoji: a projector PC may lack them
        if picked is not None and not right:
            marks[picked] = ":red[:material/cancel:]"
        lines = []
        for i, o in enumerate(q.options):
            label = f"**{say(o.label, lang)}**" if i == q.answer else say(o.label, lang)
            lines.append(f"- {marks.get(i, ':gray[:material/radio_button_unchecked:]')} {label}")
        st.markdown("\n".join(lines))
    elif given not in (None, ""):
        st.markdown(tr("quiz.your_answer", given=md(given)))
    if given in (None, ""):
        st.info(tr("quiz.no_pick", answer=answer), icon=":material/lightbulb:")
    elif picked is None:
        st.warning(tr("quiz.unreadable", given=md(given), what=tr(f"quiz.what.{q.answer_type}"), answer=answer))
    elif right:
        st.success(tr("quiz.right", answer=answer), icon=":material/check_circle:")
    else:
        st.error(tr("quiz.wrong", answer=answer), icon=":material/cancel:")
    own = feedback(q, given) if picked is not None else None
    if own is not None and not (q.answer_type == "choice" and right):
        st.markdown(f"**{say(own, lang)}**")
    st.markdown(say(q.explain, lang))
    if q.answer_type == "choice":
        with st.expander(tr("quiz.others")):
            st.markdown("\n".join(f"- {say(o.label, lang)}: {say(o.explain, lang)}" for i, o in enumerate(q.options)
                                  if i != q.answer))  # fmt: skip
    return right


def question_card(q: Question, key: str, entry: dict, store: dict, tr: Callable[..., str], lang: str, title: str,
                  on_reveal: Callable[[], None] | None = None) -> bool | None:  # fmt: skip
    """A bordered card: `title` · the prompt, then the open question or its revealed verdict. Returns whether the
    revealed answer was right (None while it is open)."""
    with st.container(border=True):
        st.markdown(f"**{title}** · {say(q.prompt, lang)}")
        if entry.get("r"):
            with st.container(key=f"{key}_done"):  # where the focus goes after Reveal
                return revealed(q, entry.get("a"), tr, lang)
        ask(q, key, entry.get("a"), store, tr, lang, title, on_reveal)
    return None
