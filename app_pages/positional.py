"""Page 4, Positional encoding: sin/cos curves, P, wavelengths, and P P^T, with their own controls."""

import streamlit as st

from explorer import positional_tables
from explorer.shown import order_demo, positional_profile, shift_check
from figures import pe_curves, pe_heatmap, pe_similarity, wavelength_chart
from figures.order import swap_figure
from frame import outside_frame
from ui import first_screen
from ui.chart_element import show, side_by_side
from ui.context import get_context
from ui.figure_cache import cached_figure
from ui.latex import latex_matrix

MAX_LENGTH, MAX_D = 256, 1024


if outside_frame():
    st.stop()
ctx = get_context()
tr, style, lang, sc = ctx.t, ctx.style, ctx.lang, ctx.scene

st.title(tr("pe.title"))
st.latex(r"p_{i,2j} = \sin\!\left(\frac{i}{b^{2j/d}}\right), \qquad p_{i,2j+1} = \cos\!\left(\frac{i}{b^{2j/d}}\right)")
st.markdown(tr("pe.intro"))
c1, c2, c3 = st.columns(3)
length = c1.number_input(tr("pe.length"), 1, MAX_LENGTH, 50, key="pe_length", help=tr("pe.limit", n=MAX_LENGTH))
d_model = c2.number_input(tr("pe.d_model"), 2, MAX_D, 64, key="pe_d_model", help=tr("pe.limit", n=MAX_D))
base = c3.number_input(tr("pe.base"), 2.0, 1e9, 10000.0, step=1000.0, key="pe_base", format="%.0f")
tables = positional_tables(int(length), int(d_model), float(base))
p, sim, waves = tables.p, tables.similarity, tables.wavelengths

options = list(range(int(d_model)))
default = [j for j in (0, 1, 4, 5, int(d_model) // 2) if j < d_model]
dims = st.multiselect(tr("pe.dims"), options, default=sorted(set(default)), key="pe_dims",
                      max_selections=12)  # fmt: skip
if dims:
    show(cached_figure(pe_curves, p, list(dims), lang=lang, style=style), key="pe_curves")
else:
    st.info(tr("pe.pick_dims"))
first_screen.end()  # a session's first run ends with the first chart (ui/first_screen.py)
col_a, col_b, share = side_by_side(ctx)
with col_a:
    show(cached_figure(pe_heatmap, p, lang=lang, style=style, width_fraction=0.9 * share), key="pe_heatmap")
with col_b:
    show(cached_figure(wavelength_chart, waves, lang=lang, style=style), key="pe_waves")
st.subheader(tr("pe.similarity"))
prof = positional_profile(int(length), int(d_model), float(base))
st.markdown(tr("pe.similarity_text", rises=prof.rises, steps=prof.steps) + " "
            + tr("pe.similarity_even" if d_model % 2 == 0 else "pe.similarity_odd", d=int(d_model),
                 spread=f"{prof.spread:.1g}"))  # fmt: skip
show(cached_figure(pe_similarity, sim, lang=lang, style=style), key="pe_sim")

# ---- the shift property: P_{pos+k} = P_pos M_k
st.subheader(tr("pe.shift.title"))
st.markdown(tr("pe.shift.text"))
k = int(st.number_input(tr("pe.shift.k"), 1, MAX_LENGTH, 3, key="pe_shift_k"))
check = shift_check(int(length), int(d_model), float(base), k)
for j, block in check.blocks:  # one block per line: two side by side run off a phone's screen
    st.latex(rf"M_{{{k}}}^{{({j})}} = {latex_matrix(block, digits=3)}")
st.caption(tr("pe.shift.check", d=int(d_model), base=f"{base:g}", k=k, n=check.positions, err=f"{check.max_error:.1g}")
           + (" " + tr("pe.shift.odd") if d_model % 2 else ""))  # fmt: skip

# ---- does attention see the order? swap two tokens (the sidebar's sentence and weights)
st.subheader(tr("pe.order.title"))
st.markdown(tr("pe.order.text"))
if sc.len_q < 2:
    st.info(tr("pe.order.short"))
else:
    c1, c2 = st.columns(2)
    a = c1.selectbox(tr("pe.order.a"), range(sc.len_q), index=0, format_func=lambda i: sc.labels[i], key="pe_swap_a")
    b = c2.selectbox(tr("pe.order.b"), range(sc.len_q), index=min(2, sc.len_q - 1), format_func=lambda i: sc.labels[i],
                     key="pe_swap_b")  # fmt: skip
    if a == b:
        st.info(tr("pe.order.same"))
    else:
        demo = order_demo(ctx.settings, int(a), int(b))
        show(cached_figure(swap_figure, demo.change, list(sc.tokens), int(a), int(b), lang=lang, style=style),
             key="pe_swap")  # fmt: skip
        plain, pe, causal = (f"{v:.1g}" for v in demo.change.max(axis=1))
        st.caption(tr("pe.order.result", plain=plain, pe=pe, causal=causal, scale=f"{demo.scale:.2f}"))
