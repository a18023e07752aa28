"""Numbers the notes reason with: parameter counts, operation counts, entropy, head similarity."""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import Tensor

from .config import validate_sizes
from .errors import AttentionError


@dataclass(frozen=True)
class ParameterCount:
    """Parameters of one layer, by matrix. The total 4 d_model^2 (+ 4 d_model biases) does not depend on h."""

    w_q: int
    w_k: int
    w_v: int
    w_o: int
    biases: int

    @property
    def weights(self) -> int:
        return self.w_q + self.w_k + self.w_v + self.w_o

    @property
    def total(self) -> int:
        return self.weights + self.biases


def parameter_count(d_model: int, n_heads: int, bias: bool = True, n_kv_heads: int | None = None) -> ParameterCount:
    """h heads of W_i^Q (d_model x d_k) each: h * d_model * d_k = d_model^2 per projection.

    With g = n_kv_heads K/V heads shared by the query heads, W^K and W^V hold d_model * g * d_k each:
    2 d^2 + 2 d g d_k weights in all (g = h: 4 d^2).
    """
    validate_sizes(d_model, n_heads)
    g = n_heads if n_kv_heads is None else n_kv_heads
    if isinstance(g, bool) or not isinstance(g, int) or g < 1 or n_heads % g:
        raise AttentionError("bad_kv_heads", f"n_kv_heads must divide n_heads={n_heads}, got {g!r}", value=g)
    d_k = d_model // n_heads
    per_projection = n_heads * d_model * d_k
    return ParameterCount(
        w_q=per_projection,
        w_k=g * d_model * d_k,
        w_v=g * d_model * d_k,
        w_o=(n_heads * d_k) * d_model,
        biases=(2 * d_model + 2 * g * d_k) if bias else 0,
    )


@dataclass(frozen=True)
class StepCost:
    """Scalar operations of one step: multiplications, additions, and other (exp, division)."""

    step: str
    mults: int
    adds: int
    other: int = 0


def operation_counts(
    len_q: int, d_model: int, n_heads: int, len_k: int | None = None, bias: bool = False, scale: bool = True
) -> list[StepCost]:
    """Scalar operations of each step of one forward pass (one sequence, batch 1).

    A dot product of length n costs n multiplications and n - 1 additions (note 000): QK^T costs
    Lq * Lk * d_k multiplications per head, i.e. Lq * Lk * d_model over all heads.
    """
    validate_sizes(d_model, n_heads)
    for name, value in (("len_q", len_q), ("len_k", len_k)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            raise AttentionError(
                "not_positive", f"{name} must be a whole number >= 1, got {value!r}", name=name, value=value
            )
    lk = len_q if len_k is None else len_k
    lq, d, h = len_q, d_model, n_heads
    d_k = d // h
    b = 1 if bias else 0

    def proj(rows: int) -> tuple[int, int]:  # (rows x d) @ (d x d) (+ bias)
        return rows * d * d, rows * d * (d - 1) + b * rows * d

    steps = [
        StepCost("q_proj", *proj(lq)),
        StepCost("k_proj", *proj(lk)),
        StepCost("v_proj", *proj(lk)),
        StepCost("qk", h * lq * lk * d_k, h * lq * lk * (d_k - 1)),
        StepCost("scale", h * lq * lk if scale else 0, 0),
        # softmax per row: Lk exponentials, Lk - 1 additions, Lk divisions
        StepCost("softmax", 0, h * lq * (lk - 1), other=2 * h * lq * lk),
        StepCost("weights_v", h * lq * lk * d_k, h * lq * (lk - 1) * d_k),
        StepCost("out_proj", *proj(lq)),
    ]
    return steps


def softmax_entropy(weights: Tensor) -> Tensor:
    """Shannon entropy (nats) of each row of attention weights: (..., Lq, Lk) -> (..., Lq); 0 log 0 = 0."""
    w = weights.to(torch.float64)
    terms = torch.where(w > 0, w * torch.log(w.clamp_min(1e-300)), torch.zeros_like(w))
    return (-terms.sum(dim=-1)).to(weights.dtype)


def head_similarity(head_outputs: Tensor) -> Tensor:
    """rho_ij = <head_i, head_j> / (|head_i| |head_j|) over the flattened (L, d_k) outputs (note 004).

    head_outputs (h, L, d_k) or (B, h, L, d_k) -> (h, h) or (B, h, h). A head whose output is all zeros
    has similarity 0 with every head (and 0 with itself).
    """
    flat = head_outputs.flatten(start_dim=-2).to(torch.float64)  # (..., h, L*d_k)
    norms = flat.norm(dim=-1, keepdim=True)
    unit = torch.where(norms > 0, flat / norms.clamp_min(1e-300), torch.zeros_like(flat))
    return (unit @ unit.transpose(-2, -1)).to(head_outputs.dtype)


def contribution_similarity(head_outputs: Tensor, w_o_heads: Tensor) -> Tensor:
    """Cosine similarity of the heads' contributions head_i W^O_i, flattened over (L, d_model).

    head_outputs (h, L, d_k) or (B, h, L, d_k), w_o_heads (h, d_k, d_model) -> (h, h) or (B, h, h).
    Unlike rho_ij (head_similarity), it does not change when a head's value space is rotated
    (W_i^V -> W_i^V R, W^O_i -> R^T W^O_i, R orthogonal), because head_i W^O_i itself does not change:
    it compares what the heads add to the layer's output, in the one d_model space they share.
    """
    contrib = head_outputs.to(torch.float64) @ w_o_heads.to(torch.float64)  # (..., h, L, d_model)
    return head_similarity(contrib).to(head_outputs.dtype)


def score_rank(scores: Tensor, rtol: float = 1e-6) -> Tensor:
    """Numerical rank of each head's score matrix: (..., h, Lq, Lk) -> (..., h). At most d_k (note 004's
    h vs d_k trade-off): S_i = Q_i K_i^T with Q_i (Lq, d_k), K_i (Lk, d_k)."""
    return torch.linalg.matrix_rank(scores.to(torch.float64), rtol=rtol)


def mean_attention_distance(weights: Tensor, key_offset: int = 0) -> Tensor:
    """How far each head looks: sum_j A_ij |i - j| averaged over the queries i, in positions (a local head scores
    near 1, a head that spreads its weight evenly over L keys scores about L/3).
    weights (..., Lq, Lk) -> (...). key_offset: the position of key 0 relative to query 0 (0 in self-attention)."""
    w = weights.to(torch.float64)
    len_q, len_k = w.shape[-2:]
    i = torch.arange(len_q, dtype=torch.float64).unsqueeze(1)
    j = torch.arange(len_k, dtype=torch.float64).unsqueeze(0) + key_offset
    return (w * (i - j).abs()).sum(dim=-1).mean(dim=-1)
