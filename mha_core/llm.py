"""Numbers of today's decoders, counted: KV cache bytes, the cost of one decoding step with and without the
cache, how far stacked sliding windows reach, and the memory of the score matrix against tiling; and
mean_pool_kv, the grouped-query paper's way from a multi-head layer to one with g shared K/V heads.

Each count is checked in tests against the thing itself (tests/test_core_llm_counts.py): bytes against a
filled KVCache, FLOPs against torch's FlopCounterMode on a real forward, reach against the masks composed.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import Tensor

from .attention import MultiHeadAttention, causal_mask
from .config import validate_sizes
from .errors import AttentionError


def _whole(**values: int) -> None:
    for name, value in values.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise AttentionError("not_positive", f"{name} must be a whole number >= 1, got {value!r}", name=name)


def _kv_heads(n_heads: int, n_kv_heads: int | None) -> int:
    g = n_heads if n_kv_heads is None else n_kv_heads
    _whole(n_kv_heads=g)
    if n_heads % g:
        raise AttentionError("bad_kv_heads", f"n_kv_heads must divide n_heads={n_heads}, got {g}", value=g)
    return g


def kv_cache_bytes(
    length: int, n_kv_heads: int, d_k: int, n_layers: int = 1, bytes_per_number: int = 2, batch: int = 1
) -> int:
    """Memory of a KV cache: 2 (K and V) x layers x g x d_k x L x bytes per number (x batch).

    bytes_per_number: 2 for the 16-bit numbers models are served in, 4 for float32."""
    _whole(length=length, n_kv_heads=n_kv_heads, d_k=d_k, n_layers=n_layers, bytes_per_number=bytes_per_number,
           batch=batch)  # fmt: skip
    return 2 * n_layers * n_kv_heads * d_k * length * bytes_per_number * batch


@dataclass(frozen=True)
class StepFlops:
    """Matrix-multiply FLOPs (2 per multiply-add, as torch's FlopCounterMode counts) of one attention layer
    producing token t: the projections (X W^Q, X W^K, X W^V, Concat W^O) and the attention (Q K^T, A V)."""

    projections: int
    attention: int

    @property
    def total(self) -> int:
        return self.projections + self.attention


def decode_step_flops(
    t: int, d_model: int, n_heads: int, n_kv_heads: int | None = None, cached: bool = True
) -> StepFlops:
    """FLOPs of one layer to produce the output of token t (t = 1, 2, ...) when decoding one token at a time.

    cached=True: project the new token only and attend its one query over the t cached keys.
    cached=False: run the whole forward again over all t tokens (every query against every key, then the
    causal mask), as a decoder without a cache does: the work grows with t^2 instead of t.
    """
    validate_sizes(d_model, n_heads)
    _whole(t=t)
    g, d_k = _kv_heads(n_heads, n_kv_heads), d_model // n_heads
    rows = 1 if cached else t  # tokens projected and queries scored in this step
    projections = 2 * rows * (d_model * d_model + 2 * d_model * g * d_k + d_model * d_model)
    attention = 2 * 2 * n_heads * rows * t * d_k  # Q K^T and A V: rows x t per head, d_k deep
    return StepFlops(projections, attention)


def window_reach(window: int, n_layers: int) -> int:
    """How many positions back a token's output can draw from after n_layers sliding-window layers of w keys:
    each layer reaches w - 1 back, and a layer reads what the layer below gathered: n (w - 1)."""
    _whole(window=window, n_layers=n_layers)
    return n_layers * (window - 1)


@dataclass(frozen=True)
class ScoreMemory:
    """Bytes attention keeps for one head at a time: the full (Lq, Lk) score matrix, against tiling's one
    (Lq, b) block of scores plus a running max and sum per row (the output o is needed by both)."""

    full: int
    tiled: int


def score_memory(len_q: int, len_k: int, block_size: int, bytes_per_number: int = 4) -> ScoreMemory:
    """Score memory per head: Lq Lk numbers against Lq b + 2 Lq (block scores, running max, running sum)."""
    _whole(len_q=len_q, len_k=len_k, block_size=block_size, bytes_per_number=bytes_per_number)
    b = min(block_size, len_k)
    return ScoreMemory(len_q * len_k * bytes_per_number, (len_q * b + 2 * len_q) * bytes_per_number)


def window_receptive_field(length: int, window: int, n_layers: int) -> Tensor:
    """(n_layers, L, L) bool: entry [n - 1, i, j] is True when token j can reach the output of token i through n
    stacked sliding-window layers of w keys (each layer's visibility matrix multiplied with the one below)."""
    _whole(length=length, window=window, n_layers=n_layers)
    visible = (~torch.isneginf(causal_mask(length, window=window))).to(torch.float64)  # (L, L): j in i's window
    reach, out = torch.eye(length, dtype=torch.float64), []
    for _ in range(n_layers):
        reach = ((visible @ reach) > 0).to(torch.float64)  # (L, L): through one more layer
        out.append(reach > 0)
    return torch.stack(out)  # (n_layers, L, L)


def mean_pool_kv(mha: MultiHeadAttention, n_kv_heads: int) -> MultiHeadAttention:
    """The same layer with g K/V heads: each group's W^K_i, W^V_i (and biases) averaged, as the grouped-query paper
    turns a multi-head checkpoint into a grouped one (Ainslie et al. 2023, mean pooling). W^Q and W^O are kept."""
    h, d_k = mha.n_heads, mha.d_k
    if mha.n_kv_heads != h:
        raise AttentionError("unsupported", "mean_pool_kv starts from a layer whose every head has its own K and V")
    _kv_heads(h, n_kv_heads)

    def pool(w: Tensor) -> Tensor:  # (..., h d_k) -> (..., g d_k): head blocks averaged within each group
        return w.unflatten(-1, (n_kv_heads, h // n_kv_heads, d_k)).mean(dim=-2).flatten(-2)

    with torch.no_grad():
        b_k, b_v = (None, None) if mha.b_k is None else (pool(mha.b_k), pool(mha.b_v))
        return MultiHeadAttention.from_weights(
            h, mha.w_q, pool(mha.w_k), pool(mha.w_v), mha.w_o, mha.b_q, b_k, b_v, mha.b_o,
            scale=mha.config.scale, rope=mha.config.rope, rope_base=mha.config.rope_base, alibi=mha.config.alibi,
        )  # fmt: skip
