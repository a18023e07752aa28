"""Page 1, Inputs: tokens, embeddings X, positional encoding P, the layer input X + P; X and weights editable."""

import numpy as np
import pandas as pd
import streamlit as st

from explorer import LIMITS
from figures import matrix_heatmap
from frame import outside_frame
from ui import first_screen
from ui.chart_element import show
from ui.context import get_context
from ui.editing import clear_edits, matrix_editor
from ui.figure_cache import cached_figure
from ui.sidebar import W_EDITS, X_EDITS, edit_signature
from ui.tables import show_table
from ui.weight_source import real_inputs_note

if outside_frame():
    st.stop()
ctx = get_context()
tr, scene, settings, style = ctx.t, ctx.scene, ctx.settings, ctx.style

st.title(tr("inputs.title"))
if not settings.real:  # the real layer's X is not a seeded embedding plus P: real_inputs_note says what it is
    st.markdown(tr("inputs.intro"))
real_inputs_note(ctx)

st.subheader(tr("inputs.tokens", n=scene.len_q))
show_table(pd.DataFrame([list(scene.tokens)], index=[tr("inputs.token")]))
if settings.cross:
    st.caption(tr("inputs.kv_tokens", n=scene.len_k))
    show_table(pd.DataFrame([list(scene.kv_tokens)], index=[tr("inputs.token")]))

dims = None  # dimension axes are labelled by index
tabs = st.tabs([tr("inputs.tab_x"), tr("inputs.tab_p"), tr("inputs.tab_x_in")])
for tab, (key, values) in zip(tabs, (("x", scene.x), ("p", scene.p), ("x_in", scene.x_in)), strict=True):
    with tab:
        st.latex(tr(f"inputs.latex_{key}"))
        st.caption(tr(f"inputs.caption_{key}", L=scene.len_q, d=settings.d_model))
        fig = cached_figure(
            matrix_heatmap, values, list(scene.tokens), dims, title=tr(f"inputs.tab_{key}"), kind="signed",
            row_title=tr("axis.token"), col_title=tr("axis.dimension"), value_name=tr("axis.value"),
            lang=ctx.lang, style=style,
        )  # fmt: skip
        show(fig, key=f"inputs_{key}")
first_screen.end()  # a session's first run ends with the first chart (ui/first_screen.py)
if not settings.add_pe:
    st.info(tr("inputs.pe_off"))

st.subheader(tr("inputs.edit_x"))
if settings.preset == "worked":
    st.caption(tr("inputs.worked_fixed"))
elif settings.d_model > 64 or settings.real:
    st.caption(tr("inputs.edit_x_too_big", limit=64))
# The grid behind st.data_editor is the heaviest thing on this page to load (see ui.tables.show_table); it is
# drawn when asked for, and open from the start while X carries edits.
elif st.toggle(tr("inputs.edit_x_open"), key="edit_x_open",
               value=bool((st.session_state.get(X_EDITS) or {}).get("edits"))):  # fmt: skip
    st.caption(tr("inputs.edit_x_help"))
    matrix_editor(scene.x, list(scene.labels), X_EDITS, edit_signature("x", settings), tr)
    if st.button(tr("inputs.reset_x"), key="reset_x"):
        clear_edits(X_EDITS)
        st.rerun()

st.subheader(tr("inputs.weights"))
worked = settings.preset == "worked"
if settings.real:
    st.markdown(tr("realw.weights_real", layer=settings.layer, d=settings.d_model))
else:
    st.markdown(tr("inputs.weights_worked") if worked
                else tr("inputs.weights_intro", d=settings.d_model, seed=settings.seed))  # fmt: skip


def _reseed() -> None:
    st.session_state["seed"] = (int(st.session_state.get("seed", 0)) + 1) % LIMITS.max_seed


st.button(tr("inputs.reseed"), key="reseed", icon=":material/casino:", on_click=_reseed,
          disabled=settings.preset == "worked" or settings.real)  # fmt: skip
if settings.d_model <= LIMITS.max_edit_weights_d_model:
    st.caption(tr("inputs.edit_w_help"))
    wtabs = st.tabs(["W^Q", "W^K", "W^V", "W^O"])
    for tab, name in zip(wtabs, ("w_q", "w_k", "w_v", "w_o"), strict=True):
        with tab:
            matrix_editor(getattr(scene, name), [str(i) for i in range(settings.d_model)], W_EDITS,
                          edit_signature("w", settings), tr, name=name)  # fmt: skip
    if st.button(tr("inputs.reset_w"), key="reset_w"):
        clear_edits(W_EDITS)
        st.rerun()
else:
    st.caption(tr("inputs.edit_w_too_big", limit=LIMITS.max_edit_weights_d_model))
    cols = st.columns(2)
    for col, name in zip(cols, ("w_q", "w_o"), strict=True):
        with col:
            show(cached_figure(
                matrix_heatmap, np.asarray(getattr(scene, name)), dims, dims, title=tr(f"mat.{name}"), kind="signed",
                row_title=tr("axis.row"), col_title=tr("axis.column"), value_name=tr("axis.value"),
                lang=ctx.lang, style=style,
            ), key=f"inputs_{name}")  # fmt: skip
