"""Page 3, Heads: every head side by side, one query's distribution in every head, head similarity."""

import pandas as pd
import streamlit as st

from figures import attention_lines, query_bars, tiled_heads
from ui.charts import memo_figure, show, show_table
from ui.context import get_context
from ui.errata_links import errata_links
from ui.frame import outside_frame
from ui.head_similarity import head_similarity_section
from ui.weight_source import flat_note

if outside_frame():
    st.stop()
ctx = get_context()
tr, scene, settings, style, lang = ctx.t, ctx.scene, ctx.settings, ctx.style, ctx.lang
h = settings.n_heads
heads = [tr("common.head_n", n=i + 1) for i in range(h)]
dks = None

st.title(tr("heads.title"))
st.markdown(tr("heads.intro", h=h, dk=settings.d_k))
flat_note(ctx)

QUANTITIES = {
    "weights": (scene.weights, scene.tokens, scene.kv_tokens, "weights"),
    "scores": (scene.scores, scene.tokens, scene.kv_tokens, "signed"),
    "masked_scores": (scene.masked_scores, scene.tokens, scene.kv_tokens, "signed"),
    "q": (scene.q, scene.tokens, dks, "signed"),
    "k": (scene.k, scene.kv_tokens, dks, "signed"),
    "v": (scene.v, scene.kv_tokens, dks, "signed"),
    "head_outputs": (scene.head_outputs, scene.tokens, dks, "signed"),
}
@st.fragment
def all_heads() -> None:
    """The tiled view and its own controls: switching them reruns only this part."""
    c1, c2 = st.columns([3, 1])
    quantity = c1.radio(tr("heads.quantity"), list(QUANTITIES), format_func=lambda q: tr(f"qty.{q}"),
                        horizontal=True, key="heads_quantity")  # fmt: skip
    shared = c2.toggle(tr("heads.shared_scale"), value=True, key="heads_shared", help=tr("heads.shared_help"))
    stack, rows, cols, kind = QUANTITIES[quantity]
    st.caption(tr(f"qty.{quantity}.help"))
    fig = memo_figure(("heads_tiled", settings, lang, style, quantity, shared), lambda: tiled_heads(
        stack, list(rows), None if cols is None else list(cols), tile_titles=heads, kind=kind,
        shared_scale=shared, lang=lang, style=style,
    ))  # fmt: skip
    show(fig, key="heads_tiled")


@st.fragment
def one_query() -> None:
    """One query token in every head: bars and token-to-token lines, with their own controls."""
    st.header(tr("heads.one_query"))
    if st.session_state.get("heads_query", 0) >= scene.len_q:
        st.session_state["heads_query"] = 0
    query = st.selectbox(tr("heads.pick_query"), range(scene.len_q), format_func=lambda i: scene.labels[i],
                         key="heads_query")  # fmt: skip
    bars = memo_figure(("heads_bars", settings, lang, style, query), lambda: query_bars(
        scene.weights[:, query, :], list(scene.kv_tokens), scene.labels[query], head_titles=heads,
        lang=lang, style=style,
    ))  # fmt: skip
    show(bars, key="heads_bars")
    st.subheader(tr("heads.lines"))
    if "heads_lines_heads" in st.session_state:
        st.session_state["heads_lines_heads"] = [i for i in st.session_state["heads_lines_heads"] if i < h]
    chosen = st.multiselect(tr("heads.lines_heads"), range(h), default=list(range(min(h, 4))),
                            format_func=lambda i: heads[i], key="heads_lines_heads")  # fmt: skip
    all_queries = st.toggle(tr("heads.lines_all"), value=False, key="heads_lines_all")
    shown_query = None if all_queries else query
    lines = memo_figure(("heads_lines", settings, lang, style, tuple(chosen), shown_query), lambda: attention_lines(
        scene.weights, list(scene.tokens), list(scene.kv_tokens), heads=list(chosen), query=shown_query,
        lang=lang, style=style,
    ))  # fmt: skip
    show(lines, key="heads_lines")


all_heads()
one_query()

head_similarity_section(ctx, "heads")
errata_links(ctx, "heads")

st.subheader(tr("heads.entropy"))
st.caption(tr("heads.entropy_text"))
entropy = pd.DataFrame(scene.entropy.T, index=list(scene.labels), columns=heads).round(3)
show_table(entropy)
