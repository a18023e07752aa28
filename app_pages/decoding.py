"""From the notes to LLMs (1): a decoder generating one token at a time, with a KV cache (explorer/decoding.py)."""

import streamlit as st

from explorer.decoding import MAX_NEW, run_decoding
from figures import tiled_heads
from figures.llm import cache_figure, decode_cost_figure
from frame import outside_frame
from ui import keep
from ui.chart_element import show
from ui.context import get_context
from ui.decoder_text import composition_text, head_table, head_text
from ui.figure_cache import cached_figure
from ui.llm_text import token_line

if outside_frame():
    st.stop()
ctx = get_context()
tr, style, lang, settings = ctx.t, ctx.style, ctx.lang, ctx.settings

st.title(tr("llm.decode.title"))
st.markdown(tr("llm.decode.intro"))
c1, c2 = st.columns(2)
key = keep.kept("decode_new", 3, valid=lambda v: isinstance(v, int) and 0 <= v <= MAX_NEW)
n_new = c1.slider(tr("llm.decode.n_new"), 0, MAX_NEW, key=key, on_change=keep.remember, args=("decode_new", key))
run = run_decoding(settings.text, int(n_new))
if not run.steps:
    st.info(tr("llm.decode.empty"))
    st.stop()
T, c = len(run.steps), run.config
key = keep.kept("decode_step", T, valid=lambda v: isinstance(v, int) and 1 <= v <= T)
t = c1.slider(tr("llm.decode.step"), 1, T, key=key, on_change=keep.remember, args=("decode_step", key)) - 1
layer = 0
if run.n_layers > 1:
    key = keep.kept("decode_layer", 1, valid=lambda v: isinstance(v, int) and 1 <= v <= run.n_layers)
    layer = c2.radio(tr("llm.decode.layer"), list(range(1, run.n_layers + 1)), key=key, horizontal=True,
                     on_change=keep.remember, args=("decode_layer", key)) - 1  # fmt: skip
name = tr("decoder.name") if run.trained else tr("llm.decode.seeded")
c2.caption(tr("llm.decode.model", name=name, layers=run.n_layers, h=c.n_heads, g=c.kv_heads, dk=c.d_k, d=c.d_model))

step = run.steps[t]
st.markdown(token_line(run.tokens[: t + 1], [s.generated for s in run.steps[: t + 1]], tr))
st.caption(tr("llm.decode.guess" if run.trained else "llm.decode.guess_seeded", token=step.next_token))

labels = list(run.tokens[: t + 1])
groups = [j for j in range(c.kv_heads) for _ in range(c.n_heads // c.kv_heads)]
st.subheader(tr("llm.decode.rows_title", t=t + 1))
st.markdown(tr("llm.decode.rows_text", t=t + 1, layer=layer + 1))
show(cached_figure(
    tiled_heads, run.weights_until(t, layer), labels, labels, kind="weights", highlight_row=t,
    tile_titles=[tr("llm.head_kv", i=i + 1, j=groups[i] + 1) for i in range(c.n_heads)],
    row_title=tr("llm.queries"), col_title=tr("llm.keys"), max_cols=min(c.n_heads, 4), lang=lang, style=style,
), key="decode_weights", title=tr("llm.decode.rows_title", t=t + 1))  # fmt: skip
if run.heads is not None:  # the trained decoder: which of these heads have a job, measured
    st.subheader(tr("decoder.heads_title"))
    st.markdown(head_text(run.heads, layer, tr))
    st.markdown(head_table(run.heads, layer, tr))
    if (composed := composition_text(run.heads, layer, tr)) is not None:
        st.markdown(composed)

st.subheader(tr("llm.decode.cache_title", n=t + 1))
st.markdown(tr("llm.decode.cache_text", g=c.kv_heads, h=c.n_heads, dk=c.d_k))
show(cached_figure(
    cache_figure, run.keys[layer][:, : t + 1], labels, t, title=tr("llm.decode.k_title", layer=layer + 1, g=c.kv_heads),
    lang=lang, style=style,
), key="decode_cache")  # fmt: skip

st.subheader(tr("llm.decode.cost_title"))
sizes = {"layers": run.n_layers, "g": c.kv_heads, "dk": c.d_k, "L": t + 1, "b": run.bytes_per_number}
st.latex(tr("llm.decode.latex", cache=tr("llm.decode.kv_word"), total=f"{step.cache_bytes:,}".replace(",", "{,}"),
            **sizes))  # fmt: skip
st.caption(tr("llm.decode.latex_names", **sizes))
st.markdown(tr("llm.decode.cost_text", t=t + 1, cached=f"{step.flops_cached:,}", full=f"{step.flops_recompute:,}",
               ratio=step.flops_recompute // step.flops_cached, bytes=f"{step.cache_bytes:,}"))  # fmt: skip
show(cached_figure(
    decode_cost_figure, [s.flops_cached for s in run.steps], [s.flops_recompute for s in run.steps],
    [s.cache_bytes for s in run.steps], t + 1, lang=lang, style=style,
), key="decode_cost")  # fmt: skip
st.caption(tr("llm.decode.real_scale"))
