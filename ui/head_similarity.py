"""The head-similarity section shared by the Heads and Subspaces pages: the cosine of the heads' contributions
(the headline measure), and note 004's ρ_ij with a live rotation of one head's value space."""

from __future__ import annotations

import numpy as np
import streamlit as st

from explorer.baselines import random_contrib_range
from explorer.derived import head_turn
from figures import RHO_LATEX, head_similarity_figure
from ui.chart_element import show, side_by_side
from ui.context import Context
from ui.figure_cache import cached_figure

CONTRIB = (r"\cos\big(\mathrm{head}_i W^O_i,\ \mathrm{head}_j W^O_j\big) = "
           r"\frac{\langle \mathrm{head}_i W^O_i,\ \mathrm{head}_j W^O_j \rangle}"
           r"{\lVert \mathrm{head}_i W^O_i \rVert\,\lVert \mathrm{head}_j W^O_j \rVert}")  # fmt: skip
RHO = RHO_LATEX


def _cos_map(ctx: Context, m: np.ndarray, title: str, width: float = 1.0):
    """A cosine / rho map, cached on every argument of the builder (the numbers drawn among them)."""
    return cached_figure(head_similarity_figure, m, title, value_name="cos", lang=ctx.lang, style=ctx.style,
                         width_fraction=width)


def head_similarity_section(ctx: Context, prefix: str, heading: bool = True) -> None:
    """Headline: cosine of head_i W^O_i. Below, in an expander: rho_ij and the rotation that moves it. `heading`:
    the section's own heading (not inside a folded section, whose label it is: ui/fold.py)."""
    tr, sc, s = ctx.t, ctx.scene, ctx.settings
    h = s.n_heads
    if heading:
        st.header(tr("hs.title"))
    st.latex(CONTRIB)
    st.markdown(tr("hs.text"))
    show(_cos_map(ctx, sc.contrib_sim, tr("hs.fig")), key=f"{prefix}_contrib_sim")
    if h < 2:
        st.caption(tr("hs.one_head"))
        return
    off = sc.contrib_sim[~np.eye(h, dtype=bool)]
    rlo, rhi = random_contrib_range(s)  # the baseline: random heads of these shapes on this input
    st.caption(tr("hs.range", lo=f"{off.min():.2f}", hi=f"{off.max():.2f}", mean=f"{np.abs(off).mean():.2f}",
                  rlo=f"{rlo:.2f}", rhi=f"{rhi:.2f}"))  # fmt: skip
    # lazy: the rotation (the layer run twice, three widgets, two charts) runs only while the expander is open
    rho = st.expander(tr("hs.rho_title"), expanded=False, key=f"{prefix}_rho_open", on_change="rerun")
    if not rho.open:
        return
    with rho:
        st.latex(RHO)
        st.markdown(tr("hs.rho_text"))
        names = [tr("common.head_n", n=i + 1) for i in range(h)]
        c1, c2, c3 = st.columns(3)
        j = c1.selectbox(tr("hs.turn"), range(h), index=1, format_func=lambda i: names[i], key=f"{prefix}_rot_head")
        others = [i for i in range(h) if i != j]
        i = c2.selectbox(tr("hs.pair"), others, format_func=lambda i: names[i], key=f"{prefix}_rot_pair_{j}")
        mode = c3.radio(tr("hs.mode"), ("angle", "max", "min"), format_func=lambda m: tr(f"hs.mode.{m}"),
                        key=f"{prefix}_rot_mode")  # fmt: skip
        angle = st.slider(tr("hs.angle"), 0, 180, 60, step=5, key=f"{prefix}_rot_angle", disabled=mode != "angle")
        turn = head_turn(s, j, i, mode, angle)  # the Scene of ctx.settings: these pages show no batch item
        demo, lo, hi = turn.demo, turn.low, turn.high
        st.markdown(tr("hs.result", i=i + 1, j=j + 1, gap=f"{demo.max_output_change:.1e}",
                       scale=f"{demo.output_scale:.2f}", before=f"{demo.rho_before[i, j]:.3f}",
                       after=f"{demo.rho_after[i, j]:.3f}", cb=f"{demo.contrib_before[i, j]:.3f}",
                       ca=f"{demo.contrib_after[i, j]:.3f}", lo=f"{lo:.3f}", hi=f"{hi:.3f}"))  # fmt: skip
        left, right, share = side_by_side(ctx)
        with left:
            show(_cos_map(ctx, demo.rho_before, tr("hs.rho_before"), share), key=f"{prefix}_rho")
        with right:
            show(_cos_map(ctx, demo.rho_after, tr("hs.rho_after", j=j + 1), share), key=f"{prefix}_rho_after")
