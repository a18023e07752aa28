"""Predict, then reveal: short questions about the current setting (explorer.quiz), answered and checked one by one."""

import re

import streamlit as st

from explorer.quiz import Question, make_questions, option_text
from ui.context import get_context
from ui.frame import outside_frame

if outside_frame():
    st.stop()
ctx = get_context()
tr, sc, s = ctx.t, ctx.scene, ctx.settings
SEED = "quiz_seed"


def md(text: object) -> str:
    """Tokens are user text: keep markdown and LaTeX characters literal in labels and messages."""
    return re.sub(r"([\\`*_{}\[\]()#+\-!|$<>~])", r"\\\1", str(text))


def kwargs(values: dict) -> dict:
    return {k: f"{v:,}" if isinstance(v, int) else md(v) for k, v in values.items()}


def option(q: Question, n: int, shown: bool = False) -> str:
    """An option's label; once revealed, the right one is bold and ticked."""
    label = md(option_text(q.options[n], sc.kv_labels))
    return f"**{label}** ✓" if shown and n == q.answer else label


def _new_questions() -> None:
    st.session_state[SEED] = int(st.session_state.get(SEED, 0)) + 1


def _reveal(key: str) -> None:
    st.session_state[key] = True


st.title(tr("quiz.title"))
st.markdown(tr("quiz.intro"))
st.caption(tr("quiz.setting", L=sc.len_q, Lk=sc.len_k, d=s.d_model, h=s.n_heads, mask=tr(f"mask.{s.mask}")))
seed = int(st.session_state.get(SEED, 0))
questions = make_questions(sc, seed)
score = st.empty()
right = revealed = 0

for n, q in enumerate(questions, start=1):
    with st.container(border=True):
        key = f"quiz_{seed}_{q.ident}"  # a new seed or a changed question starts unanswered
        shown = bool(st.session_state.get(f"{key}_shown", False))
        prompt = tr(f"quiz.{q.kind}.prompt", **kwargs(q.kwargs))
        number = tr("quiz.question", n=n)
        st.markdown(f"**{number}** · {prompt}")
        picked = st.radio(
            prompt, range(len(q.options)), index=None, key=key, disabled=shown, label_visibility="collapsed",
            format_func=lambda i, q=q, shown=shown: option(q, i, shown),
        )  # fmt: skip
        if not shown:
            st.button(tr("quiz.reveal"), key=f"{key}_reveal", icon=":material/visibility:", on_click=_reveal,
                      args=(f"{key}_shown",))  # fmt: skip
            continue
        revealed += 1
        answer = option(q, q.answer)
        if picked is None:
            st.info(tr("quiz.no_pick", answer=answer), icon=":material/lightbulb:")
        elif picked == q.answer:
            right += 1
            st.success(tr("quiz.right", answer=answer), icon=":material/check_circle:")
        else:
            st.error(tr("quiz.wrong", answer=answer), icon=":material/cancel:")
        st.markdown(tr(f"quiz.{q.kind}.explain", **kwargs(q.explain_kwargs)))

score.caption(tr("quiz.score", revealed=revealed, total=len(questions), right=right))
st.button(tr("quiz.new"), key="quiz_new", icon=":material/refresh:", on_click=_new_questions, type="primary")
