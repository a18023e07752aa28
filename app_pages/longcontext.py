"""From the notes to LLMs (4): long context: sliding windows and how far stacked layers reach, the L^2 memory of the
score matrix against tiling, and FlashAttention's running max and sum of one row, block by block."""

import pandas as pd
import streamlit as st

from explorer.llm import memory_rows, mistral_window, tiling_view, window_view
from figures.llm import online_softmax_figure, reach_figure
from frame import outside_frame
from ui import keep
from ui.chart_element import show
from ui.context import get_context
from ui.figure_cache import cached_figure
from ui.tables import show_table

LENGTHS = (1024, 4096, 32768, 131072)

if outside_frame():
    st.stop()
ctx = get_context()
tr, scene, settings, style, lang = ctx.t, ctx.scene, ctx.settings, ctx.style, ctx.lang
h, L = settings.n_heads, len(scene.tokens)

st.title(tr("llm.long.title"))
mistral = mistral_window()
st.markdown(tr("llm.long.intro", **mistral))

st.header(tr("llm.long.window_title"))
c1, c2, c3 = st.columns(3)
key = keep.kept("long_length", 24, valid=lambda v: isinstance(v, int) and 4 <= v <= 48)
length = c1.slider(tr("llm.long.length"), 4, 48, key=key, on_change=keep.remember, args=("long_length", key))
key = keep.kept("long_window", 4, valid=lambda v: isinstance(v, int) and 1 <= v <= 16)
window = c2.slider(tr("llm.long.window"), 1, 16, key=key, on_change=keep.remember, args=("long_window", key))
key = keep.kept("long_layers", 3, valid=lambda v: isinstance(v, int) and 1 <= v <= 6)
layers = c3.slider(tr("llm.layers"), 1, 6, key=key, on_change=keep.remember, args=("long_layers", key))
wv = window_view(int(length), int(window), int(layers))
show(cached_figure(reach_figure, wv.first_layer, int(layers), lang=lang, style=style), key="long_field")
st.caption(tr("llm.long.reach_note"))
st.markdown(tr("llm.long.reach_text", w=window, n=layers, reach=wv.reach, **mistral))

st.header(tr("llm.long.memory_title"))
key = keep.kept("long_block", 128, valid=(32, 64, 128, 256).__contains__)
block = st.select_slider(tr("llm.long.block"), (32, 64, 128, 256), key=key, on_change=keep.remember,
                         args=("long_block", key))  # fmt: skip
mib = 1024**2
show_table(pd.DataFrame(
    [(f"{n:,}", f"{full / mib:,.1f}", f"{tiled / mib:,.2f}", f"{full / tiled:,.0f}×")
     for n, full, tiled in memory_rows(LENGTHS, int(block), h)],
    columns=["L", tr("llm.long.col_full"), tr("llm.long.col_tiled"), tr("llm.long.col_ratio")],
).set_index("L"))  # fmt: skip
st.caption(tr("llm.long.memory_caption", h=h, b=block))

st.header(tr("llm.long.tiling_title"))
c1, c2 = st.columns(2)
key = keep.kept("long_head", 1, valid=lambda v: isinstance(v, int) and 1 <= v <= h)
head = c1.selectbox(tr("llm.head"), list(range(1, h + 1)), key=key, on_change=keep.remember,
                    args=("long_head", key)) - 1  # fmt: skip
key = keep.kept("long_tile", 3, valid=lambda v: isinstance(v, int) and 1 <= v <= max(1, L))
tile = c2.slider(tr("llm.long.tile"), 1, max(2, L), key=key, on_change=keep.remember, args=("long_tile", key))
tv = tiling_view(settings, head, int(tile))
st.latex(r"\begin{aligned} m' &= \max(m,\ \max_j s_j) \\ l' &= e^{m - m'}\, l + \sum_j e^{s_j - m'} \\"
         r" o' &= e^{m - m'}\, o + \sum_j e^{s_j - m'}\, v_j \end{aligned}")  # fmt: skip
show(cached_figure(
    online_softmax_figure, tv.scores, tv.block_starts, tv.running_max, tv.running_sum, scene.labels,
    lang=lang, style=style,
), key="long_tiling")  # fmt: skip
st.markdown(tr("llm.long.tiling_text", query=scene.labels[tv.query], n=len(tv.block_starts), b=tile,
               m=f"{tv.running_max[-1]:.3f}", l=f"{tv.running_sum[-1]:.3f}", gap=f"{tv.gap:.1e}"))  # fmt: skip
