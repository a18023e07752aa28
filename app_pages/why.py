"""Why it works (1): why 1/sqrt(d_k), how the cost grows with L, why the parameters do not depend on h."""

import numpy as np
import pandas as pd
import streamlit as st

from explorer import model_rows, valid_head_counts, weight_blocks
from figures import tiled_heads
from figures.why import cost_figure, fused_weight_figure, parameter_figure, scaling_figure
from frame import outside_frame
from mha_core import operation_counts, parameter_count
from mha_core.why import architecture_costs, cost_curve, scaling_experiment, score_bytes, time_forward
from ui.chart_element import show
from ui.context import get_context
from ui.errata_links import errata_links
from ui.figure_cache import cached_figure

if outside_frame():
    st.stop()
ctx = get_context()
tr, scene, settings, style, lang = ctx.t, ctx.scene, ctx.settings, ctx.style, ctx.lang
D_KS = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)
LENGTHS = (8, 16, 32, 64, 128, 256, 512)

st.title(tr("why.title"))
st.markdown(tr("why.intro"))
errata_links(ctx, "why")


@st.cache_data(show_spinner=False, max_entries=4)
def _scaling(n_keys: int):
    return scaling_experiment(D_KS, n_keys=n_keys)


# ---- 1. why divide by sqrt(d_k)
st.header(tr("why.scale.title"))
st.latex(r"\operatorname{Var}(q \cdot k) = d_k \;\Rightarrow\; "
         r"\operatorname{Var}\!\left(\frac{q \cdot k}{\sqrt{d_k}}\right) = 1")
st.markdown(tr("why.scale.text", dk=settings.d_k))
n_keys = max(2, scene.len_k)
r = _scaling(n_keys)
show(cached_figure(
    scaling_figure, r.d_ks, r.n_keys, r.spread, (r.entropy_scaled, r.entropy_raw),
    (r.max_weight_scaled, r.max_weight_raw), (r.grad_scaled, r.grad_raw), lang=lang, style=style,
), key="why_scaling")  # fmt: skip
i = int(np.argmin([abs(np.log2(d) - np.log2(settings.d_k)) for d in D_KS]))
st.caption(tr("why.scale.now", dk=D_KS[i], n=n_keys, es=f"{r.entropy_scaled[i]:.2f}", er=f"{r.entropy_raw[i]:.2f}",
              ms=f"{r.max_weight_scaled[i]:.2f}", mr=f"{r.max_weight_raw[i]:.2f}",
              gs=f"{r.grad_scaled[i]:.3f}", gr=f"{r.grad_raw[i]:.3f}"))  # fmt: skip

# ---- 2. cost grows with L^2
st.header(tr("why.cost.title"))
st.markdown(tr("why.cost.text", L=scene.len_q, Lk=scene.len_k, d=settings.d_model, h=settings.n_heads, dk=settings.d_k))
steps = operation_counts(scene.len_q, settings.d_model, settings.n_heads, len_k=scene.len_k, bias=True,
                         scale=settings.scale)  # fmt: skip
st.table(pd.DataFrame(
    [(tr(f"why.step.{c.step}"), f"{c.mults:,}", f"{c.adds:,}", f"{c.other:,}") for c in steps]
    + [(tr("why.step.total"), f"{sum(c.mults for c in steps):,}", f"{sum(c.adds for c in steps):,}",
        f"{sum(c.other for c in steps):,}")],
    columns=[tr("why.col.step"), tr("why.col.mults"), tr("why.col.adds"), tr("why.col.other")],
))  # fmt: skip
timing_key = ("why_timing", settings.d_model, settings.n_heads)
if st.button(tr("why.cost.measure"), key="why_measure", icon=":material/timer:"):
    bar = st.progress(0.0, text=tr("why.cost.measuring"))
    st.session_state[str(timing_key)] = time_forward(
        LENGTHS, settings.d_model, settings.n_heads,
        progress=lambda done, total: bar.progress(done / total, text=tr("why.cost.measured_n", n=done, total=total)),
    )  # fmt: skip
    bar.empty()
