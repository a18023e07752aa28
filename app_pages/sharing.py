"""From the notes to LLMs (2): heads that share keys and values (multi-query and grouped-query attention)."""

import pandas as pd
import streamlit as st

from explorer.llm import CACHE_COLUMNS, cache_table, kv_head_choices, sharing_view
from figures import tiled_heads
from figures.llm import change_figure
from frame import outside_frame
from mha_core import kv_cache_bytes
from ui import keep
from ui.chart_element import show
from ui.context import get_context
from ui.figure_cache import cached_figure
from ui.tables import show_table

if outside_frame():
    st.stop()
ctx = get_context()
tr, scene, settings, style, lang = ctx.t, ctx.scene, ctx.settings, ctx.style, ctx.lang
d, h, dk = settings.d_model, settings.n_heads, settings.d_k
choices = kv_head_choices(h)

st.title(tr("llm.share.title"))
st.markdown(tr("llm.share.intro"))
key = keep.kept("share_g", choices[len(choices) // 2], valid=choices.__contains__)
g = st.select_slider(tr("llm.share.g", h=h), choices, key=key, on_change=keep.remember, args=("share_g", key))
kind = "mha" if g == h else ("mqa" if g == 1 else "gqa")
view = sharing_view(settings, g)
st.markdown(tr(f"llm.share.kind_{kind}", g=g, h=h, r=h // g))

st.subheader(tr("llm.share.params_title"))
weights = f"{view.params.weights:,}".replace(",", "{,}")
st.latex(rf"\begin{{aligned}} & \underbrace{{d^2}}_{{W^Q}} + \underbrace{{2\,d\,g\,d_k}}_{{W^K,\ W^V}}"
         rf" + \underbrace{{d^2}}_{{W^O}} \\ &= 2 \cdot {d}^2 + 2 \cdot {d} \cdot {g} \cdot {dk} = {weights}"
         r" \end{aligned}")  # fmt: skip
st.markdown(tr("llm.share.params_text", mha=f"{view.params_mha.weights:,}", now=f"{view.params.weights:,}",
               share=f"{view.params.weights / view.params_mha.weights:.0%}"))  # fmt: skip
show_table(pd.DataFrame(
    [(str(c), str(h // c), f"{2 * d * c * dk:,}", f"{2 * d * d + 2 * d * c * dk:,}",
      f"{kv_cache_bytes(1, c, dk, 1, 4):,}") for c in choices],
    columns=["g", tr("llm.share.col_per_kv"), "$W^K + W^V$", tr("llm.share.col_weights"), tr("llm.share.col_cache")],
).set_index("g"))  # fmt: skip

st.subheader(tr("llm.share.maps_title"))
st.markdown(tr("llm.share.maps_text", g=g, r=h // g))
groups = {i: j for j, members in enumerate(view.kv_groups) for i in members}
show(cached_figure(
    tiled_heads, view.weights, scene.tokens, scene.tokens, kind="weights", max_cols=min(h, 4),
    tile_titles=[tr("llm.head_kv", i=i + 1, j=groups[i] + 1) for i in range(h)],
    row_title=tr("llm.queries"), col_title=tr("llm.keys"), lang=lang, style=style,
), key="share_maps", title=tr("llm.share.maps_title"))  # fmt: skip
if g < h:
    show(cached_figure(change_figure, view.change, view.kv_groups, lang=lang, style=style), key="share_change")
    st.caption(tr("llm.share.change_caption", top=f"{view.change.max():.3f}", mean=f"{view.change.mean():.3f}"))

st.subheader(tr("llm.share.real_title"))
st.markdown(tr("llm.share.real_text"))
columns = [tr(c) if "." in c else c for c in CACHE_COLUMNS]
show_table(pd.DataFrame(cache_table(), columns=columns).set_index(columns[0]))
st.caption(tr("llm.share.real_caption"))
