"""The weight source (seeded random or the real all-MiniLM-L6-v2 layer) and the padding batch: the sidebar's
widgets for them, and the page parts that show them (a flat-map caption, the real previous-token head, the
batch and its key padding mask)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import streamlit as st

from explorer import REAL_SIZES, WEIGHT_SOURCES, Scene, Settings
from explorer.sources import PAD, flatness, is_flat, real_available, real_tokens
from figures import matrix_heatmap
from mha_core import tokenize
from pretrained.loading import INSTALL_COMMAND
from pretrained.patterns import pattern_scores
from ui import sticky
from ui.chart_element import show
from ui.context import Context
from ui.figure_cache import cached_figure
from ui.tables import show_table

DEFAULTS = Settings()
PREV_LAYER, PREV_HEAD = 1, 3  # all-MiniLM-L6-v2: layer 1, head 3 (1-based) attends to the previous token
PREV_CLEAR = 0.5  # a head "is" a previous-token head when it puts at least this much weight there on average


def source_widgets(tr, worked: bool) -> tuple[str, int]:
    """Weight source and layer. Falls back to "random" (with one message) when the real model is unavailable."""
    sb = st.sidebar
    if "source" not in st.session_state:
        sticky.set_choice("source", DEFAULTS.weight_source)
    source = sb.selectbox(
        tr("realw.source"), WEIGHT_SOURCES, key="source", format_func=lambda v: tr(f"realw.source.{v}"),
        disabled=worked, on_change=sticky.remember, args=("source",), help=tr("realw.source_help"),
    )  # fmt: skip
    if source != "minilm" or worked:
        _restore_sizes()
        return "random", DEFAULTS.layer
    reason = real_available()
    if reason is not None:
        sb.error(tr("realw.unavailable", detail=tr(f"realw.reason.{reason}"), command=INSTALL_COMMAND),
                 icon=":material/warning:")  # fmt: skip
        _restore_sizes()
        return "random", DEFAULTS.layer
    layer = sb.number_input(tr("realw.layer"), 1, REAL_SIZES["layers"], DEFAULTS.layer, step=1, key="layer",
                            help=tr("realw.layer_help"), bind="query-params")  # fmt: skip
    d, h = REAL_SIZES["d_model"], REAL_SIZES["n_heads"]
    sb.caption(tr("realw.fixed", layer=int(layer), d=d, h=h, dk=d // h))
    return source, int(layer)


_KEPT = "_realw_sizes"  # the user's d_model and h while the real model's are shown (their widgets are not drawn)


def _restore_sizes() -> None:
    kept = st.session_state.pop(_KEPT, None) or {}
    for key, value in kept.items():
        if key not in st.session_state:
            st.session_state[key] = value


def fixed_size_widgets(tr, c1, c2) -> tuple[int, int]:
    """The real model's d_model and h in disabled inputs of their own; the user's sizes are kept for later."""
    kept = st.session_state.setdefault(_KEPT, {})
    for key in ("d_model", "n_heads"):
        if key in st.session_state:
            kept[key] = st.session_state[key]
    d, h = REAL_SIZES["d_model"], REAL_SIZES["n_heads"]
    c1.number_input(tr("sb.d_model"), value=d, key="realw_d_model", disabled=True)
    c2.number_input(tr("sb.n_heads"), value=h, key="realw_n_heads", disabled=True)
    return d, h


def pad_text_widget(tr) -> str:
    """The second sentence of the padding batch."""
    return st.sidebar.text_input(tr("sb.text_pad"), value=DEFAULTS.text_pad, key="text_pad",
                                 help=tr("sb.text_pad_help"), bind="query-params")  # fmt: skip


def sentence_tokens(text: str, real: bool) -> list[str]:
    """The tokens the pages will show for `text` (the real wordpieces with the real source)."""
    return real_tokens(text) if real else tokenize(text)


def real_sizes(candidate: Settings) -> Settings:
    """The settings the real layer fixes: its sizes, self-attention, its own input (no P), no edits."""
    return dataclasses.replace(candidate, d_model=REAL_SIZES["d_model"], n_heads=REAL_SIZES["n_heads"],
                               cross=False, add_pe=False, x_edits=(), w_edits=())  # fmt: skip


def _use_real_prev_head() -> None:
    sticky.set_choice("source", "minilm")
    st.session_state["layer"] = PREV_LAYER


def flat_note(ctx: Context, sc: Scene | None = None) -> None:
    """Random weights: say when the maps are flat because of them, and offer the real previous-token head."""
    sc = sc or ctx.scene
    if ctx.settings.real or ctx.settings.preset == "worked":
        return
    top, uniform = flatness(sc.weights, sc.mask)
    if not is_flat(top, uniform):
        return
    st.info(ctx.t("realw.flat", top=top, uniform=uniform), icon=":material/blur_on:")
    if ctx.settings.mask == "padding" or ctx.settings.cross:
        return
    st.button(ctx.t("realw.try_real", layer=PREV_LAYER, head=PREV_HEAD), key="realw_try",
              icon=":material/neurology:", on_click=_use_real_prev_head)  # fmt: skip


def prev_head_panel(ctx: Context, sc: Scene) -> None:
    """Real weights: name this layer's most previous-token-like head and draw its weights large."""
    if not ctx.settings.real or sc.len_q < 3:
        return
    tr, layer = ctx.t, ctx.settings.layer
    _real_token_notes(ctx, sc)
    scores = pattern_scores(np.where(sc.mask, 0.0, sc.weights))["previous"]  # (h,)
    head = int(np.nanargmax(scores)) + 1
    score = float(scores[head - 1])
    if score >= PREV_CLEAR:
        st.success(tr("realw.prev_head", layer=layer, head=head, score=score), icon=":material/arrow_back:")
    else:
        st.info(tr("realw.no_prev_head", layer=layer, head=head, score=score, best=PREV_LAYER))
    st.caption(tr("realw.bias_note"))
    w = sc.weights[head - 1]
    fig = cached_figure(
        matrix_heatmap, w, list(sc.tokens), list(sc.kv_tokens), title=tr("realw.head_title", head=head, layer=layer),
        kind="weights", row_title=tr("axis.token"), col_title=tr("axis.token"), value_name="A",
        lang=ctx.lang, style=ctx.style,
    )  # fmt: skip
    show(fig, key="realw_head")


