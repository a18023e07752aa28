"""Page 2, Step by step: the pipeline of notes 000/002 as numbered steps, each with formula, shapes, tensor.

In presentation mode one step fills one screen, with previous/next buttons and clicker keys (ui/present.py).
"""

import streamlit as st

from frame import outside_frame
from ui import first_screen
from ui.context import get_context
from ui.errata_links import errata_links
from ui.lesson_bar import lesson_step
from ui.present import key_listener, present_steps, url_step
from ui.steps_view import STEP_KEYS, StepsView
from ui.weight_source import batch_panel, flat_note, prev_head_panel

if outside_frame():
    st.stop()
ctx = get_context()


def all_steps(ctx) -> None:
    """The nine steps one under the other, each with its text, shapes, heatmap and numbers."""
    tr, scene, settings = ctx.t, ctx.scene, ctx.settings
    st.title(tr("steps.title"))
    st.markdown(tr("steps.intro", h=settings.n_heads, d=settings.d_model, dk=settings.d_k, L=scene.len_q,
                   Lk=scene.len_k))  # fmt: skip
    errata_links(ctx, "steps")
    ctx = ctx.with_scene(batch_panel(ctx))  # the padding batch: the item whose tensors follow
    flat_note(ctx)
    prev_head_panel(ctx, ctx.scene)
    view = StepsView(ctx)
    if view.small:
        view.numbers_head = st.selectbox(tr("steps.numbers_head"), range(settings.n_heads),
                                         format_func=lambda i: view.heads[i], key="numbers_head")  # fmt: skip
    only = lesson_step("steps")  # a lesson's stop shows its one step (ui/lesson_bar.py)
    linked = url_step()
    if linked is not None and only is None:  # a link that names a step (the student link) opens at that step
        key_listener(scroll_to=f"step-{linked + 1}")
    for n in range(len(STEP_KEYS)) if only is None else (only,):
        view.draw(n)
        first_screen.end()  # a session's first run ends with the first step (ui/first_screen.py)


# Presentation: one step per screen. Not st.stop() after it: a page that ends itself with st.stop() can lose its
# elements in the browser at the next run of a fragment (every live-class page has one), which left a projector and
# phones with a page missing its step bar or all of its content (tests/test_live_lesson_browser.py).
if ctx.present:
    present_steps(ctx)
else:
    all_steps(ctx)
