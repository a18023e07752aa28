"""Page 2, Step by step: the pipeline of notes 000/002 as numbered steps, each with formula, shapes, tensor.

In presentation mode one step is shown at a time, with previous/next buttons.
"""

import dataclasses

import streamlit as st

from ui.context import get_context
from ui.errata_links import errata_links
from ui.frame import outside_frame
from ui.steps_view import STEP_KEYS, StepsView
from ui.weight_source import batch_panel, flat_note, prev_head_panel

if outside_frame():
    st.stop()
ctx = get_context()
tr, scene, settings = ctx.t, ctx.scene, ctx.settings

st.title(tr("steps.title"))
st.markdown(tr("steps.intro", h=settings.n_heads, d=settings.d_model, dk=settings.d_k, L=scene.len_q, Lk=scene.len_k))
errata_links(ctx, "steps")
ctx = dataclasses.replace(ctx, scene=batch_panel(ctx))  # the padding batch: the item whose tensors follow
flat_note(ctx)
prev_head_panel(ctx, ctx.scene)
view = StepsView(ctx)
if view.small:
    view.numbers_head = st.selectbox(tr("steps.numbers_head"), range(settings.n_heads),
                                     format_func=lambda i: view.heads[i], key="numbers_head")  # fmt: skip

if not ctx.present:
    for n in range(len(STEP_KEYS)):
        view.draw(n)
    st.stop()

# Presentation: one step at a time, the titles of the steps so far as a trail.
last = len(STEP_KEYS) - 1
current = min(max(int(st.session_state.get("step_index", 0)), 0), last)


def _go(delta: int) -> None:
    st.session_state["step_index"] = min(max(current + delta, 0), last)


prev_col, info_col, next_col = st.columns([1, 4, 1])
prev_col.button(tr("steps.prev"), key="step_prev", on_click=_go, args=(-1,), disabled=current == 0,
                icon=":material/arrow_back:", width="stretch")  # fmt: skip
next_col.button(tr("steps.next"), key="step_next", on_click=_go, args=(1,), disabled=current == last,
                icon=":material/arrow_forward:", width="stretch", type="primary")  # fmt: skip
info_col.progress((current + 1) / (last + 1), text=tr("steps.progress", n=current + 1, total=last + 1))
st.caption(" → ".join(f"{i + 1}. {view.title(k)}" for i, k in enumerate(STEP_KEYS[: current + 1])))
view.draw(current)
