"""The arguments of the notes as computations: why scale by 1/sqrt(d_k), how cost grows with L, how the heads
add up through W^O, residual + LayerNorm, and additive attention as the other scoring function (note 003)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import torch
from torch import Tensor

from .analysis import operation_counts, softmax_entropy
from .attention import MultiHeadAttention
from .config import AttentionConfig


@dataclass(frozen=True)
class ScalingResult:
    """For each d_k: statistics over many random rows q.k_j (q, k with independent N(0, 1) entries).

    spread: standard deviation of the raw dot products (grows like sqrt(d_k)); the rest, with and without the
    1/sqrt(d_k) factor: mean softmax entropy per row (nats; uniform = log n_keys), mean largest weight,
    mean Frobenius norm of the softmax Jacobian d softmax / d scores (near 0 = saturated, no gradient)."""

    d_ks: tuple[int, ...]
    n_keys: int
    spread: np.ndarray
    entropy_scaled: np.ndarray
    entropy_raw: np.ndarray
    max_weight_scaled: np.ndarray
    max_weight_raw: np.ndarray
    grad_scaled: np.ndarray
    grad_raw: np.ndarray


def softmax_jacobian_norm(scores: Tensor) -> Tensor:
    """Frobenius norm of J = diag(p) - p p^T, p = softmax(row), for each row of scores (..., n) -> (...)."""
    p = torch.softmax(scores.to(torch.float64), dim=-1)
    jac = torch.diag_embed(p) - p.unsqueeze(-1) * p.unsqueeze(-2)
    return torch.linalg.matrix_norm(jac).to(scores.dtype)


def scaling_experiment(d_ks: Sequence[int], n_keys: int = 16, n_rows: int = 512, seed: int = 0) -> ScalingResult:
    """Random queries and keys at each d_k: how the raw dot products spread and the softmax saturates."""
    gen = torch.Generator().manual_seed(seed)
    cols: dict[str, list[float]] = {k: [] for k in ("spread", "es", "er", "ms", "mr", "gs", "gr")}
    for d_k in d_ks:
        q = torch.randn(n_rows, 1, d_k, generator=gen, dtype=torch.float64)
        k = torch.randn(n_rows, n_keys, d_k, generator=gen, dtype=torch.float64)
        raw = (q * k).sum(-1)  # (n_rows, n_keys)
        scaled = raw / math.sqrt(d_k)
        cols["spread"].append(float(raw.std()))
        for tag, s in (("s", scaled), ("r", raw)):
            w = torch.softmax(s, dim=-1)
            cols["e" + tag].append(float(softmax_entropy(w).mean()))
            cols["m" + tag].append(float(w.max(dim=-1).values.mean()))
            cols["g" + tag].append(float(softmax_jacobian_norm(s).mean()))
    a = {k: np.array(v) for k, v in cols.items()}
    return ScalingResult(tuple(int(d) for d in d_ks), n_keys, a["spread"], a["es"], a["er"], a["ms"], a["mr"],
                         a["gs"], a["gr"])  # fmt: skip


def cost_curve(lengths: Sequence[int], d_model: int, n_heads: int) -> tuple[np.ndarray, np.ndarray]:
    """Multiplications of one forward pass at each length L: (the L^2 part: Q K^T, scaling and A V; the part
    linear in L: the four projections), from operation_counts."""
    quad, lin = [], []
    for length in lengths:
        steps = {s.step: s for s in operation_counts(int(length), d_model, n_heads)}
        quad.append(sum(steps[k].mults for k in ("qk", "scale", "weights_v")))
        lin.append(sum(steps[k].mults for k in ("q_proj", "k_proj", "v_proj", "out_proj")))
    return np.array(quad, dtype=float), np.array(lin, dtype=float)


def score_bytes(len_q: int, len_k: int, n_heads: int, bytes_per_value: int = 4) -> int:
    """Memory of ONE h x Lq x Lk tensor (scores, masked scores or weights) in float32."""
    return n_heads * len_q * len_k * bytes_per_value



def median_seconds(call: Callable[[], object], reps: int) -> float:
    """Median wall time of `call()` over `reps` calls, after one warm-up call."""
    call()
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        call()
        times.append(time.perf_counter() - t0)
    return float(np.median(times))

def time_forward(
    lengths: Sequence[int], d_model: int, n_heads: int, reps: int = 3, seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> np.ndarray:
    """Measured seconds of one full-trace forward pass at each length (median of reps), on random input."""
    mha = MultiHeadAttention(AttentionConfig(d_model=d_model, n_heads=n_heads, seed=seed))
    gen = torch.Generator().manual_seed(seed)
    out = []
    with torch.no_grad():
        for i, length in enumerate(lengths):
            x = torch.randn(int(length), d_model, generator=gen)
            out.append(median_seconds(lambda x=x: mha(x), reps))
            if progress is not None:
                progress(i + 1, len(lengths))
    return np.array(out)


def head_contributions(head_outputs: np.ndarray, w_o_heads: np.ndarray) -> np.ndarray:
    """head_i W^O_i for each head: (h, L, d_k) x (h, d_k, d_model) -> (h, L, d_model). Their sum (+ b^O) is
    concat(head_1..head_h) W^O: W^O split by rows into h blocks of d_k rows."""
    return np.einsum("hld,hde->hle", head_outputs, w_o_heads)


def residual_layer_norm(x: np.ndarray, attention_output: np.ndarray, eps: float = 1e-5) -> np.ndarray:
    """LayerNorm(X + MultiHead(X)) per row (note 001), without learned gain and bias (gamma = 1, beta = 0)."""
    y = np.asarray(x, dtype=np.float64) + np.asarray(attention_output, dtype=np.float64)
    mean = y.mean(axis=-1, keepdims=True)
    var = y.var(axis=-1, keepdims=True)
    return (y - mean) / np.sqrt(var + eps)


@dataclass(frozen=True)
class AdditiveAttention:
    """Additive (Bahdanau) scores e_ij = w_v . tanh(q_i W_q + k_j W_k), weights softmax_j(e_ij), output A V."""

    scores: np.ndarray  # (Lq, Lk)
    weights: np.ndarray  # (Lq, Lk)
    output: np.ndarray  # (Lq, d_v)


def additive_attention(q: np.ndarray, k: np.ndarray, v: np.ndarray, hidden: int = 16, seed: int = 0,
                       mask: np.ndarray | None = None) -> AdditiveAttention:  # fmt: skip
    """Additive attention on the same q (Lq, d), k (Lk, d), v (Lk, d_v), with seeded W_q, W_k (d, hidden) and
    w_v (hidden,) (Xavier-like scale). mask (Lq, Lk) True = may not attend; a fully masked row gets weights 0."""
    rng = np.random.default_rng(seed)
    d = q.shape[-1]
    w_q = rng.normal(size=(d, hidden)) / math.sqrt(d)
    w_k = rng.normal(size=(d, hidden)) / math.sqrt(d)
    w_v = rng.normal(size=hidden) / math.sqrt(hidden)
    feats = np.tanh((q @ w_q)[:, None, :] + (k @ w_k)[None, :, :])  # (Lq, Lk, hidden)
    scores = feats @ w_v
    masked = scores if mask is None else np.where(mask, -np.inf, scores)
    top = np.max(masked, axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    e = np.exp(masked - top)
    total = e.sum(axis=-1, keepdims=True)
    weights = np.divide(e, total, out=np.zeros_like(e), where=total > 0)
    return AdditiveAttention(scores, weights, weights @ v)


@dataclass(frozen=True)
class LayerNormStats:
    """How normalised each row of LayerNorm's output is: the largest |row mean| (~0) and the mean row std (~1)."""

    max_abs_mean: float
    mean_std: float