seconds = st.session_state.get(str(timing_key))
quad, lin = cost_curve(LENGTHS, settings.d_model, settings.n_heads)
show(cost_figure(LENGTHS, quad, lin, seconds, lang=lang, style=style), key="why_cost")
mb = 1024 * 1024
now_kib = score_bytes(scene.len_q, scene.len_k, settings.n_heads) / 1024
st.markdown(tr("why.cost.memory", L=scene.len_q, now=f"{now_kib:.1f}",
               big=f"{score_bytes(4096, 4096, settings.n_heads) / mb:,.0f}", h=settings.n_heads))  # fmt: skip
st.subheader(tr("why.table.title"))
st.markdown(tr("why.table.md"))
st.markdown(f"**{tr('why.arch.title')}** " + tr("why.arch.text"))
c1, c2, c3 = st.columns(3)
n = int(c1.number_input(tr("why.arch.n"), 1, 1_000_000, max(scene.len_q, 2), key="why_arch_n"))
dd = int(c2.number_input(tr("why.arch.d"), 1, 100_000, settings.d_model, key="why_arch_d"))
kk = int(c3.number_input(tr("why.arch.k"), 2, 99, 3, key="why_arch_k"))
st.table(pd.DataFrame(
    [(tr(f"why.arch.{r.name}"), f"{r.mults:,}", f"{r.sequential:,}", f"{r.path:,}")
     for r in architecture_costs(n, dd, kk)],
    columns=[tr("why.arch.col_layer"), tr("why.arch.col_mults"), tr("why.arch.col_seq"), tr("why.arch.col_path")],
).set_index(tr("why.arch.col_layer")))  # fmt: skip
st.caption(tr("why.arch.ratio", ratio=f"{n / dd:.3g}", n=f"{n:,}"))

# ---- 3. parameters do not depend on h
st.header(tr("why.params.title"))
d = settings.d_model
divisors = valid_head_counts(d)
counts = [parameter_count(d, h) for h in divisors]
st.markdown(tr("why.params.text", d=d, total=f"{counts[0].total:,}", w=f"{4 * d * d:,}", b=f"{4 * d:,}"))
by_matrix = {"W^Q": [c.w_q for c in counts], "W^K": [c.w_k for c in counts], "W^V": [c.w_v for c in counts],
             "W^O": [c.w_o for c in counts], tr("why.params.biases"): [c.biases for c in counts]}  # fmt: skip
show(cached_figure(
    parameter_figure, divisors, by_matrix, [d // h for h in divisors], settings.n_heads, lang=lang, style=style,
), key="why_params")  # fmt: skip
h_view = st.select_slider(tr("why.params.pick_h"), divisors, key="why_h_view",
                          value=settings.n_heads if settings.n_heads in divisors else 1)  # fmt: skip
st.markdown(tr("why.params.blocks", h=h_view, dk=d // h_view, d=d))
if d <= 256:
    show(cached_figure(fused_weight_figure, scene.w_q, h_view, lang=lang, style=style), key="why_fused")
    blocks = weight_blocks(scene.w_q, h_view)  # (h, d_model, d_k): W_i^Q = columns of block i
    show(cached_figure(
        tiled_heads, blocks, None, None, kind="signed", max_cols=min(h_view, 8), row_title=tr("why.params.input_dim"),
        col_title="d_k", lang=lang, style=style,
    ), key="why_blocks", title=tr("why.params.pick_h"))  # fmt: skip
else:
    st.info(tr("why.params.too_big", d=d))

st.subheader(tr("why.params.models_title"))
rows = model_rows()
st.markdown(tr("why.params.models_text", d_lo=f"{min(r[1] for r in rows):,}", d_hi=f"{max(r[1] for r in rows):,}",
               dk_lo=min(r[3] for r in rows), dk_hi=max(r[3] for r in rows)))  # fmt: skip
st.table(pd.DataFrame(
    [(name, f"{dm:,}", str(h), str(dk), str(n), f"{params:,}") for name, dm, h, dk, n, params in rows],
    columns=["", "d_model", "h", "d_k = d_model / h", tr("why.params.col_layers"), tr("why.params.col_params")],
).set_index(""))  # fmt: skip
