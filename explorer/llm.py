"""Numbers of the pages "Heads that share keys and values", "Where positions go" and "Long context": computed with
mha_core from the sidebar's Settings (the same sentence and layer as the other pages) and each page's own controls,
cached by bytes. Pages only lay these out; every claim they make about them is tested in tests/test_llm_pages_math.py.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from budget import ByteLRU, array_bytes, memoize
from mha_core import (
    MultiHeadAttention,
    ParameterCount,
    alibi_slopes,
    causal_mask,
    kv_cache_bytes,
    mean_pool_kv,
    parameter_count,
    rope_angles,
    score_memory,
    sinusoidal_positional_encoding,
    tiled_attention,
    wavelengths,
    window_reach,
    window_receptive_field,
)

from .models import LLM_MODELS, DecoderSize
from .pipeline import Scene, run_scene
from .settings import Settings

# One cache per function: a cache is keyed by the arguments alone, and (settings, 2) means something else to each.
SHARING_CACHE = ByteLRU("llm_sharing", 8 << 20)
POSITIONS_CACHE = ByteLRU("llm_positions", 8 << 20)
WINDOW_CACHE = ByteLRU("llm_window", 4 << 20)
TILING_CACHE = ByteLRU("llm_tiling", 4 << 20)
POSITIONS = ("sinusoidal", "rope", "alibi")  # where the positions go: added to X, turned into Q and K, added to scores


def _sized(value: object) -> int:
    return array_bytes(tuple(v for v in vars(value).values() if isinstance(v, np.ndarray))) + 4000


def scene_layer(scene: Scene, **options: object) -> MultiHeadAttention:
    """The sidebar's layer (its W^Q, W^K, W^V, W^O and biases) as a module, with today's options (rope, alibi)."""
    t = [torch.from_numpy(np.array(w)) for w in (scene.w_q, scene.w_k, scene.w_v, scene.w_o)]
    d = scene.d_model
    biases: list[torch.Tensor | None] = [None] * 4
    if scene.in_proj_bias is not None:
        b = torch.from_numpy(np.array(scene.in_proj_bias))
        biases = [b[:d], b[d : 2 * d], b[2 * d :], torch.from_numpy(np.array(scene.out_proj_bias))]
    return MultiHeadAttention.from_weights(scene.n_heads, *t, *biases, scale=scene.settings.scale, **options)


def kv_head_choices(n_heads: int) -> list[int]:
    """g from h down to 1: the divisors of h (each K/V head shared by h / g query heads)."""
    return [g for g in range(n_heads, 0, -1) if n_heads % g == 0]


# ----- heads that share keys and values ------------------------------------------------------------------
@dataclass(frozen=True)
class SharingView:
    """The sidebar's layer as multi-head (g = h) and with g shared K/V heads (each group's W^K, W^V averaged:
    mha_core.mean_pool_kv), both causal on the sentence. weights (h, L, L); change (h,): mean |A_g - A_h| over the
    visible cells of each query head; params of one layer with g and with g = h."""

    n_kv_heads: int
    kv_groups: tuple[tuple[int, ...], ...]
    weights_mha: np.ndarray
    weights: np.ndarray
    change: np.ndarray
    params: ParameterCount
    params_mha: ParameterCount


@memoize(SHARING_CACHE, _sized)
def sharing_view(settings: Settings, n_kv_heads: int) -> SharingView:
    scene = run_scene(settings)
    mha = scene_layer(scene)
    shared = mean_pool_kv(mha, n_kv_heads)
    x = torch.from_numpy(np.array(scene.x_in))
    with torch.no_grad():
        a, b = mha(x, causal=True), shared(x, causal=True)
    visible = ~a.mask  # (h, L, L)
    change = ((b.weights - a.weights).abs() * visible).sum((-2, -1)) / visible.sum((-2, -1))
    d, h, bias = scene.d_model, scene.n_heads, scene.in_proj_bias is not None
    return SharingView(
        n_kv_heads, b.kv_groups, a.weights.numpy(), b.weights.numpy(), change.numpy(),
        parameter_count(d, h, bias, n_kv_heads), parameter_count(d, h, bias),
    )  # fmt: skip


@dataclass(frozen=True)
class CacheRow:
    """One model's KV cache in 16-bit numbers: per token, at its context length (the last w tokens only with a sliding
    window of w: `model.cached_tokens`), and the same if every head kept its own K/V."""

    model: DecoderSize
    per_token: int
    at_context: int
    without_sharing: int

    @property
    def saving(self) -> float:
        """h / g: how many times smaller sharing makes the cache."""
        return self.without_sharing / self.at_context


def cache_rows(models: tuple[DecoderSize, ...] = LLM_MODELS, bytes_per_number: int = 2) -> list[CacheRow]:
    rows = []
    for m in models:
        per_token = kv_cache_bytes(1, m.n_kv_heads, m.d_k, m.layers, bytes_per_number)
        at = kv_cache_bytes(m.cached_tokens, m.n_kv_heads, m.d_k, m.layers, bytes_per_number)
        without = kv_cache_bytes(m.cached_tokens, m.n_heads, m.d_k, m.layers, bytes_per_number)
        rows.append(CacheRow(m, per_token, at, without))
    return rows


GIB = 1024**3
# The columns of the table "The KV cache of real models" (the sharing page and the handout): catalogue keys, or a
# symbol shown as it is.
CACHE_COLUMNS = ("llm.share.col_model", "llm.col_layers", "h", "g", "$d_k$", "llm.share.col_kib_token",
                 "llm.share.col_context", "llm.share.col_cached", "llm.share.col_gib", "llm.share.col_gib_mha",
                 "llm.col_source")  # fmt: skip


def cache_table(rows: list[CacheRow] | None = None) -> list[list[str]]:
    """cache_rows() as the table shows them, one list of texts per model in the order of CACHE_COLUMNS."""
    return [[r.model.name, str(r.model.layers), str(r.model.n_heads), str(r.model.n_kv_heads), str(r.model.d_k),
             f"{r.per_token / 1024:,.0f}", f"{r.model.context:,}", f"{r.model.cached_tokens:,}",
             f"{r.at_context / GIB:,.2f}", f"{r.without_sharing / GIB:,.2f}", r.model.source]
            for r in (cache_rows() if rows is None else rows)]  # fmt: skip


def mistral_window() -> dict[str, str]:
    """Mistral-7B's sliding window as the long-context texts state it: the window w, the w - 1 tokens before a token,
    its layers, and how far its stacked windows reach (window_reach), from LLM_MODELS."""
    m = next(m for m in LLM_MODELS if m.name.startswith("Mistral"))
    assert m.window is not None
    return {"mw": f"{m.window:,}", "before": f"{m.window - 1:,}", "ml": str(m.layers),
            "mistral": f"{window_reach(m.window, m.layers):,}"}  # fmt: skip


# ----- where positions go ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class PositionsView:
    """One sentence, three ways to give it positions, all causal with the sidebar's weights: "sinusoidal" (P added
    to X), "rope" (Q and K turned by position), "alibi" (-m_i (i - j) added to the scores). weights and
    shifted (3, h, L, L): at positions 0..L-1 and at shift..shift+L-1; score_change (3,): max |change of the scores|
    when the sentence moves (NaN for rope when d_k is odd: rope needs pairs). slopes (h,): ALiBi's m_i."""

    shift: int
    weights: np.ndarray
    shifted: np.ndarray
    score_change: np.ndarray
    slopes: np.ndarray
    rope_ok: bool


