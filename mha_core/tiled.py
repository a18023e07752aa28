"""Tiled attention: FlashAttention's online softmax, as a reference function (not a fast path).

softmax(s) v needs the largest score of a row (for a stable exp) and the sum of all its exps before any
weight is known, so plain attention keeps the whole (Lq, Lk) score matrix. Tiled attention reads the keys
in blocks of b and keeps, per query row, only a running max m, a running sum l of exp(s - m) and an output o.
When a block brings a larger max, what was summed so far is rescaled by exp(m_old - m_new):

    m_new = max(m, max_j s_j)        l = exp(m - m_new) l + sum_j exp(s_j - m_new)
    o = exp(m - m_new) o + sum_j exp(s_j - m_new) v_j                     and at the end: output = o / l

Every block size gives softmax attention's output (tests/test_core_llm_oracle.py, against torch's SDPA).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
from torch import Tensor

from .errors import AttentionError


@dataclass(frozen=True)
class TiledAttention:
    """Output and running state of tiled attention; `...` are the leading axes of q (e.g. B, h).

    output          (..., Lq, d_v)             softmax(q k^T scale + mask) v, computed block by block
    block_size      b
    block_starts    (n_blocks,)                first key of each block: 0, b, 2b, ...
    running_max     (n_blocks, ..., Lq)        m after each block: the row's largest score so far
    running_sum     (n_blocks, ..., Lq)        l after each block: sum of exp(score - m) over the keys so far
    partial_output  (n_blocks, ..., Lq, d_v)   o / l after each block: the output if the keys ended there
    A row that has seen no visible key yet has m = -inf, l = 0 and output 0 (all-masked rows stay 0).
    """

    output: Tensor
    block_size: int
    block_starts: tuple[int, ...]
    running_max: Tensor
    running_sum: Tensor
    partial_output: Tensor


def _divide(o: Tensor, l_sum: Tensor) -> Tensor:
    """o / l per row, 0 where l = 0 (no visible key yet)."""
    return torch.where(l_sum.unsqueeze(-1) > 0, o / l_sum.clamp_min(1e-300).unsqueeze(-1), torch.zeros_like(o))


def tiled_attention(
    q: Tensor, k: Tensor, v: Tensor, block_size: int, mask: Tensor | None = None, scale: float | None = None
) -> TiledAttention:
    """Attention of q (..., Lq, d_k) over k (..., Lk, d_k), v (..., Lk, d_v), keys taken b = block_size at a time.

    mask: an additive float mask (0 / -inf, or any finite added value) that broadcasts to (..., Lq, Lk), as
    MultiHeadAttention's; scale defaults to 1 / sqrt(d_k).
    """
    if isinstance(block_size, bool) or not isinstance(block_size, int) or block_size < 1:
        raise AttentionError("bad_block", f"block_size must be a whole number >= 1, got {block_size!r}")
    if q.shape[-1] != k.shape[-1] or k.shape[-2] != v.shape[-2] or k.shape[-2] == 0:
        raise AttentionError(
            "bad_shape", f"q (..., Lq, d_k), k (..., Lk, d_k), v (..., Lk, d_v) with Lk >= 1 expected, got "
            f"{tuple(q.shape)}, {tuple(k.shape)}, {tuple(v.shape)}",
        )  # fmt: skip
    scale = 1.0 / math.sqrt(q.shape[-1]) if scale is None else scale
    lead = torch.broadcast_shapes(q.shape[:-1], k.shape[:-2] + q.shape[-2:-1])  # (..., Lq)
    if mask is not None:
        lead = torch.broadcast_shapes(lead, mask.shape[:-1])
    m = torch.full(lead, float("-inf"), dtype=q.dtype)  # (..., Lq)   running max
    l_sum = torch.zeros(lead, dtype=q.dtype)  # (..., Lq)   running sum of exp(s - m)
    o = torch.zeros(*lead, v.shape[-1], dtype=q.dtype)  # (..., Lq, d_v)   unnormalised output
    starts = tuple(range(0, k.shape[-2], block_size))
    maxes, sums, partial = [], [], []
    for s0 in starts:
        block = slice(s0, s0 + block_size)
        s = (q @ k[..., block, :].transpose(-2, -1)) * scale  # (..., Lq, b)   this block's scores
        if mask is not None:
            s = s + mask[..., block]  # (..., Lq, b)
        m_new = torch.maximum(m, s.amax(dim=-1))  # (..., Lq)
        shift = m_new.masked_fill(torch.isneginf(m_new), 0.0)  # a row with no visible key yet: exp(-inf) = 0
        p = torch.exp(s - shift.unsqueeze(-1))  # (..., Lq, b)
        rescale = torch.exp(m - shift)  # (..., Lq)   what was summed so far, moved to the new max
        l_sum = rescale * l_sum + p.sum(dim=-1)  # (..., Lq)
        o = rescale.unsqueeze(-1) * o + p @ v[..., block, :]  # (..., Lq, d_v)
        m = m_new
        maxes.append(m)
        sums.append(l_sum)
        partial.append(_divide(o, l_sum))
    return TiledAttention(
        _divide(o, l_sum), block_size, starts, torch.stack(maxes), torch.stack(sums), torch.stack(partial)
    )