def batch_panel(ctx: Context) -> Scene:
    """The padding batch on the step page: what padding is, the (B, L) key padding mask, and the choice of the
    batch item whose tensors the steps show. Returns that item's Scene (the page's scene without a batch)."""
    sc, tr = ctx.scene, ctx.t
    if not sc.batch or sc.key_padding is None:
        return sc
    st.header(tr("padb.title"))
    length = sc.len_q
    if not sc.key_padding.any():
        st.info(tr("padb.same_length", L=length))
    st.markdown(tr("padb.text", B=len(sc.batch), L=length, d=sc.d_model))
    rows = [tr("padb.row", n=b + 1) for b in range(len(sc.batch))]
    grid = np.array([[str(t) for t in item.tokens] for item in sc.batch])
    mask = sc.key_padding.astype(float)
    fig = cached_figure(
        matrix_heatmap, mask, rows, [str(j) for j in range(length)], title=tr("padb.mask_title"), kind="weights",
        numbered=False, row_title="B", col_title="L", value_name="mask", show_values=False, lang=ctx.lang,
        style=ctx.style,
    )  # fmt: skip
    show(fig, key="padb_mask")
    show_table(pd.DataFrame(grid, index=rows))
    pads = [sum(t == PAD for t in item.tokens) for item in sc.batch]
    item = st.segmented_control(
        tr("padb.item"), list(range(len(sc.batch))), default=int(np.argmax(pads)), required=True, key="padb_item",
        format_func=lambda b: tr("padb.item_n", n=b + 1, pads=pads[b]),
    )  # fmt: skip
    return dataclasses.replace(sc.batch[int(item or 0)], batch=sc.batch, key_padding=sc.key_padding)


def real_inputs_note(ctx: Context) -> None:
    """Inputs page, real weights: what X is; and when the real tokenizer cut the sentence."""
    s, sc = ctx.settings, ctx.scene
    if s.real:
        first = s.layer == 1
        text = ctx.t("realw.inputs_first") if first else ctx.t("realw.inputs_real", layer=s.layer, before=s.layer - 1)
        st.info(text, icon=":material/neurology:")
    _real_token_notes(ctx, sc)


def _real_token_notes(ctx: Context, sc: Scene) -> None:
    """What the real tokenizer did to the sentence: cut it, or did not know its characters."""
    if sc.truncated:
        st.warning(ctx.t("realw.truncated", limit=len(sc.tokens)))
    unknown = sum(t == "[UNK]" for t in sc.tokens)
    if ctx.settings.real and unknown:
        st.caption(ctx.t("realw.unknown", n=unknown, L=len(sc.tokens)))
