"""Page 3, Heads: every head side by side, one query's distribution in every head, head similarity."""

import streamlit as st

from figures import attention_lines, query_bars, tiled_heads
from frame import outside_frame
from ui import first_screen, keep
from ui.chart_element import show
from ui.context import get_context
from ui.errata_links import errata_links
from ui.figure_cache import cached_figure
from ui.fold import section
from ui.head_similarity import head_similarity_section
from ui.tables import show_values
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
def default_query() -> int:
    """Query 0 under a causal mask attends only to itself: start with the last query, which sees every key."""
    return scene.len_q - 1 if settings.mask == "causal" else 0


@st.fragment
def all_heads() -> None:
    """The tiled view, then its caption and its own controls: switching them reruns only this part. The controls come
    under the chart, so that a session's first screen ends with the chart and has none of them (ui/first_screen.py):
    the full run adds them below it, and the chart stays where it is."""
    q_key = keep.kept("heads_quantity", "weights", lang, valid=QUANTITIES.__contains__)
    s_key = keep.kept("heads_shared", True)
    quantity, shared = st.session_state[q_key], st.session_state[s_key]  # what the widgets under the chart hold
    stack, rows, cols, kind = QUANTITIES[quantity]
    query = int(keep.value("heads_query", default_query()))
    highlight = query if query < len(rows) else None
    fig = cached_figure(
        tiled_heads, stack, list(rows), None if cols is None else list(cols), tile_titles=heads, kind=kind,
        shared_scale=shared, lang=lang, style=style, highlight_row=highlight,
    )  # fmt: skip
    st.session_state["_heads_highlighted"] = query
    show(fig, key="heads_tiled", title=tr(f"qty.{quantity}"))
    if first_screen.active():
        return
    st.caption(tr(f"qty.{quantity}.help"))
    # one above the other: side by side, the toggle's label was cut ("One colour scale for all he…") at 1280 px
    st.radio(tr("heads.quantity"), list(QUANTITIES), format_func=lambda q: tr(f"qty.{q}"), horizontal=True,
             key=q_key, on_change=keep.remember, args=("heads_quantity", q_key))  # fmt: skip
    st.toggle(tr("heads.shared_scale"), key=s_key, help=tr("heads.shared_help"), on_change=keep.remember,
              args=("heads_shared", s_key))  # fmt: skip


@st.fragment
def one_query(heading: bool) -> None:
    """One query token in every head: bars and token-to-token lines, with their own controls."""
    if heading:
        st.header(tr("heads.one_query"))
    key = keep.kept("heads_query", default_query(), valid=lambda q: isinstance(q, int) and 0 <= q < scene.len_q)
    query = st.selectbox(tr("heads.pick_query"), range(scene.len_q), format_func=lambda i: scene.labels[i],
                         key=key, on_change=keep.remember, args=("heads_query", key))  # fmt: skip
    if st.session_state.get("_heads_highlighted") != query:
        st.rerun()  # the tiled view above highlights the chosen query's row
    bars = cached_figure(
        query_bars, scene.weights[:, query, :], list(scene.kv_tokens), scene.labels[query], head_titles=heads,
        lang=lang, style=style,
    )  # fmt: skip
    show(bars, key="heads_bars")
    st.subheader(tr("heads.lines"))
    key = keep.kept("heads_lines_heads", list(range(min(h, 4))), lang,
                    valid=lambda v: isinstance(v, list) and all(isinstance(i, int) and i < h for i in v))
    chosen = st.multiselect(tr("heads.lines_heads"), range(h), format_func=lambda i: heads[i], key=key,
                            on_change=keep.remember, args=("heads_lines_heads", key))  # fmt: skip
    key = keep.kept("heads_lines_all", False)
    all_queries = st.toggle(tr("heads.lines_all"), key=key, on_change=keep.remember, args=("heads_lines_all", key))
    shown_query = None if all_queries else query
    lines = cached_figure(
        attention_lines, scene.weights, list(scene.tokens), list(scene.kv_tokens), heads=list(chosen),
        query=shown_query, lang=lang, style=style,
    )  # fmt: skip
    show(lines, key="heads_lines")


def entropy(heading: bool) -> None:
    """How spread each head's weights are, per query: a table."""
    if heading:
        st.subheader(tr("heads.entropy"))
    st.caption(tr("heads.entropy_text"))
    show_values(scene.entropy.T, scene.labels, heads, decimals=3)


all_heads()
first_screen.end()  # a session's first run ends with the first chart (ui/first_screen.py)
# Under the tiles, three sections: a following phone shows them folded, each drawn only while open (ui/fold.py)
section(ctx, tr("heads.one_query"), "heads_one_query", one_query)
section(ctx, tr("hs.title"), "heads_similarity", lambda heading: head_similarity_section(ctx, "heads", heading))
errata_links(ctx, "heads")
section(ctx, tr("heads.entropy"), "heads_entropy", entropy)
