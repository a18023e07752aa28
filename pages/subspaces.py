"""Why it works (2): heads in different subspaces and how W^O adds them up, residual + LayerNorm,
self- vs cross-attention, and two scoring functions on the same input."""

import numpy as np
import streamlit as st

from figures import matrix_heatmap, tiled_heads
from mha_core.why import additive_attention, head_contributions, residual_layer_norm
from ui.charts import memo_figure, show
from ui.context import get_context
from ui.frame import outside_frame

if outside_frame():
    st.stop()
ctx = get_context()
tr, sc, s, style, lang = ctx.t, ctx.scene, ctx.settings, ctx.style, ctx.lang
h = s.n_heads
heads = [tr("common.head_n", n=i + 1) for i in range(h)]

st.title(tr("sub.title"))
st.markdown(tr("sub.intro"))

# ---- heads see different subspaces; W^O adds them up
st.header(tr("sub.heads.title"))
st.markdown(tr("sub.heads.text", h=h, dk=s.d_k, d=s.d_model))
st.latex(r"\rho_{ij} = \frac{\mathrm{head}_i \cdot \mathrm{head}_j}{\lVert \mathrm{head}_i \rVert\,"
         r"\lVert \mathrm{head}_j \rVert}")  # fmt: skip
show(memo_figure(("sub_rho", s, lang, style), lambda: matrix_heatmap(
    sc.head_sim, heads, heads, title="ρ_ij", kind="cosine", numbered=False, row_title=tr("axis.head"),
    col_title=tr("axis.head"), value_name="ρ", lang=lang, style=style,
)), key="sub_rho")  # fmt: skip
if h > 1:
    off = sc.head_sim[~np.eye(h, dtype=bool)]
    st.caption(tr("sub.heads.rho_range", lo=f"{off.min():.2f}", hi=f"{off.max():.2f}",
                  mean=f"{np.abs(off).mean():.2f}"))  # fmt: skip
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
