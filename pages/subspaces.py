"""Why it works (2): heads in different subspaces and how W^O adds them up, residual + LayerNorm,
self- vs cross-attention, and two scoring functions on the same input."""

import numpy as np
import streamlit as st

from figures import matrix_heatmap, tiled_heads
from mha_core.note004 import subspace_overlap
from mha_core.why import additive_attention, head_contributions, residual_layer_norm
from ui.charts import memo_figure, show
from ui.context import get_context
from ui.errata_links import errata_links
from ui.frame import outside_frame
from ui.head_similarity import head_similarity_section

if outside_frame():
    st.stop()
ctx = get_context()
tr, sc, s, style, lang = ctx.t, ctx.scene, ctx.settings, ctx.style, ctx.lang
h = s.n_heads
heads = [tr("common.head_n", n=i + 1) for i in range(h)]

st.title(tr("sub.title"))
st.markdown(tr("sub.intro"))
errata_links(ctx, "subspaces")

# ---- heads see different subspaces; W^O adds them up
st.header(tr("sub.heads.title"))
overlap = subspace_overlap(sc.w_q_heads)[~np.eye(h, dtype=bool)]  # cos of the smallest principal angle
st.markdown(tr("sub.heads.text", h=h, dk=s.d_k, d=s.d_model, overlap=f"{overlap.max():.2f}" if h > 1 else "—"))
head_similarity_section(ctx, "sub")
st.subheader(tr("sub.wo.title"))
st.latex(r"\mathrm{Concat}(\mathrm{head}_1,\dots,\mathrm{head}_h)\,W^O = \sum_{i=1}^{h} \mathrm{head}_i\,W^O_i,"
         r"\qquad W^O = \begin{bmatrix} W^O_1 \\ \vdots \\ W^O_h \end{bmatrix}")  # fmt: skip
contrib = head_contributions(sc.head_outputs, sc.w_o_heads)  # (h, L, d_model)
gap = float(np.abs(contrib.sum(axis=0) - sc.concat @ sc.w_o).max())
st.markdown(tr("sub.wo.text", dk=s.d_k, d=s.d_model, gap=f"{gap:.1e}"))
show(memo_figure(("sub_contrib", s, lang, style), lambda: tiled_heads(
    contrib, list(sc.tokens), None, tile_titles=[f"head_{i + 1} W^O_{i + 1}" for i in range(h)], kind="signed",
    col_title=tr("axis.dimension"), lang=lang, style=style,
)), key="sub_contrib")  # fmt: skip

# ---- residual and LayerNorm
st.header(tr("sub.ln.title"))
st.latex(r"Y = \mathrm{LayerNorm}\big(X + \mathrm{MultiHead}(X)\big),\quad "
         r"\mathrm{LayerNorm}(z) = \frac{z - \mu(z)}{\sqrt{\sigma^2(z) + \varepsilon}}")  # fmt: skip
st.markdown(tr("sub.ln.text"))
if st.toggle(tr("sub.ln.show"), value=True, key="sub_ln"):
    y = residual_layer_norm(sc.x_in, sc.output)
    show(memo_figure(("sub_ln", s, lang, style), lambda: matrix_heatmap(
        y, list(sc.tokens), None, title=tr("sub.ln.fig"), kind="signed", col_title=tr("axis.dimension"),
        lang=lang, style=style,
    )), key="sub_ln_fig")  # fmt: skip
    st.caption(tr("sub.ln.stats", mean=f"{np.abs(y.mean(axis=1)).max():.1e}", std=f"{y.std(axis=1).mean():.3f}"))

# ---- self vs cross
st.header(tr("sub.cross.title"))
st.markdown(tr("sub.cross.table"))
if s.cross:
    st.success(tr("sub.cross.now_cross", Lq=sc.len_q, Lk=sc.len_k))
else:
    st.info(tr("sub.cross.now_self", L=sc.len_q))

# ---- scoring functions
st.header(tr("sub.score.title"))
st.latex(r"a(q, k) = \frac{q^\top k}{\sqrt{d_k}} \qquad\text{vs}\qquad a(q, k) = w_v^\top \tanh(W_q q + W_k k)")
head = st.selectbox(tr("sub.score.head"), range(h), format_func=lambda i: heads[i], key="sub_score_head")
st.markdown(tr("sub.score.text", n=head + 1))
add = additive_attention(sc.q[head], sc.k[head], sc.v[head], seed=s.seed, mask=sc.mask[head])
c1, c2 = st.columns(2)
with c1:
    show(memo_figure(("sub_dot", s, head, lang, style), lambda: matrix_heatmap(
        sc.weights[head], list(sc.tokens), list(sc.kv_tokens), title=tr("sub.score.dot"), kind="weights",
        lang=lang, style=style, width_fraction=0.5,
    )), key="sub_dot")  # fmt: skip
with c2:
    show(memo_figure(("sub_add", s, head, lang, style), lambda: matrix_heatmap(
        add.weights, list(sc.tokens), list(sc.kv_tokens), title=tr("sub.score.add"), kind="weights",
        lang=lang, style=style, width_fraction=0.5,
    )), key="sub_add")  # fmt: skip
