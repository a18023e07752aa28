"""Predict, then reveal: the question bank (explorer.quiz) for the current setting; answers kept by ui.quiz_state."""

import re

import streamlit as st

from explorer.quiz import Question, answer_text, check_answer, feedback, make_questions, parse_answer, text
from frame import outside_frame
from ui import quiz_state
from ui.context import get_context

if outside_frame():
    st.stop()
ctx = get_context()
tr, sc, s, lang = ctx.t, ctx.scene, ctx.settings, ctx.lang


def md(value: object) -> str:
    """Tokens are user text: keep markdown and LaTeX characters literal in labels and messages."""
    return re.sub(r"([\\`*_{}\[\]()#+\-!|$<>~^])", r"\\\1", str(value))


def say(msg) -> str:
    return md(text(msg, lang))


def _keep(store: dict, ident: str, key: str) -> None:
    """A widget changed: copy its value into the quiz's own store (widget values die on a page switch)."""
    store[ident] = {**store.get(ident, {}), "a": st.session_state.get(key)}


def _reveal(store: dict, ident: str) -> None:
    store[ident] = {**store.get(ident, {}), "r": True}


def ask(q: Question, key: str, given: object) -> None:
    """The open question: options to pick, or a box to type a number or a shape into."""
    if q.answer_type == "choice":
        st.radio(
            tr("quiz.question", n=n), range(len(q.options)), index=given if isinstance(given, int) else None, key=key,
            label_visibility="collapsed", format_func=lambda i, q=q: say(q.options[i].label),
            on_change=_keep, args=(current, q.ident, key),
        )  # fmt: skip
    else:
        st.text_input(tr(f"quiz.type.{q.answer_type}"), value=quiz_state.clip(given), key=key, max_chars=40, width=360,
                      on_change=_keep, args=(current, q.ident, key))  # fmt: skip
        if q.answer_type == "number" and q.tolerance:
            st.caption(tr("quiz.tolerance", tol=f"{q.tolerance:.2g}"))
    st.button(
        tr("quiz.reveal"), key=f"{key}_reveal", icon=":material/visibility:", on_click=_reveal, args=(current, q.ident)
    )


def revealed(q: Question, given: object) -> bool:
    """The revealed question: options as plain text (readable on a projector), the verdict, the explanations."""
    picked = parse_answer(q, given) if given not in (None, "") else None
    right = picked is not None and check_answer(q, given)
    answer = md(answer_text(q, lang))
    if q.answer_type == "choice":
        marks = {q.answer: ":green[:material/check_circle:]"}  # icons, not emoji: a projector PC may lack them
        if picked is not None and not right:
            marks[picked] = ":red[:material/cancel:]"
        lines = []
        for i, o in enumerate(q.options):
            label = f"**{say(o.label)}**" if i == q.answer else say(o.label)
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
        st.markdown(f"**{say(own)}**")
    st.markdown(say(q.explain))
    if q.answer_type == "choice":
        with st.expander(tr("quiz.others")):
            st.markdown("\n".join(f"- {say(o.label)}: {say(o.explain)}" for i, o in enumerate(q.options)
                                  if i != q.answer))  # fmt: skip
    return right


st.title(tr("quiz.title"))
st.markdown(tr("quiz.intro"))
st.caption(tr("quiz.setting", L=sc.len_q, Lk=sc.len_k, d=s.d_model, h=s.n_heads, mask=tr(f"mask.{s.mask}")))
seed = quiz_state.seed()
questions = make_questions(sc, seed, lang)
current = quiz_state.answers(questions)
st.caption(tr("quiz.set", seed=seed))
with st.expander(tr("quiz.class_link"), icon=":material/link:"):
    st.code(quiz_state.class_link(lang), language=None, wrap_lines=True)
score = st.empty()
right = shown = 0

for n, q in enumerate(questions, start=1):
    entry = current.get(q.ident, {})
    with st.container(border=True):
        st.markdown(f"**{tr('quiz.question', n=n)}** · {say(q.prompt)}")
        if entry.get("r"):
            shown += 1
            right += revealed(q, entry.get("a"))
        else:
            ask(q, f"quiz_{seed}_{q.ident}", entry.get("a"))

score.caption(tr("quiz.score", revealed=shown, total=len(questions), right=right))
st.button(tr("quiz.new"), key="quiz_new", icon=":material/refresh:", on_click=quiz_state.new_set, type="primary")
quiz_state.write_url(questions, current)
