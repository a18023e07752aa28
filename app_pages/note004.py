"""Why multi-head, tested: note 004's arguments computed on the current setting (low-rank heads, heads as terms
of a sum, the kernel view, F_h against F_1 at fixed d_model, and what more heads cost)."""

from dataclasses import replace

import pandas as pd
import streamlit as st

from explorer.note004 import note004_data
from figures import matrix_heatmap
from figures.note004 import basis_figure, bottleneck_figure, head_cost_figure
from frame import outside_frame
from mha_core.note004 import head_counts, kernel_sum_check, kernel_view, time_by_heads
from training import DEFAULTS
from training.figures import symmetry_figure
from training.symmetry import symmetry_breaking
from ui.chart_element import show
from ui.context import get_context
from ui.errata_links import errata_links
from ui.figure_cache import cached_figure

if outside_frame():
    st.stop()
ctx = get_context()
tr, sc, s, style, lang = ctx.t, ctx.scene, ctx.settings, ctx.style, ctx.lang
h, d, L = s.n_heads, s.d_model, sc.len_q
heads = [tr("common.head_n", n=i + 1) for i in range(h)]
data = note004_data(s)

st.title(tr("page.note004"))
st.markdown(tr("n4.intro", d=d, h=h, L=L))
errata_links(ctx, "note004")

# ---- 1. low-rank bottleneck
st.header(tr("n4.rank.title"))
st.latex(r"S_i = \frac{Q_i K_i^\top}{\sqrt{d_k}},\quad Q_i \in \mathbb{R}^{L \times d_k},\ "
         r"K_i \in \mathbb{R}^{L_k \times d_k}")  # fmt: skip
st.latex(r"\Rightarrow\quad \operatorname{rank} S_i \le d_k = d_{\text{model}}/h")
st.markdown(tr("n4.rank.text", d=d))
b = data.bottleneck
show(cached_figure(
    bottleneck_figure, [r.n_heads for r in b], [r.d_k for r in b], [r.max_rank for r in b],
    [r.distinct_argmax for r in b], [r.reachable for r in b], L, h, lang=lang, style=style,
), key="n4_bottleneck")  # fmt: skip
st.caption(tr("n4.rank.now", h=h, dk=s.d_k, ranks=", ".join(map(str, data.ranks)), bound=min(s.d_k, L, sc.len_k)))

# ---- 2. heads as terms of a sum
st.header(tr("n4.basis.title"))
st.latex(r"\mathrm{Concat}(\mathrm{head}_1,\dots,\mathrm{head}_h)\,W^O = \sum_{i=1}^{h} \mathrm{head}_i\,W^O_i")
st.markdown(tr("n4.basis.text"))
if st.session_state.get("n4_token", 0) >= L:
    st.session_state["n4_token"] = 0
token = st.selectbox(tr("n4.basis.pick"), range(L), format_func=lambda i: sc.labels[i], key="n4_token")
show(cached_figure(
    basis_figure, data.contributions[:, token, :], sc.output[token], sc.labels[token], lang=lang, style=style,
), key="n4_basis")  # fmt: skip
st.caption(tr("n4.basis.gap", gap=f"{data.sum_gap:.1e}") + (" " + tr("n4.basis.dims", n=64, d=d) if d > 64 else ""))

# ---- 3. kernel view
st.header(tr("n4.kernel.title"))
st.latex(r"k(x_i, x_j) = \exp\!\Big(\frac{(x_i W^Q)(x_j W^K)^\top}{\sqrt{d_k}}\Big)")
st.latex(r"k(x_i, x_j) \ne k(x_j, x_i) \quad\text{when } W^Q \ne W^K")
st.markdown(tr("n4.kernel.text"))
kh = st.selectbox(tr("n4.kernel.head"), range(h), format_func=lambda i: heads[i], key="n4_kernel_head")
kv = kernel_view(sc.x_in, sc.w_q_heads[kh], sc.w_k_heads[kh], s.scale, *sc.qk_biases(kh))
a, bb = kv.pair
st.markdown(tr("n4.kernel.numbers", n=kh + 1, asym=f"{kv.asymmetry:.2f}", gap=f"{kv.max_pair_gap:.2f}",
               a=sc.labels[a], b=sc.labels[bb], eig=f"{kv.min_eig_sym:.3g}", tied=f"{kv.tied_min_eig:.3g}",
               double=f"{kv.double_min_eig:.3g}"))  # fmt: skip
