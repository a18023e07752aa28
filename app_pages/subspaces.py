"""Why it works (2): heads in different subspaces and how W^O adds them up, residual + LayerNorm,
self- vs cross-attention, and two scoring functions on the same input."""

import streamlit as st

from explorer import head_subspace_overlap, off_diagonal, output_by_head
from figures import matrix_heatmap, tiled_heads
from frame import outside_frame
from mha_core.why import additive_attention, layer_norm_stats, residual_layer_norm
from ui.chart_element import show, side_by_side
from ui.context import get_context
from ui.errata_links import errata_links
from ui.figure_cache import cached_figure
from ui.head_similarity import head_similarity_section

if outside_frame():
    st.stop()
ctx = get_context()
tr, scene, settings, style, lang = ctx.t, ctx.scene, ctx.settings, ctx.style, ctx.lang
h = settings.n_heads
heads = [tr("common.head_n", n=i + 1) for i in range(h)]

st.title(tr("sub.title"))
st.markdown(tr("sub.intro"))
errata_links(ctx, "subspaces")

# ---- heads see different subspaces; W^O adds them up
st.header(tr("sub.heads.title"))
overlap = off_diagonal(head_subspace_overlap(scene.w_q_heads))  # cos of the smallest principal angle between heads
st.markdown(tr("sub.heads.text", h=h, dk=settings.d_k, d=settings.d_model,
               overlap=f"{overlap.high:.2f}" if overlap else "—"))  # fmt: skip
head_similarity_section(ctx, "sub")
st.subheader(tr("sub.wo.title"))
st.latex(r"\mathrm{Concat}(\mathrm{head}_1,\dots,\mathrm{head}_h)\,W^O = \sum_{i=1}^{h} \mathrm{head}_i\,W^O_i,"
         r"\qquad W^O = \begin{bmatrix} W^O_1 \\ \vdots \\ W^O_h \end{bmatrix}")  # fmt: skip
by_head = output_by_head(scene)  # head_i W^O_i: (h, L, d_model), and how far their sum is from Concat W^O
st.markdown(tr("sub.wo.text", dk=settings.d_k, d=settings.d_model, gap=f"{by_head.gap:.1e}"))
show(cached_figure(
    tiled_heads, by_head.contributions, list(scene.tokens), None,
    tile_titles=[f"head_{i + 1} W^O_{i + 1}" for i in range(h)], kind="signed", col_title=tr("axis.dimension"),
    lang=lang, style=style,
), key="sub_contrib")  # fmt: skip

# ---- residual and LayerNorm
st.header(tr("sub.ln.title"))
st.latex(r"Y = \mathrm{LayerNorm}\big(X + \mathrm{MultiHead}(X)\big),\quad "
         r"\mathrm{LayerNorm}(z) = \frac{z - \mu(z)}{\sqrt{\sigma^2(z) + \varepsilon}}")  # fmt: skip
st.markdown(tr("sub.ln.text"))
if st.toggle(tr("sub.ln.show"), value=True, key="sub_ln"):
    y = residual_layer_norm(scene.x_in, scene.output)
    show(cached_figure(
        matrix_heatmap, y, list(scene.tokens), None, title=tr("sub.ln.fig"), kind="signed",
        col_title=tr("axis.dimension"), lang=lang, style=style,
    ), key="sub_ln_fig")  # fmt: skip
    stats = layer_norm_stats(y)
    st.caption(tr("sub.ln.stats", mean=f"{stats.max_abs_mean:.1e}", std=f"{stats.mean_std:.3f}"))

# ---- self vs cross
st.header(tr("sub.cross.title"))
st.markdown(tr("sub.cross.table"))
if settings.cross:
    st.success(tr("sub.cross.now_cross", Lq=scene.len_q, Lk=scene.len_k))
else:
    st.info(tr("sub.cross.now_self", L=scene.len_q))

# ---- scoring functions
st.header(tr("sub.score.title"))
st.latex(r"a(q, k) = \frac{q^\top k}{\sqrt{d_k}} \qquad\text{vs}\qquad a(q, k) = w_v^\top \tanh(W_q q + W_k k)")
head = st.selectbox(tr("sub.score.head"), range(h), format_func=lambda i: heads[i], key="sub_score_head")
st.markdown(tr("sub.score.text", n=head + 1))
add = additive_attention(scene.q[head], scene.k[head], scene.v[head], seed=settings.seed, mask=scene.mask[head])
c1, c2, share = side_by_side(ctx)
with c1:
    show(cached_figure(
        matrix_heatmap, scene.weights[head], list(scene.tokens), list(scene.kv_tokens), title=tr("sub.score.dot"),
        kind="weights", lang=lang, style=style, width_fraction=share,
    ), key="sub_dot")  # fmt: skip
with c2:
    show(cached_figure(
        matrix_heatmap, add.weights, list(scene.tokens), list(scene.kv_tokens), title=tr("sub.score.add"),
        kind="weights", lang=lang, style=style, width_fraction=share,
    ), key="sub_add")  # fmt: skip
