"""Demonstrations some pages compute beyond the Scene, from mha_core, so that pages only lay them out: how P P^T
behaves along offsets and the shift property of sinusoidal positional encoding (note 003), the swap-and-compare
demo of order, "more than a weighted average" (note 003), and note 003's column-vector notation (d2l) beside the
app's row convention, with the same numbers."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import torch

from mha_core import MultiHeadAttention, sinusoidal_positional_encoding
from mha_core.order import SwapEffects, swap_effects
from mha_core.positional import shift_matrix, similarity_by_offset
from mha_core.why import weighted_average_gap

from .pipeline import Scene, run_scene
from .settings import Settings


@dataclass(frozen=True)
class PositionalProfile:
    """P P^T along offsets (float64): spread = largest difference between entries at the same distance (0 up to
    rounding for an even d_model), rises = steps of row 0 where a farther position is more similar, of steps."""

    spread: float
    rises: int
    steps: int


@lru_cache(maxsize=32)
def positional_profile(length: int, d_model: int, base: float) -> PositionalProfile:
    with torch.no_grad():
        p = sinusoidal_positional_encoding(length, d_model, base, dtype=torch.float64)
    return PositionalProfile(*similarity_by_offset(p))


@dataclass(frozen=True)
class ShiftCheck:
    """P[pos + k] = P[pos] M_k: the 2 x 2 blocks of M_k for the first pairs (j, block), and the largest error over
    every pos of the page's length and the first 2 floor(d/2) columns (float64)."""

    offset: int
    blocks: tuple[tuple[int, np.ndarray], ...]
    max_error: float
    positions: int


@lru_cache(maxsize=32)
def shift_check(length: int, d_model: int, base: float, offset: int, n_blocks: int = 2) -> ShiftCheck:
    even = 2 * (d_model // 2)
    with torch.no_grad():
        p = sinusoidal_positional_encoding(length + offset, d_model, base, dtype=torch.float64)[:, :even]
        m = shift_matrix(offset, d_model, base)[:even, :even]
        err = float((p[offset:] - p[: length] @ m).abs().max()) if even else 0.0
    blocks = tuple((j, m[2 * j: 2 * j + 2, 2 * j: 2 * j + 2].numpy()) for j in range(min(n_blocks, even // 2)))
    return ShiftCheck(offset, blocks, err, length)


def scene_module(sc: Scene) -> MultiHeadAttention:
    """The Scene's layer as a module (its weights and biases), to run it on other inputs."""
    t = [torch.tensor(np.array(a)) for a in (sc.w_q, sc.w_k, sc.w_v, sc.w_o)]
    biases: list[torch.Tensor | None] = [None] * 4
    if sc.in_proj_bias is not None:
        b, d = torch.tensor(np.array(sc.in_proj_bias)), sc.d_model
        biases = [b[:d], b[d:2 * d], b[2 * d:], torch.tensor(np.array(sc.out_proj_bias))]
    return MultiHeadAttention.from_weights(sc.n_heads, *t, *biases, scale=sc.settings.scale)


@lru_cache(maxsize=16)
def order_demo(s: Settings, a: int, b: int) -> SwapEffects:
    """Tokens a and b of the (query) sentence swapped, in the Scene's layer: without positions, with X + P, with a
    causal mask (mha_core.order.swap_effects)."""
    sc = run_scene(s)
    return swap_effects(scene_module(sc), torch.tensor(np.array(sc.x)), torch.tensor(np.array(sc.p)), a, b)


@dataclass(frozen=True)
class AverageCheck:
    """Is an output row a weighted average of the rows u_j = x_j W^V W^O? gap_heads: the distance of each output
    row of the Scene's layer (h heads) from every weighted average of them; gap_one: the same weights run as one
    head (h = 1), where the row is one; scale: the largest |output|; fills: the rows' affine hull fills d_model
    (L_k > d_model), so no distance can be above 0."""

    gap_heads: np.ndarray  # (Lq,)
    gap_one: np.ndarray  # (Lq,)
    scale: float
    fills: bool


@lru_cache(maxsize=16)
def average_check(s: Settings) -> AverageCheck:
    sc = run_scene(s)
    mha = scene_module(sc)
    one = MultiHeadAttention.from_weights(1, mha.w_q.detach(), mha.w_k.detach(), mha.w_v.detach(),
                                          mha.w_o.detach(), scale=s.scale)  # fmt: skip
    x, kv = torch.tensor(np.array(sc.x_in)), torch.tensor(np.array(sc.x_kv_in))
    with torch.no_grad():
        rows = (kv @ mha.w_v @ mha.w_o).double().numpy()  # (Lk, d_model): u_j = x_j W^V W^O
        out_one = one(x, key=kv if s.cross else None, attn_mask=torch.tensor(np.array(sc.mask[0])) if sc.mask.any()
                      else None).concat @ mha.w_o  # fmt: skip
    head_out = np.asarray(sc.concat, dtype=np.float64) @ np.asarray(sc.w_o, dtype=np.float64)  # bias left out
    return AverageCheck(weighted_average_gap(rows, head_out), weighted_average_gap(rows, out_one.double().numpy()),
                        float(np.abs(head_out).max()), sc.len_k > sc.d_model)  # fmt: skip


@dataclass(frozen=True)
class ColumnView:
    """Note 003 (d2l) writes h_i = f(W_i^(q) q, ...) with column vectors; the app writes rows, Q_i = X W_i^Q. For
    one token x_t and head i: d2l = W_i^(q) q with W_i^(q) = (W_i^Q)^T (d_k x d_model) and q = x_t^T (a column);
    app = row t of X W_i^Q. gap: largest |d2l - app^T|."""

    w_d2l: np.ndarray  # (d_k, d_model)
    q_col: np.ndarray  # (d_model, 1)
    d2l: np.ndarray  # (d_k, 1)
    app: np.ndarray  # (1, d_k)
    gap: float


def column_view(sc: Scene, head: int, token: int) -> ColumnView:
    w = np.asarray(sc.w_q_heads[head], dtype=np.float64)  # (d_model, d_k): W_i^Q of the app
    x = np.asarray(sc.x_in[token], dtype=np.float64)  # (d_model,)
    w_d2l, q_col = w.T, x[:, None]
    d2l = w_d2l @ q_col
    app = np.asarray(sc.q[head, token], dtype=np.float64)[None, :] - (0 if sc.in_proj_bias is None else
                                                                         sc.qk_biases(head)[0][None, :])  # fmt: skip
    return ColumnView(w_d2l, q_col, d2l, app, float(np.abs(d2l - app.T).max()))
