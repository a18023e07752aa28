"""A real model's heads: all-MiniLM-L6-v2 (6 layers x 12 heads) run offline through our own attention core."""

import numpy as np
import pandas as pd
import streamlit as st

from explorer.baselines import real_heads_baseline
from figures import attention_lines, head_similarity_figure, matrix_heatmap, tiled_heads
from frame import outside_frame
from mha_core import contribution_similarity
from pretrained.encoder import DEFAULT_MAX_TOKENS, encode_text
from pretrained.loading import INSTALL_COMMAND, ModelUnavailable, load_model
from pretrained.patterns import PATTERNS, best_heads, pattern_scores
from ui.chart_element import in_a_row, show
from ui.context import get_context
from ui.errata_links import errata_links
from ui.figure_cache import cached_figure

if outside_frame():
    st.stop()
ctx = get_context()
tr, lang, style = ctx.t, ctx.lang, ctx.style

try:
    cfg = load_model().config
except ModelUnavailable as exc:
    st.title(tr("minilm.title"))
    message = {"missing": "minilm.missing", "altered": "docker.model_altered"}.get(exc.reason, "minilm.broken")
    st.error(tr(message, detail=exc.detail, command=INSTALL_COMMAND))
    st.stop()

st.title(tr("minilm.title"))
st.markdown(tr("minilm.intro", layers=cfg.n_layers, heads=cfg.n_heads, d=cfg.d_model, dk=cfg.d_k))
errata_links(ctx, "minilm")

text = st.text_area(tr("minilm.sentence"), tr("minilm.default_text"), key=f"minilm_text_{lang}", height=80,
                    max_chars=2000, help=tr("minilm.sentence_help", n=DEFAULT_MAX_TOKENS))  # fmt: skip
good_key = f"minilm_last_good_{lang}"
if text.strip():
    st.session_state[good_key] = text.strip()
else:
    st.warning(tr("minilm.empty"))
text = st.session_state.get(good_key, tr("minilm.default_text"))
enc = encode_text(text)
if enc.truncated:
    st.info(tr("minilm.truncated", n=enc.n_wordpieces, shown=len(enc.tokens)))
labels = list(enc.tokens)  # the figures number them: "0:[CLS]", "1:the", ...
st.caption(tr("minilm.tokens", tokens=" · ".join(enc.tokens)))
n_unk = enc.tokens.count("[UNK]")
if n_unk * 4 >= len(enc.tokens) - 2 > 0:  # a quarter or more of the wordpieces between [CLS] and [SEP]
    st.warning(tr("minilm.unk", n=n_unk, total=len(enc.tokens)))
weights = enc.weights.numpy()  # (layers, heads, L, L)
n_layers, n_heads, length = weights.shape[:3]

st.header(tr("minilm.overview"))
st.markdown(tr("minilm.overview_text", n=n_layers * n_heads))
titles = [tr("minilm.tile", layer=la + 1, head=h + 1) for la in range(n_layers) for h in range(n_heads)]
show(cached_figure(
    tiled_heads, weights.reshape(n_layers * n_heads, length, length), labels, labels, tile_titles=titles,
    max_cols=n_heads, lang=lang, style=style,
), key="minilm_all", title=tr("minilm.overview"))  # fmt: skip

st.header(tr("minilm.types"))
scores = pattern_scores(weights)  # {pattern: (layers, heads)}
base = real_heads_baseline(text)  # random heads of the same shapes on the same inputs
st.markdown(tr("minilm.types_text", uniform=f"{1 / length:.2f}", n=base.distance_random.size))
best = best_heads(scores)
st.table(pd.DataFrame(
    [(tr(f"minilm.pattern.{p}"), tr("minilm.tile", layer=best[p][0] + 1, head=best[p][1] + 1), f"{best[p][2]:.2f}",
      f"{base.patterns_random[p]:.2f}") for p in PATTERNS if p in best],
    columns=[tr("minilm.col_type"), tr("minilm.col_head"), tr("minilm.col_score"), tr("minilm.col_random")],
))  # fmt: skip
present = [p for p in PATTERNS if not np.isnan(scores[p]).all()]
show(cached_figure(
    tiled_heads, np.stack([scores[p] for p in present]), [str(la + 1) for la in range(n_layers)],
    [str(h + 1) for h in range(n_heads)], tile_titles=[tr(f"minilm.pattern.{p}") for p in present],
    max_cols=3, row_title=tr("minilm.layer"), col_title=tr("minilm.head"), value_name=tr("minilm.score"),
    lang=lang, style=style, numbered=False,
), key="minilm_types", title=tr("minilm.types"))  # fmt: skip

