"""Predict, then reveal: the question bank (explorer.quiz) for the current setting; answers kept by ui.quiz_state,
each question drawn by ui.quiz_view (the lessons' checkpoints use the same card)."""

import streamlit as st

from explorer.quiz import make_questions
from frame import outside_frame
from ui import quiz_state
from ui.context import get_context
from ui.quiz_view import question_card

if outside_frame():
    st.stop()
ctx = get_context()
tr, sc, s, lang = ctx.t, ctx.scene, ctx.settings, ctx.lang

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
    verdict = question_card(q, f"quiz_{seed}_{q.ident}", current.get(q.ident, {}), current, tr, lang,
                            tr("quiz.question", n=n))  # fmt: skip
    shown += verdict is not None
    right += bool(verdict)

score.caption(tr("quiz.score", revealed=shown, total=len(questions), right=right))
st.button(tr("quiz.new"), key="quiz_new", icon=":material/refresh:", on_click=quiz_state.new_set, type="primary")
quiz_state.write_url(questions, current)
