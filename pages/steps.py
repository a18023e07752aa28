"""Page 2, Step by step: the pipeline of notes 000/002 as numbered steps, each with formula, shapes, tensor."""

import numpy as np
import pandas as pd
import streamlit as st

from explorer import LIMITS, shape_table
from figures import matrix_heatmap, tiled_heads
from ui.charts import latex_matrix, show
from ui.context import get_context
from ui.frame import outside_frame

if outside_frame():
    st.stop()
ctx = get_context()
tr, sc, s, style, lang = ctx.t, ctx.scene, ctx.settings, ctx.style, ctx.lang
h, d, dk = s.n_heads, s.d_model, s.d_k
heads = [tr("common.head_n", n=i + 1) for i in range(h)]
dims = None  # dimension axes are labelled by index
dks = None

st.title(tr("steps.title"))
st.markdown(tr("steps.intro", h=h, d=d, dk=dk, L=sc.len_q, Lk=sc.len_k))
small = sc.len_q * max(d, sc.len_k) <= LIMITS.max_numbers_cells
numbers_head = 0
if small:
    numbers_head = st.selectbox(
        tr("steps.numbers_head"), range(h), format_func=lambda i: heads[i], key="numbers_head"
    )


def step(n: int, key: str, **kw: object) -> None:
    st.header(f"{n}. {tr(f'steps.{key}.title')}")
    st.latex(tr(f"steps.{key}.latex"))
    st.markdown(tr(f"steps.{key}.text", **kw))


def numbers(label: str, m: np.ndarray) -> None:
    tex = latex_matrix(m, max_cells=LIMITS.max_numbers_cells) if small else None
    if tex is not None:
        st.latex(f"{label} = {tex}")


def heads_fig(stack: np.ndarray, rows: list[str], cols: list[str], kind: str, key: str) -> None:
    show(tiled_heads(stack, rows, cols, tile_titles=heads, kind=kind, lang=lang, style=style), key=key)


# 1. input
step(1, "input", L=sc.len_q, d=d)
show(matrix_heatmap(sc.x_in, list(sc.tokens), dims, title="X" + (" + P" if s.add_pe else ""), kind="signed",
                    row_title=tr("axis.token"), col_title=tr("axis.dimension"), value_name=tr("axis.value"),
                    lang=lang, style=style), key="steps_x")  # fmt: skip
numbers("X", sc.x_in)

# 2. projections, fused and per head
step(2, "proj", d=d, dk=dk, h=h)
fused_tab, head_tab = st.tabs([tr("steps.proj.fused"), tr("steps.proj.per_head")])
with fused_tab:
    st.caption(tr("steps.proj.fused_caption", dk=dk))
    fused = (("Q", sc.q_fused, sc.tokens), ("K", sc.k_fused, sc.kv_tokens), ("V", sc.v_fused, sc.kv_tokens))
    for name, m, rows in fused:
        show(matrix_heatmap(m, list(rows), dims, title=f"{name} = X W^{name}", kind="signed",
                            row_title=tr("axis.token"), col_title=tr("axis.dimension"), value_name=name,
                            lang=lang, style=style), key=f"steps_{name}_fused")  # fmt: skip
with head_tab:
    for name, m, rows in (("Q", sc.q, sc.tokens), ("K", sc.k, sc.kv_tokens), ("V", sc.v, sc.kv_tokens)):
        st.markdown(f"**{name}_i = X W_i^{name}**")
        heads_fig(m, list(rows), dks, "signed", f"steps_{name}_heads")
numbers(f"Q_{{{numbers_head + 1}}}", sc.q[numbers_head])

# 3. split into heads: the shape table of note 002, live
step(3, "split", h=h, dk=dk)
table = shape_table(s, sc.len_q, sc.len_k)
st.table(pd.DataFrame(table, columns=[tr("steps.col_tensor"), tr("steps.col_shape"), tr("steps.col_now")]))

# 4. scores
step(4, "scores", dk=dk, scale=f"{sc.scale_factor:.4f}")
if not s.scale:
    st.warning(tr("steps.scores.unscaled"))
heads_fig(sc.scores, list(sc.tokens), list(sc.kv_tokens), "signed", "steps_scores")
numbers(f"S_{{{numbers_head + 1}}}", sc.scores[numbers_head])

# 5. mask
step(5, "mask")
if s.mask == "none":
    st.info(tr("steps.mask.none"))
else:
    st.caption(tr(f"steps.mask.{s.mask}"))
    heads_fig(sc.masked_scores, list(sc.tokens), list(sc.kv_tokens), "signed", "steps_masked")

# 6. softmax
step(6, "softmax")
heads_fig(sc.weights, list(sc.tokens), list(sc.kv_tokens), "weights", "steps_weights")
numbers(f"A_{{{numbers_head + 1}}}", sc.weights[numbers_head])

# 7. weighted sum of values
step(7, "av", dk=dk)
heads_fig(sc.head_outputs, list(sc.tokens), dks, "signed", "steps_head_outputs")
numbers(f"\\mathrm{{head}}_{{{numbers_head + 1}}}", sc.head_outputs[numbers_head])

# 8. concat
step(8, "concat", h=h, dk=dk, d=d)
show(matrix_heatmap(sc.concat, list(sc.tokens), dims, title=tr("steps.concat.title"), kind="signed",
                    row_title=tr("axis.token"), col_title=tr("axis.dimension"), value_name=tr("axis.value"),
                    lang=lang, style=style), key="steps_concat")  # fmt: skip
numbers(r"\mathrm{Concat}", sc.concat)

# 9. output projection
step(9, "out", d=d)
show(matrix_heatmap(sc.output, list(sc.tokens), dims, title=tr("steps.out.title"), kind="signed",
                    row_title=tr("axis.token"), col_title=tr("axis.dimension"), value_name=tr("axis.value"),
                    lang=lang, style=style), key="steps_output")  # fmt: skip
numbers(r"\mathrm{Output}", sc.output)
