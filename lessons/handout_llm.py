"""The handout's figures of the four pages of "From the notes to LLMs", at a stop's setting and at the controls each
page opens with (its own sliders are not part of a setting): inline SVG and tables from explorer's computed arrays,
the pages' own words for their columns. `LLM_FIGURES[page](settings, lang) -> html`; `setting_line(stop, lang)`
names the decoder of /decoding (its sizes are its own, not the setting's d_model and h).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

import i18n
from explorer.decoding import Decoding, run_decoding
from explorer.llm import (
    CACHE_COLUMNS,
    POSITIONS,
    beyond_view,
    cache_table,
    kv_head_choices,
    memory_rows,
    mistral_window,
    positions_view,
    sharing_view,
    tiling_view,
    window_view,
)
from explorer.pipeline import run_scene
from explorer.settings import Settings
from figures.svg import heatmap_svg, tiles_svg
from mha_core import alibi_slopes, kv_cache_bytes, parameter_count

from .html import md_html, rich_text, table
from .model import Stop

# What each page shows before its own controls are touched (app_pages/decoding.py, sharing.py, positions.py,
# longcontext.py; tests/test_lesson_handout.py checks these against the pages).
DECODE_NEW, DECODE_LAYER = 3, 0  # tokens generated after the sentence; layer 1; the slider at the last step
POS_HEAD, SHIFT = 0, 100
TRAINED, BEYOND_DK = 512, 64
TRAINED_LENGTHS = (64, 128, 256, 512, 1024, 2048, 4096)
WINDOW_LENGTH, WINDOW, WINDOW_LAYERS = 24, 4, 3
BLOCK, TILE_HEAD, TILE = 128, 0, 3
LENGTHS = (1024, 4096, 32768, 131072)
ALIBI_DISTANCES = (1, 10, 100)
MIB = 1024**2


def opening_g(n_heads: int) -> int:
    """The K/V heads the sharing page opens with: the middle of g = h, …, 1 (g = 2 for h = 8)."""
    choices = kv_head_choices(n_heads)
    return choices[len(choices) // 2]


def _caption(text: str) -> str:
    return f"<figcaption>{rich_text(text)}</figcaption>"


def _decoding(s: Settings) -> Decoding:
    return run_decoding(s.text, DECODE_NEW)


def setting_line(stop: Stop, lang: str) -> str | None:
    """The setting line of a stop whose page is not drawn at the setting's sizes (the decoder's page), else None."""
    if stop.page != "decoding":
        return None
    t = i18n.translator(lang)
    run = _decoding(stop.settings)
    c = run.config
    if not run.trained:
        name = t("llm.decode.seeded")
    else:  # the trained decoder's name as its page says it (a catalogue string once it has one)
        name = t("decoder.name") if "decoder.name" in i18n.STRINGS else run.name
    decoder = t("llm.decode.model", name=name, layers=run.n_layers, h=c.n_heads, g=c.kv_heads, dk=c.d_k,
                d=c.d_model)  # fmt: skip
    prompt = sum(not step.generated for step in run.steps)
    return t("handout.llm.decode_setting", sentence=" ".join(run.tokens[:prompt]), L=prompt,
             n=len(run.steps) - prompt, decoder=decoder)  # fmt: skip


def decoding_figure(s: Settings, lang: str) -> str:
    """Every step's new query row (layer 1, the page's last step) and the counted cost of each step."""
    t = i18n.translator(lang)
    run = _decoding(s)
    if not run.steps:
        return ""
    c, last = run.config, len(run.steps) - 1
    groups = [j for j in range(c.kv_heads) for _ in range(c.n_heads // c.kv_heads)]
    labels = [f"{i}:{tok}" for i, tok in enumerate(run.tokens)]
    tiles = tiles_svg(run.weights_until(last, DECODE_LAYER), labels, labels,
                      [t("llm.head_kv", i=i + 1, j=groups[i] + 1) for i in range(c.n_heads)], kind="weights",
                      title=t("handout.llm.decode_weights", layer=DECODE_LAYER + 1), per_row=2,
                      row_title=t("llm.queries"), col_title=t("llm.keys"))  # fmt: skip
    rows = [[s.position + 1, (t("handout.llm.generated", token=s.token) if s.generated else s.token),
             f"{s.flops_cached:,}", f"{s.flops_recompute:,}", f"{s.flops_recompute / s.flops_cached:.1f}×",
             f"{s.cache_bytes:,}"] for s in run.steps]  # fmt: skip
    cost = table(["t", t("handout.llm.col_token"), t("fig.llm.cached"), t("fig.llm.recompute"),
                  t("llm.long.col_ratio"), t("fig.llm.cache_bytes")], rows,
                 t("handout.llm.decode_cost", n=DECODE_NEW))  # fmt: skip
    return tiles + _caption(t("handout.llm.decode_caption")) + cost


def sharing_figure(s: Settings, lang: str) -> str:
    """The maps with g shared K/V heads, the weights for each g, and the KV cache of real models."""
    t = i18n.translator(lang)
    sc = run_scene(s)
    d, h, dk = s.d_model, s.n_heads, s.d_k
    g = opening_g(h)
    view = sharing_view(s, g)
    group = {i: j for j, members in enumerate(view.kv_groups) for i in members}
    tiles = tiles_svg(view.weights, sc.labels, sc.labels, [t("llm.head_kv", i=i + 1, j=group[i] + 1) for i in range(h)],
                      kind="weights", title=t("handout.llm.share_maps", g=g, h=h), per_row=min(h, 4),
                      row_title=t("llm.queries"), col_title=t("llm.keys"))  # fmt: skip
    moved = _caption(t("llm.share.change_caption", top=f"{view.change.max():.3f}", mean=f"{view.change.mean():.3f}"))
    params = table(
        ["g", t("llm.share.col_per_kv"), "$W^K + W^V$", t("llm.share.col_weights"), t("llm.share.col_cache")],
        [[c, h // c, f"{2 * d * c * dk:,}", f"{parameter_count(d, h, False, c).weights:,}",
          f"{kv_cache_bytes(1, c, dk, 1, 4):,}"] for c in kv_head_choices(h)],
        t("llm.share.params_title"),
    )  # fmt: skip
    real = table([t(c) if "." in c else c for c in CACHE_COLUMNS], cache_table(), t("llm.share.real_title"))
    return tiles + moved + params + real


def positions_figure(s: Settings, lang: str) -> str:
    """Head 1 with the three ways to give positions, the sentence moved by s, ALiBi's slopes, RoPE's unseen pairs."""
    t = i18n.translator(lang)
    sc = run_scene(s)
    view = positions_view(s, SHIFT)
    shown = [m for m, name in enumerate(POSITIONS) if name != "rope" or view.rope_ok]
    tiles = tiles_svg(view.weights[shown, POS_HEAD], sc.labels, sc.labels,
                      [t(f"llm.pos.short_{POSITIONS[m]}") for m in shown], kind="weights", per_row=3,
                      title=t("llm.pos.maps_title", head=POS_HEAD + 1), row_title=t("llm.queries"),
                      col_title=t("llm.keys"))  # fmt: skip
    shift = table(
        [t("llm.pos.col_method"), t("llm.pos.col_change"), t("llm.pos.col_why")],
        [[t(f"llm.pos.name_{name}"), "—" if change != change else f"{change:.2g}", t(f"llm.pos.verdict_{name}")]
         for name, change in zip(POSITIONS, view.score_change, strict=True)],
        t("llm.pos.shift_title", s=SHIFT),
    )  # fmt: skip
    slopes = alibi_slopes(s.n_heads).numpy()
    alibi = table(
        [t("llm.head"), "$m_i$", *(t("handout.llm.col_bias", d=d) for d in ALIBI_DISTANCES)],
        [[i + 1, f"{m:.4g}", *(f"{-m * d:.4g}".replace("-", "−") for d in ALIBI_DISTANCES)]
         for i, m in enumerate(slopes)],
        t("llm.pos.alibi_title"),
    )  # fmt: skip
    beyond = beyond_view(BEYOND_DK, TRAINED, s.n_heads)
    text = md_html(t("llm.pos.beyond_text", dk=BEYOND_DK, pairs=BEYOND_DK // 2, unseen=beyond.unseen, L=TRAINED))
    unseen = table(
        [t("llm.pos.trained"), t("handout.llm.col_unseen", pairs=BEYOND_DK // 2)],
        [[f"{n:,}", beyond_view(BEYOND_DK, n, s.n_heads).unseen] for n in TRAINED_LENGTHS],
        t("llm.pos.beyond_title"),
    )  # fmt: skip
    return tiles + shift + alibi + unseen + text


def longcontext_figure(s: Settings, lang: str) -> str:
    """How far stacked windows reach, the L² memory against tiling, and one row's online softmax, block by block."""
    t = i18n.translator(lang)
    sc = run_scene(s)
    wv = window_view(WINDOW_LENGTH, WINDOW, WINDOW_LAYERS)
    last = WINDOW_LENGTH - 1  # the page's last row: the last token, which the reach is about
    within = np.stack([(wv.first_layer[last] <= n).astype(float)
                       for n in range(1, WINDOW_LAYERS + 1)])  # (n_layers, L): 1 where key j reaches the last token
    reach = heatmap_svg(within, [t("handout.llm.within", n=n) for n in range(1, WINDOW_LAYERS + 1)],
                        [str(j) for j in range(WINDOW_LENGTH)], kind="weights", col_title=t("llm.keys"),
                        title=t("handout.llm.reach_title", w=WINDOW, query=last))  # fmt: skip
    reach += _caption(t("handout.llm.reach_caption"))
    reach += md_html(t("llm.long.reach_text", w=WINDOW, n=WINDOW_LAYERS, reach=wv.reach, **mistral_window()))
    memory = table(
        ["L", t("llm.long.col_full"), t("llm.long.col_tiled"), t("llm.long.col_ratio")],
        [[f"{n:,}", f"{full / MIB:,.1f}", f"{tiled / MIB:,.2f}", f"{full / tiled:,.0f}×"]
         for n, full, tiled in memory_rows(LENGTHS, BLOCK, s.n_heads)],
        t("llm.long.memory_title"),
    )  # fmt: skip
    memory += _caption(t("llm.long.memory_caption", h=s.n_heads, b=BLOCK))
    tv = tiling_view(s, TILE_HEAD, TILE)
    row = heatmap_svg(tv.scores[None], [sc.labels[tv.query]], sc.labels,
                      title=t("handout.llm.row_scores", query=sc.labels[tv.query], head=TILE_HEAD + 1))  # fmt: skip
    ends = [*tv.block_starts[1:], len(tv.scores)]
    blocks = table(
        [t("handout.llm.col_block"), t("handout.llm.col_block_max"), t("fig.llm.running_max"),
         t("fig.llm.running_sum")],
        [[f"{sc.labels[a]} … {sc.labels[b - 1]}", f"{np.max(tv.scores[a:b]):.3f}", f"{m:.3f}", f"{lsum:.3f}"]
         for a, b, m, lsum in zip(tv.block_starts, ends, tv.running_max, tv.running_sum, strict=True)],
        t("llm.long.tiling_title"),
    )  # fmt: skip
    text = md_html(t("llm.long.tiling_text", query=sc.labels[tv.query], n=len(tv.block_starts), b=TILE,
                     m=f"{tv.running_max[-1]:.3f}", l=f"{tv.running_sum[-1]:.3f}", gap=f"{tv.gap:.1e}"))  # fmt: skip
    return reach + memory + row + blocks + text


LLM_FIGURES: dict[str, Callable[[Settings, str], str]] = {
    "decoding": decoding_figure, "sharing": sharing_figure, "positions": positions_figure,
    "longcontext": longcontext_figure,
}  # fmt: skip
