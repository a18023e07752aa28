"""Home: what the app shows, the whole pipeline with live shapes, where to go next, and the notes' errata."""

import streamlit as st

from classroom.join import join_box
from explorer.errata import ERRATA
from figures.flow import pipeline_dot
from frame import outside_frame
from ui import first_screen, lesson_state
from ui.context import get_context
from ui.nav import page_icon

if outside_frame():
    st.stop()
ctx = get_context()
tr, scene, settings = ctx.t, ctx.scene, ctx.settings

st.title(tr("home.title"))
if lesson_state.active() is None:  # a self-paced lesson's stop is its content: no live class to join there
    join_box(tr)
st.markdown(tr("home.intro"))
st.latex(
    r"\mathrm{MultiHead}(X) = \mathrm{Concat}(\mathrm{head}_1, \dots, \mathrm{head}_h)\, W^O,\quad "
    r"\mathrm{head}_i = \mathrm{softmax}\!\left(\frac{(XW_i^Q)(XW_i^K)^\top}{\sqrt{d_k}}\right) XW_i^V"
)
st.subheader(tr("home.flow", h=settings.n_heads, d=settings.d_model, dk=settings.d_k, L=scene.len_q))
labels = {k: tr(f"home.flow_{k}") for k in ("input", "head", "concat", "output", "softmax")}
described = tr("a11y.pipeline", L=scene.len_q, Lk=scene.len_k, d=settings.d_model, h=settings.n_heads, dk=settings.d_k)
st.graphviz_chart(pipeline_dot(scene.len_q, scene.len_k, settings.d_model, settings.n_heads, labels, title=described,
                               dark=ctx.style.dark), width="stretch")  # fmt: skip
first_screen.end()  # a session's first run ends with the diagram (ui/first_screen.py)

st.subheader(tr("home.where"))
c1, c2 = st.columns(2)
with c1:
    st.page_link("app_pages/inputs.py", label=tr("page.inputs"), icon=page_icon("inputs"))
    st.caption(tr("home.where_inputs"))
    st.page_link("app_pages/steps.py", label=tr("page.steps"), icon=page_icon("steps"))
    st.caption(tr("home.where_steps"))
with c2:
    st.page_link("app_pages/heads.py", label=tr("page.heads"), icon=page_icon("heads"))
    st.caption(tr("home.where_heads"))
    st.page_link("app_pages/positional.py", label=tr("page.positional"), icon=page_icon("positional"))
    st.caption(tr("home.where_positional"))

st.page_link("app_pages/errata.py", label=tr("page.errata"), icon=page_icon("errata"))
st.caption(tr("home.errata_text", n=len(ERRATA)))