@memoize(POSITIONS_CACHE, _sized)
def positions_view(settings: Settings, shift: int) -> PositionsView:
    scene = run_scene(settings)
    x = torch.from_numpy(np.array(scene.x))  # the embeddings, without the sinusoidal P
    length, d, rope_ok = x.shape[0], scene.d_model, scene.d_k % 2 == 0
    p = sinusoidal_positional_encoding(shift + length, d)  # (shift + L, d)
    runs = {
        "sinusoidal": lambda start: scene_layer(scene)(x + p[start : start + length], causal=True),
        "rope": lambda start: scene_layer(scene, rope=True)(x, causal=True, start=start) if rope_ok else None,
        "alibi": lambda start: scene_layer(scene, alibi=True)(x, causal=True, start=start),
    }
    weights, shifted, change = [], [], []
    with torch.no_grad():
        for name in POSITIONS:
            at_zero, moved = runs[name](0), runs[name](shift)
            if at_zero is None:
                nan = np.full((scene.n_heads, length, length), np.nan)
                weights.append(nan)
                shifted.append(nan)
                change.append(np.nan)
                continue
            weights.append(at_zero.weights.numpy())
            shifted.append(moved.weights.numpy())
            visible = ~at_zero.mask
            change.append(float((moved.scores - at_zero.scores).abs()[visible].max()))
    slopes = alibi_slopes(scene.n_heads).numpy()
    return PositionsView(shift, np.stack(weights), np.stack(shifted), np.array(change), slopes, rope_ok)


