"""Why it works (2): heads in different subspaces and how W^O adds them up, residual + LayerNorm,
self- vs cross-attention, and two scoring functions on the same input."""

import streamlit as st

from explorer import closest_head_subspaces, output_by_head
from explorer.shown import average_check, column_view
from figures import matrix_heatmap, tiled_heads
from frame import outside_frame
from mha_core.why import additive_attention, layer_norm_stats, residual_layer_norm
from ui.chart_element import show, side_by_side
from ui.context import get_context
from ui.errata_links import errata_links
from ui.figure_cache import cached_figure
from ui.head_similarity import head_similarity_section
from ui.latex import latex_matrix

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
closest = closest_head_subspaces(scene.w_q_heads)  # the two heads' query subspaces at the smallest principal angle
if closest is None:
    st.markdown(tr("sub.heads.one", dk=settings.d_k, d=settings.d_model))
else:
    st.markdown(tr("sub.heads.text", h=h, dk=settings.d_k, d=settings.d_model, i=closest.pair[0] + 1,
                   j=closest.pair[1] + 1, angle=f"{closest.angle:.1f}", shared=closest.shared))  # fmt: skip
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
), key="sub_contrib", title=tr("sub.wo.title"))  # fmt: skip

# ---- more than a weighted average (note 003)
st.subheader(tr("sub.avg.title"))
avg = average_check(settings)
one = f"{avg.gap_one.max():.1g}"
if avg.fills:
    st.markdown(tr("sub.avg.fills", Lk=scene.len_k, d=settings.d_model))
elif h == 1:
    st.markdown(tr("sub.avg.one_head", one=one))
else:
    st.markdown(tr("sub.avg.text", one=one, h=h, lo=f"{avg.gap_heads.min():.2f}", hi=f"{avg.gap_heads.max():.2f}",
                   scale=f"{avg.scale:.2f}"))  # fmt: skip

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

# ---- note 003's column vectors (d2l) beside the app's rows, with the same numbers
st.header(tr("sub.d2l.title"))
st.markdown(tr("sub.d2l.text"))
c1, c2 = st.columns(2)
dh = c1.selectbox(tr("sub.d2l.head"), range(h), format_func=lambda i: heads[i], key="sub_d2l_head")
dt = c2.selectbox(tr("sub.d2l.token"), range(scene.len_q), format_func=lambda i: scene.labels[i], key="sub_d2l_token")
cv, shown = column_view(scene, dh, dt), min(settings.d_k, 4)  # 4 entries: the row fits a phone
st.latex(rf"W_{{{dh + 1}}}^{{(q)}}\,q = {latex_matrix(cv.d2l[:shown], max_cells=8)}")  # one per line: fits a phone
st.latex(rf"x_{{{dt}}} W_{{{dh + 1}}}^Q = {latex_matrix(cv.app[:, :shown], max_cells=8)}")
st.caption(tr("sub.d2l.gap", gap=f"{cv.gap:.1g}")
           + (" " + tr("sub.d2l.first", n=shown, dk=settings.d_k) if settings.d_k > shown else ""))  # fmt: skip

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
