"""From the notes to LLMs (3): where positions go: added to X (sinusoidal), turned into Q and K (RoPE), or added to
the scores (ALiBi); the relative-position property live, ALiBi's per-head penalty, and beyond the trained length."""

import pandas as pd
import streamlit as st

from explorer.llm import POSITIONS, beyond_view, positions_view
from figures import tiled_heads
from figures.llm import alibi_figure, rope_wavelength_figure
from frame import outside_frame
from ui import keep
from ui.chart_element import show
from ui.context import get_context
from ui.figure_cache import cached_figure
from ui.tables import show_table

MAX_SHIFT, TRAINED = 4096, (64, 128, 256, 512, 1024, 2048, 4096)

if outside_frame():
    st.stop()
ctx = get_context()
tr, scene, settings, style, lang = ctx.t, ctx.scene, ctx.settings, ctx.style, ctx.lang
h = settings.n_heads

st.title(tr("llm.pos.title"))
st.markdown(tr("llm.pos.intro"))
c1, c2 = st.columns(2)
key = keep.kept("pos_head", 1, valid=lambda v: isinstance(v, int) and 1 <= v <= h)
head = c1.selectbox(tr("llm.head"), list(range(1, h + 1)), key=key, on_change=keep.remember, args=("pos_head", key)) - 1
key = keep.kept("pos_shift", 100, valid=lambda v: isinstance(v, int) and 0 <= v <= MAX_SHIFT)
shift = c2.slider(tr("llm.pos.shift"), 0, MAX_SHIFT, key=key, on_change=keep.remember, args=("pos_shift", key))
view = positions_view(settings, int(shift))

shown = [m for m, name in enumerate(POSITIONS) if name != "rope" or view.rope_ok]  # RoPE needs an even d_k
show(cached_figure(
    tiled_heads, view.weights[shown, head], scene.tokens, scene.tokens, kind="weights", max_cols=3,
    tile_titles=[tr(f"llm.pos.short_{POSITIONS[m]}") for m in shown], row_title=tr("llm.queries"),
    col_title=tr("llm.keys"), title=tr("llm.pos.maps_title", head=head + 1), lang=lang, style=style,
), key="pos_maps")  # fmt: skip
st.markdown("\n".join("- " + tr("llm.pos.where_item", name=tr(f"llm.pos.name_{n}"), where=tr(f"llm.pos.where_{n}"))
                      for n in POSITIONS))  # fmt: skip
if not view.rope_ok:
    st.info(tr("llm.pos.rope_odd", dk=settings.d_k))

st.subheader(tr("llm.pos.shift_title", s=shift))
st.markdown(tr("llm.pos.shift_text", s=shift, L=len(scene.tokens)))
show_table(pd.DataFrame(
    [(tr(f"llm.pos.name_{name}"), "—" if change != change else f"{change:.2g}",
      tr(f"llm.pos.verdict_{name}" if shift else "llm.pos.verdict_none"))
     for name, change in zip(POSITIONS, view.score_change, strict=True)],
    columns=[tr("llm.pos.col_method"), tr("llm.pos.col_change"), tr("llm.pos.col_why")],
).set_index(tr("llm.pos.col_method")))  # fmt: skip

st.subheader(tr("llm.pos.alibi_title"))
st.markdown(tr("llm.pos.alibi_text", h=h, first=f"{view.slopes[0]:.4g}", last=f"{view.slopes[-1]:.4g}"))
show(cached_figure(alibi_figure, view.slopes, 32, lang=lang, style=style), key="pos_alibi")

st.subheader(tr("llm.pos.beyond_title"))
c1, c2 = st.columns(2)
key = keep.kept("pos_trained", 512, valid=TRAINED.__contains__)
trained = c1.select_slider(tr("llm.pos.trained"), TRAINED, key=key, on_change=keep.remember,
                           args=("pos_trained", key))  # fmt: skip
key = keep.kept("pos_dk", 64, valid=(16, 32, 64, 128).__contains__)
d_k = c2.select_slider("$d_k$", (16, 32, 64, 128), key=key, on_change=keep.remember, args=("pos_dk", key))
beyond = beyond_view(int(d_k), int(trained), h)
st.markdown(tr("llm.pos.beyond_text", dk=d_k, pairs=d_k // 2, unseen=beyond.unseen, L=trained))
show(cached_figure(
    rope_wavelength_figure, beyond.wavelengths, beyond.never_turned, int(trained), lang=lang, style=style,
), key="pos_waves")  # fmt: skip
st.markdown(tr("llm.pos.beyond_alibi", L=trained, twice=2 * trained))
