"""Page 4, Positional encoding: sin/cos curves, P, wavelengths, and P P^T, with their own controls."""

import streamlit as st

from explorer import positional_tables
from figures import pe_curves, pe_heatmap, pe_similarity, wavelength_chart
from ui import first_screen
from ui.chart_element import show, side_by_side
from ui.context import get_context
from ui.figure_cache import cached_figure
from ui.frame import outside_frame

MAX_LENGTH, MAX_D = 256, 1024


if outside_frame():
    st.stop()
ctx = get_context()
tr, style, lang = ctx.t, ctx.style, ctx.lang

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
st.markdown(tr("pe.similarity_text"))
show(cached_figure(pe_similarity, sim, lang=lang, style=style), key="pe_sim")