@dataclass(frozen=True)
class BeyondView:
    """RoPE beyond the trained length: each coordinate pair j turns once every wavelength 2 pi base^(2j/d_k)
    positions; `unseen` pairs never completed a turn within the trained length (last_angle < 2 pi), so positions
    beyond it bring them angles training never showed. ALiBi: the penalty -m_i d keeps one straight line."""

    d_k: int
    trained: int
    wavelengths: np.ndarray  # (d_k/2,)
    last_angle: np.ndarray  # (d_k/2,) angle of each pair at position trained - 1
    slopes: np.ndarray  # (h,)

    @property
    def never_turned(self) -> np.ndarray:
        """(d_k/2,) bool: the pairs that never completed a full turn within the trained length."""
        return self.last_angle < 2 * np.pi

    @property
    def unseen(self) -> int:
        return int(self.never_turned.sum())


def beyond_view(d_k: int, trained: int, n_heads: int, base: float = 10000.0) -> BeyondView:
    waves = wavelengths(d_k, base).numpy()
    last = rope_angles(torch.tensor([trained - 1]), d_k, base)[0].numpy()
    return BeyondView(d_k, trained, waves, last, alibi_slopes(n_heads).numpy())


# ----- long context -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class WindowView:
    """A causal sliding window of w keys over L positions, stacked n_layers deep. first_layer (L, L): the first
    layer through which key j reaches query i (1..n_layers), NaN where it does not within n_layers."""

    window: int
    n_layers: int
    first_layer: np.ndarray
    reach: int  # positions back the last token reaches: n (w - 1)

    @property
    def visible(self) -> np.ndarray:
        """(L, L) bool: one layer's mask (key j in query i's window)."""
        return self.first_layer == 1


@memoize(WINDOW_CACHE, _sized)
def window_view(length: int, window: int, n_layers: int) -> WindowView:
    field = window_receptive_field(length, window, n_layers).numpy()  # (n, L, L)
    reached = field.any(axis=0)
    first = np.where(reached, field.argmax(axis=0) + 1.0, np.nan)
    return WindowView(window, n_layers, first, window_reach(window, n_layers))


@dataclass(frozen=True)
class TilingView:
    """One query row of one head (causal), its keys read in blocks of b by tiled attention (online softmax):
    scores (Lk,) with -inf on masked keys; running_max, running_sum (n_blocks,) after each block; block_starts;
    gap: max |tiled - softmax attention| over every row of the head (rounding only)."""

    head: int
    query: int
    block: int
    scores: np.ndarray
    block_starts: tuple[int, ...]
    running_max: np.ndarray
    running_sum: np.ndarray
    gap: float


@memoize(TILING_CACHE, _sized)
def tiling_view(settings: Settings, head: int, block: int) -> TilingView:
    scene = run_scene(settings)
    q, k, v = (torch.from_numpy(np.array(a[head])).double() for a in (scene.q, scene.k, scene.v))
    mask = causal_mask(q.shape[0], k.shape[0], torch.float64)
    scale = scene.scale_factor
    tiled = tiled_attention(q, k, v, block, mask=mask, scale=scale)
    plain = torch.softmax((q @ k.T) * scale + mask, -1) @ v
    query = q.shape[0] - 1  # the last token: it sees every key
    row = ((q[query] @ k.T) * scale + mask[query]).numpy()
    return TilingView(head, query, block, row, tiled.block_starts, tiled.running_max[:, query].numpy(),
                      tiled.running_sum[:, query].numpy(), float((tiled.output - plain).abs().max()))  # fmt: skip


def memory_rows(lengths: tuple[int, ...], block: int, n_heads: int) -> list[tuple[int, int, int]]:
    """(L, bytes of the h score matrices of one layer in float32, bytes tiling keeps instead)."""
    out = []
    for length in lengths:
        m = score_memory(length, length, block, 4)
        out.append((length, n_heads * m.full, n_heads * m.tiled))
    return out
