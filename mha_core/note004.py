"""Note 004's arguments about why multi-head attention works, as computations on any setting.

- rotation: rho_ij depends on each head's arbitrary value coordinates; the layer does not.
- bottleneck: each head's score matrix has rank <= d_k; fewer keys can be a head's "most attended" one.
- kernel: a head compares tokens by exp(x W^Q W^K^T x'^T / sqrt(d_k)): not symmetric when W^Q W^K^T is not, so
  not a (Mercer) kernel; a Mercer kernel when W^Q W^K^T is symmetric positive semi-definite (W^K = c W^Q, c >= 0).
- subspaces: principal angles between two heads' column spaces, and the dimension they share.
- symmetry: heads started from the same weights get the same gradients (they would stay the same).
- inclusion: at fixed d_model no head of an h-head layer can reproduce a wide single head's pattern.
- cost: the matrix products cost the same for every h; the softmax and the L x L memory grow h-fold.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch
from torch import Tensor

from .analysis import contribution_similarity, head_similarity, operation_counts, score_rank
from .attention import MultiHeadAttention
from .config import AttentionConfig, validate_sizes
from .why import median_seconds

# ---------------------------------------------------------------------------------------------- rotation


def _f64(t: Tensor | np.ndarray) -> Tensor:
    """A float64 copy (the Scene's numpy arrays are read-only; torch wants writable memory)."""
    if isinstance(t, Tensor):
        return t.detach().to(torch.float64).clone()
    return torch.tensor(np.asarray(t), dtype=torch.float64)


def rotation(d_k: int, angle: float, seed: int = 0) -> Tensor:
    """An orthogonal (d_k, d_k) matrix R(angle) = exp(angle * A), A a seeded skew-symmetric matrix with
    unit spectral norm (R(0) = I; every coordinate turns). For d_k = 1 the only orthogonal matrices are
    [1] and [-1]: R = [-1] from 90 degrees on."""
    if d_k == 1:
        return torch.tensor([[1.0 if math.cos(angle) > 0 else -1.0]], dtype=torch.float64)
    gen = torch.Generator().manual_seed(seed)
    b = torch.randn(d_k, d_k, generator=gen, dtype=torch.float64)
    a = b - b.T
    a = a / torch.linalg.matrix_norm(a, ord=2)
    return torch.linalg.matrix_exp(angle * a)


def rho_extremes(head_outputs: Tensor | np.ndarray, i: int, j: int) -> tuple[float, float, Tensor, Tensor]:
    """The range of rho_ij over every orthogonal R applied to head j's value coordinates (head_j -> head_j R):
    rho_ij(R) = <H_i, H_j R> / (|H_i| |H_j|) is largest for R = U V^T, the SVD H_j^T H_i = U S V^T (orthogonal
    Procrustes), where it equals sum(S) / (|H_i| |H_j|); its negative is the smallest.
    Returns (lowest, highest, R that gives the highest, R that gives the lowest)."""
    hs = _f64(head_outputs)
    a, b = hs[i], hs[j]
    u, sv, vt = torch.linalg.svd(b.T @ a)
    scale = float(torch.linalg.norm(a) * torch.linalg.norm(b))
    top = float(sv.sum()) / scale if scale > 0 else 0.0
    r = u @ vt
    return -top, top, r, -r


@dataclass(frozen=True)
class RotationDemo:
    """Head `head`'s value space turned by R: W^V_head -> W^V_head R, W^O_head -> R^T W^O_head."""

    head: int
    r: np.ndarray  # (d_k, d_k)
    max_output_change: float  # max |output(rotated) - output(original)|, both computed by the layer
    output_scale: float  # max |output|
    rho_before: np.ndarray  # (h, h) note 004's rho_ij of head outputs
    rho_after: np.ndarray
    contrib_before: np.ndarray  # (h, h) cosine of head_i W^O_i
    contrib_after: np.ndarray


def rotate_value_space(mha: MultiHeadAttention, head: int, r: Tensor) -> MultiHeadAttention:
    """The same layer with head `head`'s value coordinates turned by R (orthogonal): W^V_i R, b^V_i R and
    R^T W^O_i (the other weights and biases unchanged)."""
    h, d = mha.n_heads, mha.config.d_model
    dk = d // h
    w_v, w_o = mha.w_v.detach().clone(), mha.w_o.detach().clone()
    r = r.to(w_v.dtype)
    cols = slice(head * dk, (head + 1) * dk)
    w_v[:, cols] = w_v[:, cols] @ r
    w_o[cols, :] = r.T @ w_o[cols, :]
    biases: list[Tensor | None] = [None] * 4
    if mha.in_proj_bias is not None:
        b = mha.in_proj_bias.detach().clone()
        b_v = b[2 * d:]
        b_v[cols] = b_v[cols] @ r
        biases = [b[:d], b[d:2 * d], b_v, mha.out_proj_bias.detach().clone()]
    return MultiHeadAttention.from_weights(
        h, mha.w_q.detach(), mha.w_k.detach(), w_v, w_o, *biases, scale=mha.config.scale
    )


def rotation_demo(
    x: Tensor, w_q_heads: Tensor, w_k_heads: Tensor, w_v_heads: Tensor, w_o: Tensor, *, head: int, angle: float,
    scale: bool = True, key: Tensor | None = None, attn_mask: Tensor | None = None, seed: int = 0,
    r: Tensor | np.ndarray | None = None, biases: tuple | None = None,
) -> RotationDemo:
    """Run the layer twice, with and without head `head`'s value space rotated by R: rotation(d_k, angle)
    (radians), or the orthogonal `r` given. biases: (b^Q, b^K, b^V, b^O) of a layer that has them."""
    as64 = [_f64(t) for t in (w_q_heads, w_k_heads, w_v_heads, w_o)]
    n_heads = as64[0].shape[0]
    fused = [torch.cat(list(w), dim=1) for w in as64[:3]]  # [W_1 | ... | W_h]
    b64 = [None if b is None else _f64(b) for b in (biases or (None,) * 4)]
    mha = MultiHeadAttention.from_weights(n_heads, *fused, as64[3], *b64, scale=scale)
    r = rotation(as64[0].shape[-1], angle, seed) if r is None else _f64(r)
    turned = rotate_value_space(mha, head, r)
    x = _f64(x)
    kv = None if key is None else _f64(key)
    mask = None if attn_mask is None else torch.tensor(np.asarray(attn_mask), dtype=torch.bool)
    with torch.no_grad():
        a, b = mha(x, key=kv, attn_mask=mask), turned(x, key=kv, attn_mask=mask)
    return RotationDemo(
        head=head, r=r.numpy(),
        max_output_change=float((a.output - b.output).abs().max()), output_scale=float(a.output.abs().max()),
        rho_before=head_similarity(a.head_outputs).numpy(), rho_after=head_similarity(b.head_outputs).numpy(),
        contrib_before=contribution_similarity(a.head_outputs, a.w_o_heads.detach()).numpy(),
        contrib_after=contribution_similarity(b.head_outputs, b.w_o_heads.detach()).numpy(),
    )  # fmt: skip


# -------------------------------------------------------------------------------------------- bottleneck


def head_counts(d_model: int, max_heads: int = 64) -> list[int]:
    """Every h that divides d_model, up to max_heads."""
    return [h for h in range(1, min(d_model, max_heads) + 1) if d_model % h == 0]


def reachable_keys(k: Tensor, n_dirs: int = 4096, seed: int = 0) -> int:
    """How many keys can be the most attended one for SOME query: the vertices of the keys' convex hull.
    k (Lk, d_k). When the keys are affinely independent (rank of k - k_0 is Lk - 1) every key is one; otherwise
    argmax_j q.k_j over n_dirs random query directions q gives a lower bound that reaches the count quickly.
    With d_k = 1 it is at most 2 (the largest and the smallest key)."""
    k = k.to(torch.float64)
    if k.shape[0] <= 1 or int(torch.linalg.matrix_rank(k[1:] - k[0])) == k.shape[0] - 1:
        return int(k.shape[0])
    gen = torch.Generator().manual_seed(seed)
    dirs = torch.randn(n_dirs, k.shape[-1], generator=gen, dtype=torch.float64)
    return int(torch.unique((dirs @ k.T).argmax(dim=-1)).numel())


def _seeded_qk(d_model: int, seed: int) -> tuple[Tensor, Tensor]:
    """W^Q, W^K (d_model, d_model) drawn as the core draws [W^Q | W^K | W^V] (xavier-uniform), float64."""
    g = torch.Generator().manual_seed(seed)
    bound = math.sqrt(6.0 / (4 * d_model))
    w = (torch.rand(d_model, 2 * d_model, generator=g, dtype=torch.float64) * 2 - 1) * bound
    return w[:, :d_model], w[:, d_model:]


@dataclass(frozen=True)
class BottleneckRow:
    """One h at fixed d_model, heads with seeded random weights on the same input X: means over heads."""

    n_heads: int
    d_k: int
    max_rank: int  # largest score rank of any head (<= min(d_k, Lq, Lk))
    mean_rank: float
    distinct_argmax: float  # distinct most-attended keys over this sentence's queries, mean over heads
    reachable: float  # keys some query could make the most attended one, mean over heads


def bottleneck_sweep(x: Tensor | np.ndarray, d_model: int, seed: int = 0, max_heads: int = 64,
                     n_dirs: int = 2048) -> list[BottleneckRow]:  # fmt: skip
    """The h vs d_k trade-off as data: for every h dividing d_model, the same seeded W^Q, W^K (d_model x d_model)
    split into h heads of d_k columns, on x (L, d_model). Scaling does not change ranks or argmaxes."""
    x = _f64(x)
    w_q, w_k = _seeded_qk(d_model, seed)
    q_all, k_all = x @ w_q, x @ w_k  # (L, d_model): head i is columns i*d_k .. (i+1)*d_k - 1
    rows = []
    for h in head_counts(d_model, max_heads):
        dk = d_model // h
        q = q_all.view(-1, h, dk).transpose(0, 1)  # (h, L, d_k)
        k = k_all.view(-1, h, dk).transpose(0, 1)
        scores = q @ k.transpose(-2, -1)
        ranks = score_rank(scores)
        distinct = [int(torch.unique(scores[i].argmax(dim=-1)).numel()) for i in range(h)]
        reach = [reachable_keys(k[i], n_dirs, seed) for i in range(h)]
        rows.append(BottleneckRow(h, dk, int(ranks.max()), float(ranks.double().mean()),
                                  float(np.mean(distinct)), float(np.mean(reach))))  # fmt: skip
    return rows


# ---------------------------------------------------------------------------------------------- kernel


@dataclass(frozen=True)
class KernelView:
    """One head of self-attention read as a similarity k(x_i, x_j) = exp(s_ij), s = scaled q_i . k_j."""

    scores: np.ndarray  # (L, L) S, as the layer computes it
    asymmetry: float  # |S - S^T|_F / |S|_F: 0 for a symmetric similarity
    max_pair_gap: float  # max |s_ij - s_ji|
    pair: tuple[int, int]  # where it is largest
    tied_scores: np.ndarray  # (L, L) the same head with W^K := W^Q: Q Q^T / sqrt(d_k), symmetric
    tied_min_eig: float  # smallest eigenvalue of exp(tied scores) / its largest: >= 0, a (Mercer) kernel matrix
    min_eig_sym: float  # smallest eigenvalue of exp(S)'s symmetric part / its largest (can be < 0)
    double_min_eig: float  # the same with W^K := 2 W^Q (M = 2 W^Q W^Q^T, symmetric PSD): >= 0 as well


def kernel_view(x: Tensor, w_q: Tensor, w_k: Tensor, scale: bool = True, b_q: Tensor | None = None,
                b_k: Tensor | None = None) -> KernelView:  # fmt: skip
    """x (L, d_model), one head's W^Q_i, W^K_i (d_model, d_k) and, for a layer with biases, b^Q_i, b^K_i (d_k,)."""
    x, w_q, w_k = (_f64(t) for t in (x, w_q, w_k))
    factor = 1 / math.sqrt(w_q.shape[-1]) if scale else 1.0
    q = x @ w_q + (0 if b_q is None else _f64(b_q))
    k = x @ w_k + (0 if b_k is None else _f64(b_k))
    s = (q @ k.T) * factor
    tied = (q @ q.T) * factor
    gap = (s - s.T).abs()
    i, j = divmod(int(gap.argmax()), s.shape[1])

    def smallest(scores: Tensor) -> float:  # of exp(scores), symmetrised, relative to its largest eigenvalue
        e = torch.exp(scores - scores.max())  # a positive factor: the signs of the eigenvalues stay
        eig = torch.linalg.eigvalsh((e + e.T) / 2)
        return float(eig.min() / eig.max())

    return KernelView(
        scores=s.numpy(), asymmetry=float(torch.linalg.norm(s - s.T) / torch.linalg.norm(s).clamp_min(1e-300)),
        max_pair_gap=float(gap.max()), pair=(i, j), tied_scores=tied.numpy(), tied_min_eig=smallest(tied),
        min_eig_sym=smallest(s), double_min_eig=smallest(2 * tied),
    )  # fmt: skip


# ------------------------------------------------------------------------------------------- inclusion


@dataclass(frozen=True)
class InclusionRow:
    """A single head of width d_model against the heads of an h-head layer, on the same X."""

    n_heads: int
    d_k: int
    single_rank: int  # rank of the single head's score matrix S (d_k = d_model)
    head_max_rank: int  # largest rank any head of the h-head layer can have: min(d_k, L)
    reproducible: bool  # could one of the h heads produce the single head's weights? needs rank(S) <= d_k + 1


def inclusion_check(x: Tensor | np.ndarray, d_model: int, seed: int = 0, max_heads: int = 64) -> list[InclusionRow]:
    """softmax is unchanged by adding a constant to each row (S + c 1^T), which changes the rank by at most 1:
    a head of width d_k (scores of rank <= d_k) can give the single head's weights only if rank(S) <= d_k + 1.
    The single head has seeded W^Q, W^K of d_model x d_model (as bottleneck_sweep's h = 1)."""
    x = _f64(x)
    w_q, w_k = _seeded_qk(d_model, seed)
    r1 = int(score_rank((x @ w_q) @ (x @ w_k).T))
    length = x.shape[0]
    return [InclusionRow(h, d_model // h, r1, min(d_model // h, length), r1 <= d_model // h + 1)
            for h in head_counts(d_model, max_heads)]  # fmt: skip


# ------------------------------------------------------------------------------------------------ cost


@dataclass(frozen=True)
class HeadCost:
    """One forward pass of one sequence at h heads: what depends on h and what does not."""

    n_heads: int
    d_k: int
    matmul_mults: int  # projections, QK^T and AV: the same for every h
    exponentials: int  # one per score: h * Lq * Lk
    score_bytes: int  # one h x Lq x Lk float32 tensor (scores or weights)


def cost_by_heads(
    len_q: int, len_k: int, d_model: int, heads: Sequence[int], bytes_per_value: int = 4
) -> list[HeadCost]:
    """From operation_counts: the multiplications of the matrix products, the softmax's exponentials (half of
    its "other" operations, the rest are divisions) and the bytes of one L x L tensor per head."""
    rows = []
    for h in heads:
        validate_sizes(d_model, h)
        steps = {c.step: c for c in operation_counts(len_q, d_model, h, len_k=len_k)}
        mults = sum(steps[k].mults for k in ("q_proj", "k_proj", "v_proj", "qk", "weights_v", "out_proj"))
        rows.append(HeadCost(h, d_model // h, mults, steps["softmax"].other // 2, h * len_q * len_k * bytes_per_value))
    return rows


def time_by_heads(length: int, d_model: int, heads: Sequence[int], reps: int = 5, seed: int = 0) -> np.ndarray:
    """Measured seconds (median of reps, after a warm-up) of one full-trace forward pass at each h."""
    gen = torch.Generator().manual_seed(seed)
    x = torch.randn(length, d_model, generator=gen)
    out = []
    with torch.no_grad():
        for h in heads:
            mha = MultiHeadAttention(AttentionConfig(d_model=d_model, n_heads=h, seed=seed))
            out.append(median_seconds(lambda mha=mha: mha(x), reps))
    return np.array(out)


# ------------------------------------------------------------------------------------------- subspaces


def subspace_overlap(w_heads: Tensor | np.ndarray) -> np.ndarray:
    """(h, h): cosine of the smallest principal angle between the column spaces of W_i and W_j (h, d_model, d_k):
    1 = the two heads share an input direction, 0 = orthogonal subspaces. The diagonal is 1 (0 for a zero W_i)."""
    w = _f64(w_heads)
    bases = []
    for m in w:
        u, sv, _ = torch.linalg.svd(m, full_matrices=False)
        keep = sv > sv.max().clamp_min(1e-300) * 1e-10 if sv.numel() else sv > 0
        bases.append(u[:, keep])
    h = len(bases)
    out = np.zeros((h, h))
    for i in range(h):
        for j in range(h):
            if bases[i].shape[1] and bases[j].shape[1]:
                out[i, j] = float(torch.linalg.svdvals(bases[i].T @ bases[j]).max())
    return out


@dataclass(frozen=True)
class ClosestSubspaces:
    """The two heads whose column spaces come closest (0-based pair), the smallest principal angle between them in
    degrees (90: orthogonal, 0: a shared direction), their dimensions, and the dimension of their intersection
    (dim S_i + dim S_j - dim(S_i + S_j); 0: they meet only in the zero vector)."""

    pair: tuple[int, int]
    angle: float
    dims: tuple[int, int]
    shared: int


def closest_subspaces(w_heads: Tensor | np.ndarray, overlap: np.ndarray | None = None) -> ClosestSubspaces | None:
    """For (h, d_model, d_k) per-head blocks; `overlap` is subspace_overlap(w_heads) if already computed. None for
    one head."""
    w = _f64(w_heads)
    if w.shape[0] < 2:
        return None
    cos = subspace_overlap(w) if overlap is None else overlap
    off = np.where(np.eye(len(cos), dtype=bool), -np.inf, cos)
    i, j = (int(n) for n in np.unravel_index(int(np.argmax(off)), off.shape))
    ranks = [int(torch.linalg.matrix_rank(m)) for m in (w[i], w[j], torch.cat((w[i], w[j]), dim=1))]
    angle = math.degrees(math.acos(min(1.0, max(-1.0, float(cos[i, j])))))
    return ClosestSubspaces((i, j), angle, (ranks[0], ranks[1]), ranks[0] + ranks[1] - ranks[2])


def heads_reading_input(w_heads: Tensor | np.ndarray, dim: int = 0) -> int:
    """How many heads' projections read input dimension `dim` (row `dim` of W_i not all zero)."""
    w = _f64(w_heads)
    return int((w[:, dim, :].abs().amax(dim=-1) > 0).sum())


# -------------------------------------------------------------------------------- kernels and linearity


@dataclass(frozen=True)
class KernelSum:
    """The layer against multiple-kernel learning on the same heads: the layer normalises each head's kernel
    exp(S_i) on its own (A_i = softmax(S_i)) and averages that head's own values; multiple-kernel learning sums the
    kernels first, K = sum_i exp(S_i), and normalises once (one A for every head)."""

    output_gap: float  # max |sum_i A_i V_i W^O_i - sum_i A V_i W^O_i|
    output_scale: float  # max |sum_i A_i V_i W^O_i|
    weight_gap: float  # max |A_i - A| over heads: how far each head's own weights are from the shared ones


def kernel_sum_check(masked_scores: Tensor | np.ndarray, v: Tensor | np.ndarray,
                     w_o_heads: Tensor | np.ndarray) -> KernelSum:  # fmt: skip
    """masked_scores (h, Lq, Lk) as the layer computes them (-inf where masked), v (h, Lk, d_k), w_o_heads
    (h, d_k, d_model). A query whose keys are all masked gets weights 0 either way, as in the layer."""
    s, v, w_o = _f64(masked_scores), _f64(v), _f64(w_o_heads)
    top = s.amax(dim=(0, 2), keepdim=True)  # (1, Lq, 1): the largest score of each query over every head
    top = torch.where(torch.isfinite(top), top, torch.zeros_like(top))
    e = torch.exp(s - top)  # (h, Lq, Lk): each head's kernel exp(S_i), up to one factor per query
    own = e / e.sum(dim=-1, keepdim=True).clamp_min(1e-300)  # A_i = softmax(S_i)
    summed = e.sum(dim=0)  # (Lq, Lk): K = sum_i exp(S_i)
    shared = summed / summed.sum(dim=-1, keepdim=True).clamp_min(1e-300)
    layer = torch.einsum("hqk,hkd,hde->qe", own, v, w_o)  # sum_i A_i V_i W^O_i
    mkl = torch.einsum("qk,hkd,hde->qe", shared, v, w_o)  # sum_i A V_i W^O_i
    return KernelSum(float((layer - mkl).abs().max()), float(layer.abs().max()), float((own - shared).abs().max()))


@dataclass(frozen=True)
class Linearity:
    """Where the non-linearity of a head is. projection_gap: max |(x + x') W_i^Q - (x W_i^Q + x' W_i^Q)| over the
    heads (rounding only: the projections are linear); bilinear_gap: max |x_a M_i x_b^T - (x_a W_i^Q)(x_b W_i^K)^T|
    with M_i = W_i^Q W_i^K^T (the score is a bilinear form of the two tokens); m_rank: the largest rank of M_i
    (<= d_k); softmax_gap: max |softmax(s + s') - (softmax(s) + softmax(s'))| on the heads' score rows, the one
    non-linear step, the same function in every head."""

    projection_gap: float
    bilinear_gap: float
    m_rank: int
    softmax_gap: float


def linearity_check(x: Tensor | np.ndarray, w_q_heads: Tensor | np.ndarray, w_k_heads: Tensor | np.ndarray,
                    seed: int = 0) -> Linearity:  # fmt: skip
    """x (L, d_model), w_q_heads and w_k_heads (h, d_model, d_k); x' is a seeded random input of x's shape."""
    x, wq, wk = _f64(x), _f64(w_q_heads), _f64(w_k_heads)
    x2 = torch.randn(x.shape, generator=torch.Generator().manual_seed(seed), dtype=torch.float64)
    proj_gap = float(((x + x2) @ wq - (x @ wq + x2 @ wq)).abs().max())  # (h, L, d_k)
    m = wq @ wk.transpose(-2, -1)  # (h, d_model, d_model)
    s = (x @ wq) @ (x @ wk).transpose(-2, -1)  # (h, L, L)
    s2 = (x2 @ wq) @ (x2 @ wk).transpose(-2, -1)
    bil_gap = float((x @ m @ x.T - s).abs().max())
    soft_gap = float((torch.softmax(s + s2, -1) - torch.softmax(s, -1) - torch.softmax(s2, -1)).abs().max())
    return Linearity(proj_gap, bil_gap, int(torch.linalg.matrix_rank(m).max()), soft_gap)


# ------------------------------------------------------------------------------------------------ symmetry


@dataclass(frozen=True)
class SymmetricStart:
    """Gradients of one loss with respect to each head's W_i^Q, W_i^K, W_i^V: the largest difference between two
    heads' gradients when every head starts from the same weights (0 up to rounding: they would stay the same
    forever), and with the layer's own, different weights."""

    same_start_gap: float
    own_weights_gap: float


def symmetric_start(
    x: Tensor | np.ndarray, w_q_heads: Tensor | np.ndarray, w_k_heads: Tensor | np.ndarray,
    w_v_heads: Tensor | np.ndarray, w_o_heads: Tensor | np.ndarray, seed: int = 0,
) -> SymmetricStart:  # fmt: skip
    """One gradient step's worth of evidence for the symmetry-breaking argument (note 004): the loss is a fixed
    random projection of the layer's output; x (L, d_model), the heads' blocks (h, d_model, d_k), W^O_i (h, d_k,
    d_model)."""
    x = _f64(x)
    blocks = [_f64(w) for w in (w_q_heads, w_k_heads, w_v_heads, w_o_heads)]
    target = torch.randn(x.shape[0], x.shape[1], generator=torch.Generator().manual_seed(seed), dtype=torch.float64)

    def largest_gap(wq: Tensor, wk: Tensor, wv: Tensor, wo: Tensor) -> float:
        h, d_model, d_k = wq.shape
        mha = MultiHeadAttention.from_head_weights(wq, wk, wv, wo.reshape(h * d_k, d_model))
        (mha(x).output * target).sum().backward()
        per_head = [g.reshape(d_model, h, d_k) for g in mha.in_proj_weight.grad.split(d_model, dim=1)]  # Q, K, V
        grads = torch.cat(per_head, dim=-1).transpose(0, 1)  # (h, d_model, 3 d_k): each head's three blocks
        return float((grads - grads[:1]).abs().max())

    same = [b[:1].expand_as(b).clone() for b in blocks]  # every head a copy of head 1
    return SymmetricStart(largest_gap(*same), largest_gap(*blocks))