st.subheader(tr("minilm.distance.title"))
dist = base.distance_trained  # (layers, heads)
lo_at = np.unravel_index(int(dist.argmin()), dist.shape)
st.markdown(tr("minilm.distance.text", L=length, uniform=f"{base.distance_uniform:.1f}",
               rlo=f"{base.distance_random.min():.1f}", rhi=f"{base.distance_random.max():.1f}", lo=f"{dist.min():.1f}",
               ll=lo_at[0] + 1, lh=lo_at[1] + 1, hi=f"{dist.max():.1f}"))  # fmt: skip
show(cached_figure(
    matrix_heatmap, dist, [str(la + 1) for la in range(n_layers)], [str(h + 1) for h in range(n_heads)],
    title=tr("minilm.distance.fig"), kind="plain", row_title=tr("minilm.layer"), col_title=tr("minilm.head"),
    value_name=tr("minilm.distance.fig"), numbered=False, lang=lang, style=style,
), key="minilm_distance")  # fmt: skip

st.header(tr("minilm.one_head"))
default_layer, default_head, _ = best.get("previous", (0, 0, 0.0))
c1, c2 = st.columns(2)
layer = c1.selectbox(tr("minilm.pick_layer"), range(n_layers), index=default_layer, key="minilm_layer",
                     format_func=lambda i: str(i + 1))  # fmt: skip
head = c2.selectbox(tr("minilm.pick_head"), range(n_heads), index=default_head, key="minilm_head",
                    format_func=lambda i: str(i + 1))  # fmt: skip
name = tr("minilm.tile", layer=layer + 1, head=head + 1)
st.caption(" · ".join(f"{tr(f'minilm.pattern.{p}')}: {scores[p][layer, head]:.2f}" for p in present))

st.subheader(tr("minilm.contrib"))
att = enc.layers[layer].attention  # our AttentionTrace of this layer (unbatched: q (h, L, d_k))
sim = contribution_similarity(att.head_outputs, att.w_o_heads.detach()).numpy()
off = sim[~np.eye(n_heads, dtype=bool)]
rnd = base.contrib_random[layer]  # random heads on this layer's input
st.markdown(tr("minilm.contrib_text", layer=layer + 1, mean=f"{np.abs(off).mean():.2f}", hi=f"{off.max():.2f}",
               rlo=f"{rnd.min():.2f}", rhi=f"{rnd.max():.2f}"))  # fmt: skip
show(cached_figure(head_similarity_figure, sim, tr("hs.fig"), value_name="cos", lang=lang, style=style),
     key="minilm_contrib")  # fmt: skip

st.subheader(tr("minilm.lines"))
show(cached_figure(attention_lines, weights[layer], labels, labels, heads=[head], lang=lang, style=style),
     key="minilm_lines")  # fmt: skip

st.subheader(tr("minilm.steps"))
st.markdown(tr("minilm.steps_text", d=cfg.d_model, dk=cfg.d_k))
st.latex(r"Q_i = X W_i^Q + b_i^Q,\quad S_i = \frac{Q_i K_i^\top}{\sqrt{d_k}},\quad A_i = \mathrm{softmax}(S_i),"
         r"\quad \mathrm{head}_i = A_i V_i")  # fmt: skip
parts = {
    "q": (att.q[head].numpy(), "Q_i", None, "signed"),
    "k": (att.k[head].numpy(), "K_i", None, "signed"),
    "v": (att.v[head].numpy(), "V_i", None, "signed"),
    "s": (att.scores[head].numpy(), tr("minilm.scores_title"), labels, "signed"),
    "a": (att.weights[head].numpy(), tr("minilm.weights_title"), labels, "weights"),
    "o": (att.head_outputs[head].numpy(), tr("minilm.output_title"), None, "signed"),
}
for row in (("q", "k", "v"), ("s", "a", "o")):
    places, share = in_a_row(ctx, 3, share=0.3)
    for place, part in zip(places, row, strict=True):
        m, title, cols, kind = parts[part]
        with place:
            show(cached_figure(matrix_heatmap, m, labels, cols, title=f"{name}: {title}", kind=kind, lang=lang,
                               style=style, width_fraction=share), key=f"minilm_{part}")  # fmt: skip