def layer_norm_stats(y: np.ndarray) -> LayerNormStats:
    """Row statistics of y (L, d_model), e.g. the output of residual_layer_norm."""
    return LayerNormStats(float(np.abs(y.mean(axis=-1)).max()), float(y.std(axis=-1).mean()))




# ---------------------------------------------------------------------------- CNN, RNN and self-attention


@dataclass(frozen=True)
class LayerKind:
    """One layer mapping n tokens of width d to n tokens of width d (note 003; Vaswani et al. 2017, table 1).

    mults: scalar multiplications of the layer, counted: self-attention 2 n^2 d (the scores Q K^T and A V,
    projections left out as in the table), a recurrent layer 2 n d^2 (W h_{t-1} and U x_t at each of n steps),
    a convolution k n d^2 (a width-k kernel from d to d channels at each of n positions).
    sequential: operations that must wait for the one before (n for the recurrence, 1 otherwise).
    path: layers (or steps) a signal needs from the first token to the last: 1 for self-attention, n - 1 steps
    for a recurrence, ceil((n - 1) / (k - 1)) stacked convolutions of width k."""

    name: str
    mults: int
    sequential: int
    path: int


def architecture_costs(n: int, d: int, k: int = 3) -> list[LayerKind]:
    """The three layers of note 003's table, counted for n tokens, width d and kernel width k >= 2."""
    for name, value, low in (("n", n, 1), ("d", d, 1), ("k", k, 2)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise ValueError(f"{name} must be a whole number >= {low}, got {value!r}")
    return [
        LayerKind("cnn", k * n * d * d, 1, math.ceil((n - 1) / (k - 1))),
        LayerKind("rnn", 2 * n * d * d, n, n - 1),
        LayerKind("self_attention", 2 * n * n * d, 1, 1 if n > 1 else 0),
    ]


# ------------------------------------------------------------------------- more than a weighted average


def weighted_average_gap(values: np.ndarray, target: np.ndarray) -> np.ndarray:
    """For each target row y: the distance from y to the nearest affine combination sum_j a_j u_j (sum_j a_j = 1)
    of the rows u_j of `values` (Lk, d). A weighted average (a_j >= 0, sum 1) is such a combination, so a
    distance above rounding proves that NO weighted average of these rows gives y. values (Lk, d), target
    (Lq, d) -> (Lq,). When the Lk rows' affine hull fills all d dimensions (Lk > d), every y is reachable: 0."""
    u = np.asarray(values, dtype=np.float64)
    y = np.asarray(target, dtype=np.float64)
    base = u[0]
    diffs = (u[1:] - base).T  # (d, Lk - 1): the directions of the affine hull
    rel = (y - base).T  # (d, Lq)
    if diffs.shape[1] == 0:
        return np.linalg.norm(rel, axis=0)
    coef, *_ = np.linalg.lstsq(diffs, rel, rcond=None)
    return np.linalg.norm(diffs @ coef - rel, axis=0)