ks = kernel_sum_check(sc.masked_scores, sc.v, sc.w_o_heads)
st.caption(tr("n4.kernel.sum", gap=f"{ks.output_gap:.3g}", scale=f"{ks.output_scale:.3g}"))
for col, (m, title, tag) in zip(st.columns(3), ((kv.scores, "n4.kernel.s", "s"), (kv.scores.T, "n4.kernel.st", "st"),
                                                (kv.tied_scores, "n4.kernel.tied", "tied")), strict=True):  # fmt: skip
    with col:
        show(cached_figure(
            matrix_heatmap, m, list(sc.tokens), list(sc.tokens), title=tr(title), kind="signed", lang=lang,
            style=style, width_fraction=0.33, show_values=False,
        ), key=f"n4_kernel_{tag}")  # fmt: skip

# ---- 4. F_h against F_1
st.header(tr("n4.incl.title"))
st.markdown(tr("n4.incl.text", d=d))
st.table(pd.DataFrame(
    [(str(r.n_heads), str(r.d_k), str(r.single_rank), str(r.head_max_rank), tr("n4.yes" if r.reproducible else "n4.no"))
     for r in data.inclusion],
    columns=["h", "d_k", tr("n4.incl.col_rank1"), tr("n4.incl.col_rankh"), tr("n4.incl.col_ok")],
).set_index("h"))  # fmt: skip
fails = [r.n_heads for r in data.inclusion if not r.reproducible]
st.markdown(tr("n4.incl.fails", h0=fails[0]) if fails else tr("n4.incl.holds", L=L))

# ---- 5. cost
st.header(tr("n4.cost.title"))
st.markdown(tr("n4.cost.text", L=L, d=d))
costs = data.costs
st.table(pd.DataFrame(
    [(str(c.n_heads), str(c.d_k), f"{c.matmul_mults:,}", f"{c.exponentials:,}", f"{c.score_bytes:,}") for c in costs],
    columns=["h", "d_k", tr("n4.cost.col_mults"), tr("n4.cost.col_exps"), tr("n4.cost.col_bytes")],
).set_index("h"))  # fmt: skip
timing_heads = head_counts(d, 16)
length = st.select_slider(tr("n4.cost.length"), (64, 128, 256, 512), value=256, key="n4_time_length")
timing_key = f"n4_timing_{d}_{length}"
if st.button(tr("n4.cost.measure"), key="n4_measure", icon=":material/timer:"):
    with st.spinner(tr("n4.cost.measuring")):
        st.session_state[timing_key] = time_by_heads(length, d, timing_heads, reps=5)
seconds = st.session_state.get(timing_key)
show(head_cost_figure([c.n_heads for c in costs], [c.matmul_mults for c in costs], [c.exponentials for c in costs],
                      [c.score_bytes for c in costs], seconds, lang=lang, style=style), key="n4_cost")  # fmt: skip
if seconds is not None and len(timing_heads) > 1:
    st.caption(tr("n4.cost.timed", L=length, h1=timing_heads[0], h2=timing_heads[-1], t1=f"{seconds[0] * 1000:.2f}",
                  t2=f"{seconds[-1] * 1000:.2f}", x=f"{seconds[-1] / seconds[0]:.2f}"))  # fmt: skip

# ---- 6. symmetry breaking
st.header(tr("n4.sym.title"))
st.markdown(tr("n4.sym.text"))
sym_config = replace(DEFAULTS["previous"], steps=200)
if st.button(tr("n4.sym.run", steps=sym_config.steps), key="n4_sym_run", icon=":material/model_training:"):
    with st.spinner(tr("n4.sym.running")):
        st.session_state["n4_sym"] = symmetry_breaking(sym_config)
sym = st.session_state.get("n4_sym")
if sym is not None:
    show(symmetry_figure(sym.steps, sym.gap_tied, sym.gap_random, lang=lang, style=style), key="n4_sym_fig")
    scores = [", ".join(f"{v:.2f}" for v in p.ravel()) for p in (sym.pattern_tied, sym.pattern_random)]
    st.markdown(tr("n4.sym.result", steps=sym.steps[-1], task=tr("lab.task.previous"), tied=f"{sym.gap_tied[-1]:.1g}",
                   rand=f"{sym.gap_random[-1]:.2f}", pt=scores[0], pr=scores[1], at=f"{sym.accuracy_tied:.0%}",
                   ar=f"{sym.accuracy_random:.0%}"))  # fmt: skip
