"""Multi-head attention that returns every intermediate tensor as one frozen trace.

Convention of the notes: row vectors, Q = X W^Q with W^Q of shape (d_model, d_model), and the
per-head W_i^Q = W^Q[:, i*d_k:(i+1)*d_k] of shape (d_model, d_k). torch.nn.MultiheadAttention stores
the transpose; `from_torch` converts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import torch
from torch import Tensor, nn
from torch.nn import functional as F

from .config import AttentionConfig
from .errors import AttentionError
from .memory import large_matrix, wants_huge_pages

Formulation = Literal["fused", "per_head"]


@dataclass(frozen=True)
class AttentionTrace:
    """Every intermediate of one forward pass. Batched shapes; unbatched input drops the leading B.

    q, k, v        (B, h, L, d_k)      per-head projections (k, v have L = Lk)
    scores         (B, h, Lq, Lk)      Q K^T / sqrt(d_k) (or Q K^T when scale=False), before the mask
    masked_scores  (B, h, Lq, Lk)      scores with the mask applied (-inf where a key is masked)
    weights        (B, h, Lq, Lk)      softmax of masked_scores over keys; a fully masked row is all 0
    head_outputs   (B, h, Lq, d_k)     weights @ v, i.e. head_i = A_i V_i
    concat         (B, Lq, d_model)    Concat(head_1, ..., head_h)
    output         (B, Lq, d_model)    concat W^O (+ b^O)
    mask           (B, h, Lq, Lk)      True where a key is masked (a broadcast view); None without a mask
    w_in, b_in     (d_model, 3 d_model), (3 d_model,)   [W^Q | W^K | W^V] and [b^Q | b^K | b^V]; w_q, w_k,
                   w_v, b_q, b_k, b_v are views of them, w_q_heads etc. the per-head W_i
    w_o, b_o       (d_model, d_model), (d_model,)
    """

    query: Tensor
    key: Tensor
    value: Tensor
    q: Tensor
    k: Tensor
    v: Tensor
    scores: Tensor
    masked_scores: Tensor
    weights: Tensor
    head_outputs: Tensor
    concat: Tensor
    output: Tensor
    mask: Tensor | None
    w_in: Tensor
    b_in: Tensor | None
    w_o: Tensor
    b_o: Tensor | None
    n_heads: int
    scale_factor: float

    @property
    def d_model(self) -> int:
        return self.w_o.shape[0]

    @property
    def d_k(self) -> int:
        return self.d_model // self.n_heads

    @property
    def w_q(self) -> Tensor:
        """W^Q: (d_model, d_model)."""
        return self.w_in[:, : self.d_model]

    @property
    def w_k(self) -> Tensor:
        """W^K: (d_model, d_model)."""
        return self.w_in[:, self.d_model : 2 * self.d_model]

    @property
    def w_v(self) -> Tensor:
        """W^V: (d_model, d_model)."""
        return self.w_in[:, 2 * self.d_model :]

    @property
    def b_q(self) -> Tensor | None:
        return None if self.b_in is None else self.b_in[: self.d_model]

    @property
    def b_k(self) -> Tensor | None:
        return None if self.b_in is None else self.b_in[self.d_model : 2 * self.d_model]

    @property
    def b_v(self) -> Tensor | None:
        return None if self.b_in is None else self.b_in[2 * self.d_model :]

    @property
    def w_q_heads(self) -> Tensor:
        """W_i^Q stacked: (h, d_model, d_k)."""
        return split_weight_columns(self.w_q, self.n_heads)

    @property
    def w_k_heads(self) -> Tensor:
        """W_i^K stacked: (h, d_model, d_k)."""
        return split_weight_columns(self.w_k, self.n_heads)

    @property
    def w_v_heads(self) -> Tensor:
        """W_i^V stacked: (h, d_model, d_k)."""
        return split_weight_columns(self.w_v, self.n_heads)

    @property
    def w_o_heads(self) -> Tensor:
        """W^O split into per-head row blocks W^O_i: (h, d_k, d_model); concat W^O = sum_i head_i W^O_i."""
        return self.w_o.reshape(self.n_heads, self.d_k, self.d_model)

    @property
    def q_fused(self) -> Tensor:
        """Q = X W^Q before the split into heads: (B, Lq, d_model)."""
        return merge_heads(self.q)

    @property
    def k_fused(self) -> Tensor:
        """K = X W^K before the split into heads: (B, Lk, d_model)."""
        return merge_heads(self.k)

    @property
    def v_fused(self) -> Tensor:
        """V = X W^V before the split into heads: (B, Lk, d_model)."""
        return merge_heads(self.v)


def split_heads(x: Tensor, n_heads: int) -> Tensor:
    """(..., L, d_model) -> (..., h, L, d_k): the reshape [B, T, h, d_k] -> [B, h, T, d_k] of note 002."""
    *lead, length, d_model = x.shape
    return x.reshape(*lead, length, n_heads, d_model // n_heads).transpose(-3, -2)


def merge_heads(x: Tensor) -> Tensor:
    """(..., h, L, d_k) -> (..., L, h * d_k): the inverse of split_heads, i.e. the concatenation."""
    *lead, n_heads, length, d_k = x.shape
    return x.transpose(-3, -2).reshape(*lead, length, n_heads * d_k)


def _split_heads_contiguous(x: Tensor, n_heads: int) -> Tensor:
    """(B, L, n_heads * d_k) -> (B, n_heads, L, d_k) in one copy, so later matmuls need no hidden copies."""
    bsz, length, width = x.shape
    return x.view(bsz, length, n_heads, width // n_heads).transpose(1, 2).contiguous()


def _project_heads(x: Tensor, w_heads: Tensor, b_heads: Tensor | None) -> Tensor:
    """One sequence x (1, L, d_model) times each of n blocks w_heads (n, d_model, d_k), plus b_heads
    (n, 1, d_k): (n, L, d_k), the same tokens through every block in one batched multiply."""
    rows = x.expand(w_heads.shape[0], -1, -1)  # (n, L, d_model), no copy
    return torch.bmm(rows, w_heads) if b_heads is None else torch.baddbmm(b_heads, rows, w_heads)


def split_weight_columns(w: Tensor, n_heads: int) -> Tensor:
    """Fused (d_model, d_model) projection -> per-head (h, d_model, d_k): W_i = W[:, i*d_k:(i+1)*d_k]."""
    d_in, d_out = w.shape
    return w.reshape(d_in, n_heads, d_out // n_heads).transpose(0, 1)


def merge_weight_columns(w_heads: Tensor) -> Tensor:
    """Per-head (h, d_model, d_k) -> fused (d_model, h * d_k): [W_1 | W_2 | ... | W_h]."""
    n_heads, d_in, d_k = w_heads.shape
    return w_heads.transpose(0, 1).reshape(d_in, n_heads * d_k)


def _linear(x: Tensor, w: Tensor, b: Tensor | None) -> Tensor:
    """x (..., d_in) @ w (d_in, d_out) + b in one fused matrix multiply (torch's linear takes w transposed)."""
    return F.linear(x, w.T, b)


def _check_input(name: str, t: object, d_model: int, dtype: torch.dtype) -> Tensor:
    if not isinstance(t, Tensor):
        raise AttentionError("bad_input", f"{name} must be a tensor, got {type(t).__name__}", name=name)
    if t.dim() not in (2, 3):
        raise AttentionError(
            "bad_shape",
            f"{name} must have shape (L, d_model) or (B, L, d_model), got {tuple(t.shape)}",
            name=name,
            shape=tuple(t.shape),
        )
    if t.shape[-1] != d_model:
        raise AttentionError(
            "bad_shape",
            f"{name} has last dimension {t.shape[-1]}, expected d_model={d_model}",
            name=name,
            shape=tuple(t.shape),
        )
    if t.shape[-2] == 0:
        raise AttentionError("empty", f"{name} has no tokens (L=0); at least one is needed", name=name)
    if not (t.is_floating_point() or t.dtype in (torch.int32, torch.int64)):
        raise AttentionError("bad_input", f"{name} must hold real numbers, got {t.dtype}", name=name)
    if t.dtype != dtype:
        t = t.to(dtype)
    low, high = torch.aminmax(t)  # one pass without a mask tensor; NaN propagates into both
    if not (math.isfinite(low.item()) and math.isfinite(high.item())):
        raise AttentionError(
            "not_finite", f"{name} contains NaN or infinity; every value must be a finite number", name=name
        )
    return t


class MultiHeadAttention(nn.Module):
    """Multi-head attention whose forward returns an AttentionTrace.

    Parameters (notes' convention, x @ W): in_proj_weight (d_model, 3 d_model) = [W^Q | W^K | W^V],
    in_proj_bias (3 d_model), out_proj_weight W^O (d_model, d_model), out_proj_bias (d_model).
    Seeded init: the same config always gives the same weights (xavier-uniform in-projection and
    uniform(+-1/sqrt(d_model)) output projection, as torch; biases start at zero, as torch).
    """

    def __init__(self, config: AttentionConfig) -> None:
        super().__init__()
        self.config = config
        d = config.d_model
        g = torch.Generator().manual_seed(config.seed)
        bound_in = math.sqrt(6.0 / (d + 3 * d))
        bound_out = 1.0 / math.sqrt(d)
        self.in_proj_weight = nn.Parameter((torch.rand(d, 3 * d, generator=g) * 2 - 1) * bound_in)
        self.out_proj_weight = nn.Parameter((torch.rand(d, d, generator=g) * 2 - 1) * bound_out)
        if config.bias:
            self.in_proj_bias = nn.Parameter(torch.zeros(3 * d))
            self.out_proj_bias = nn.Parameter(torch.zeros(d))
        else:
            self.register_parameter("in_proj_bias", None)
            self.register_parameter("out_proj_bias", None)

    # ----- construction from given weights -------------------------------------------------
    @classmethod
    def from_weights(
        cls,
        n_heads: int,
        w_q: Tensor,
        w_k: Tensor,
        w_v: Tensor,
        w_o: Tensor,
        b_q: Tensor | None = None,
        b_k: Tensor | None = None,
        b_v: Tensor | None = None,
        b_o: Tensor | None = None,
        scale: bool = True,
    ) -> MultiHeadAttention:
        """Fused weights in the notes' convention: each W is (d_model, d_model), used as x @ W."""
        dtype = w_q.dtype if isinstance(w_q, Tensor) and w_q.is_floating_point() else torch.get_default_dtype()
        mats = [torch.as_tensor(w, dtype=dtype) for w in (w_q, w_k, w_v, w_o)]
        d = mats[0].shape[0] if mats[0].dim() == 2 else -1
        for name, m in zip(("W^Q", "W^K", "W^V", "W^O"), mats, strict=True):
            if m.dim() != 2 or tuple(m.shape) != (d, d):
                raise AttentionError(
                    "bad_shape",
                    f"{name} must be a square (d_model, d_model) matrix, got {tuple(m.shape)}",
                    name=name,
                    shape=tuple(m.shape),
                )
            if not torch.isfinite(m).all():
                raise AttentionError("not_finite", f"{name} contains NaN or infinity", name=name)
        biases = [b_q, b_k, b_v, b_o]
        has_bias = any(b is not None for b in biases)
        cfg = AttentionConfig(d_model=d, n_heads=n_heads, bias=has_bias, scale=scale)
        mha = cls(cfg).to(dtype)
        with torch.no_grad():
            mha.in_proj_weight.copy_(torch.cat(mats[:3], dim=1))
            mha.out_proj_weight.copy_(mats[3])
            if has_bias:
                b = [torch.zeros(d) if x is None else torch.as_tensor(x, dtype=mats[0].dtype) for x in biases]
                for name, vec in zip(("b^Q", "b^K", "b^V", "b^O"), b, strict=True):
                    if tuple(vec.shape) != (d,):
                        raise AttentionError(
                            "bad_shape", f"{name} must have shape ({d},), got {tuple(vec.shape)}", name=name
                        )
                mha.in_proj_bias.copy_(torch.cat(b[:3]))
                mha.out_proj_bias.copy_(b[3])
        return mha

    @classmethod
    def from_head_weights(
        cls, w_q_heads: Tensor, w_k_heads: Tensor, w_v_heads: Tensor, w_o: Tensor, scale: bool = True
    ) -> MultiHeadAttention:
        """Per-head weights W_i (h, d_model, d_k) as in notes 000/001, stacked side by side into W."""
        w_q_heads, w_k_heads, w_v_heads = (torch.as_tensor(w) for w in (w_q_heads, w_k_heads, w_v_heads))
        if w_q_heads.dim() != 3:
            raise AttentionError(
                "bad_shape", f"per-head weights must be (h, d_model, d_k), got {tuple(w_q_heads.shape)}"
            )
        n_heads = w_q_heads.shape[0]
        fused = [merge_weight_columns(w) for w in (w_q_heads, w_k_heads, w_v_heads)]
        return cls.from_weights(n_heads, *fused, w_o, scale=scale)

    @classmethod
    def from_torch(cls, torch_mha: nn.MultiheadAttention) -> MultiHeadAttention:
        """Copy the weights of a torch.nn.MultiheadAttention (same q/k/v width, no bias_k/v, no zero attn)."""
        if not torch_mha._qkv_same_embed_dim:
            raise AttentionError("unsupported", "kdim/vdim different from embed_dim are not supported")
        if torch_mha.bias_k is not None or torch_mha.add_zero_attn:
            raise AttentionError("unsupported", "add_bias_kv and add_zero_attn are not supported")
        d = torch_mha.embed_dim
        w_in = torch_mha.in_proj_weight.detach()  # (3d, d), used as x @ W^T
        b_in = None if torch_mha.in_proj_bias is None else torch_mha.in_proj_bias.detach()
        w_o = torch_mha.out_proj.weight.detach()
        b_o = None if torch_mha.out_proj.bias is None else torch_mha.out_proj.bias.detach()
        w_q, w_k, w_v = (w_in[i * d : (i + 1) * d].T for i in range(3))
        bq, bk, bv = (None, None, None) if b_in is None else (b_in[i * d : (i + 1) * d] for i in range(3))
        return cls.from_weights(torch_mha.num_heads, w_q, w_k, w_v, w_o.T, bq, bk, bv, b_o)

    # ----- named views of the parameters ----------------------------------------------------
    @property
    def n_heads(self) -> int:
        return self.config.n_heads

    @property
    def w_q(self) -> Tensor:
        return self.in_proj_weight[:, : self.config.d_model]

    @property
    def w_k(self) -> Tensor:
        d = self.config.d_model
        return self.in_proj_weight[:, d : 2 * d]

    @property
    def w_v(self) -> Tensor:
        return self.in_proj_weight[:, 2 * self.config.d_model :]

    @property
    def w_o(self) -> Tensor:
        return self.out_proj_weight

    def _bias(self, i: int) -> Tensor | None:
        if self.in_proj_bias is None:
            return None
        d = self.config.d_model
        return self.in_proj_bias[i * d : (i + 1) * d]

    # ----- forward ---------------------------------------------------------------------------
    def forward(
        self,
        query: Tensor,
        key: Tensor | None = None,
        value: Tensor | None = None,
        attn_mask: Tensor | None = None,
        key_padding_mask: Tensor | None = None,
        causal: bool = False,
        *,
        formulation: Formulation = "fused",
    ) -> AttentionTrace:
        """Self-attention when key/value are None; cross-attention otherwise (value defaults to key).

        Masks follow torch: a boolean True means "may not attend", a float mask is added to the scores.
        attn_mask is (Lq, Lk) or (B*h, Lq, Lk); key_padding_mask is (B, Lk) or (Lk,) when unbatched;
        causal=True masks every key j > query i. A query whose keys are all masked gets weights 0 and
        therefore a head output of 0 (torch gives NaN there).
        formulation="per_head" computes each head with its own W_i (notes 000/001) instead of the
        fused matrices split by reshape (notes 002/004); both give the same numbers. (For speed, the fused
        path multiplies a single sequence by the per-head column blocks of [W^Q | W^K | W^V] in one
        batched call, which yields the split Q, K, V without the reshape's copy.)
        """
        cfg = self.config
        d, h = cfg.d_model, cfg.n_heads
        dtype = self.in_proj_weight.dtype
        self_attention = key is None and value is None
        query = _check_input("query", query, d, dtype)
        key = query if key is None else _check_input("key", key, d, dtype)
        value = key if value is None else _check_input("value", value, d, dtype)
        batched = query.dim() == 3
        if key.dim() != query.dim() or value.dim() != query.dim():
            shapes = tuple(tuple(t.shape) for t in (query, key, value))
            raise AttentionError(
                "bad_shape",
                f"query, key and value must all be batched (B, L, d_model) or all unbatched (L, d_model), "
                f"got shapes {shapes[0]}, {shapes[1]} and {shapes[2]}",
                shapes=shapes,
            )
        if not batched:
            query, key, value = query.unsqueeze(0), key.unsqueeze(0), value.unsqueeze(0)
        if not (query.shape[0] == key.shape[0] == value.shape[0]):
            sizes = (query.shape[0], key.shape[0], value.shape[0])
            raise AttentionError(
                "bad_shape",
                f"query, key and value must have the same batch size B, got {sizes[0]}, {sizes[1]} and "
                f"{sizes[2]}",
                batch_sizes=sizes,
            )
        if key.shape[1] != value.shape[1]:
            raise AttentionError(
                "bad_shape",
                f"key and value must have the same length Lk, got {key.shape[1]} and {value.shape[1]}",
                len_k=key.shape[1],
                len_v=value.shape[1],
            )
        bsz, len_q, len_k = query.shape[0], query.shape[1], key.shape[1]
        mask = self._additive_mask(attn_mask, key_padding_mask, causal, bsz, len_q, len_k, batched, dtype)
        scale = 1.0 / math.sqrt(cfg.d_k) if cfg.scale else 1.0
        w_in, b_in = self.in_proj_weight, self.in_proj_bias  # [W^Q | W^K | W^V], [b^Q | b^K | b^V]

        if formulation == "fused":
            if bsz == 1:
                # The 3h column blocks of [W^Q | W^K | W^V] are each head's W_i^Q, W_i^K, W_i^V (views, no
                # copy). One batched multiply of the tokens with every block gives each head's Q_i, K_i, V_i
                # already in head order, bias included: the numbers of X W followed by note 002's reshape,
                # without the copy that reshape needs, and each core takes whole heads.
                w_heads = split_weight_columns(w_in, 3 * h)  # (3h, d_model, d_k)
                b_heads = None if b_in is None else b_in.view(3 * h, 1, d // h)
                if self_attention:
                    q, k, v = _project_heads(query, w_heads, b_heads).view(3, 1, h, len_q, d // h).unbind(0)
                else:
                    b_qkv = (None, None, None) if b_heads is None else b_heads.split(h)
                    q, k, v = (
                        _project_heads(x, w, b).view(1, h, x.shape[1], d // h)
                        for x, w, b in zip((query, key, value), w_heads.split(h), b_qkv, strict=True)
                    )
            # Several sequences: per-head results would need a copy into (B, h, L, d_k) order anyway, and
            # there one wide multiply was faster (by 10 % at (4, 512, 768, 12) on 1 thread); then the reshape.
            elif self_attention:
                qkv = _linear(query, w_in, b_in)  # (B, L, 3 d_model)
                qkv = qkv.view(bsz, len_q, 3, h, d // h).permute(2, 0, 3, 1, 4)  # (3, B, h, L, d_k)
                q, k, v = qkv.contiguous().unbind(0)  # one copy; each (B, h, L, d_k), contiguous
            else:
                w_qkv = w_in.split(d, dim=1)
                b_qkv = (None, None, None) if b_in is None else b_in.split(d)
                q, k, v = (
                    _split_heads_contiguous(_linear(x, w, b), h)
                    for x, w, b in zip((query, key, value), w_qkv, b_qkv, strict=True)
                )
            # (B*h, Lq, d_k) @ (B*h, d_k, Lk) -> (B, h, Lq, Lk); the matmul itself applies the scale
            # (alpha), and beta=0 means no input matrix is read: one pass over the L x L scores, not two
            q_flat, k_flat = q.flatten(0, 1), k.flatten(0, 1)
            shape = (bsz, h, len_q, len_k)
            # Without autograd, large L x L matrices are written into huge-page memory (memory.py);
            # autograd does not record out= calls, so with it the ops allocate them as usual.
            tracked = torch.is_grad_enabled() and (
                q.requires_grad or k.requires_grad or v.requires_grad or (mask is not None and mask.requires_grad)
            )
            huge = not tracked and wants_huge_pages(shape, q.dtype, q.device)
            scores = torch.baddbmm(
                q_flat.new_zeros(()), q_flat, k_flat.transpose(1, 2), beta=0.0, alpha=scale,
                out=large_matrix((bsz * h, len_q, len_k), q.dtype) if huge else None,
            ).view(shape)  # fmt: skip
            if mask is None:
                masked_scores = scores
            else:
                masked_scores = torch.add(scores, mask, out=large_matrix(shape, q.dtype) if huge else None)
            weights = self._softmax(masked_scores, mask is not None, out=large_matrix(shape, q.dtype) if huge else None)
            head_outputs = weights @ v  # (B, h, Lq, d_k)
        elif formulation == "per_head":
            q, k, v, scores, masked_scores, weights, head_outputs = self._per_head(
                query, key, value, mask, scale
            )
        else:
            raise AttentionError("bad_input", f"formulation must be 'fused' or 'per_head', got {formulation!r}")
        concat = merge_heads(head_outputs)  # (B, Lq, d_model)
        w_o, b_o = self.out_proj_weight, self.out_proj_bias
        output = _linear(concat, w_o, b_o)
        if mask is not None:
            mask = torch.isneginf(mask).expand(bsz, h, len_q, len_k)
        tensors = (query, key, value, q, k, v, scores, masked_scores, weights, head_outputs, concat, output, mask)
        # (the trace's first thirteen fields, in this order)
        if not batched:
            tensors = tuple(None if t is None else t[0] for t in tensors)
        return AttentionTrace(*tensors, w_in=w_in, b_in=b_in, w_o=w_o, b_o=b_o, n_heads=h, scale_factor=scale)

    def _per_head(
        self, query: Tensor, key: Tensor, value: Tensor, mask: Tensor | None, scale: float
    ) -> tuple[Tensor, ...]:
        """Each head on its own: Q_i = X W_i^Q, A_i = softmax(Q_i K_i^T / sqrt(d_k)), head_i = A_i V_i."""
        h = self.config.n_heads
        w_heads = [split_weight_columns(w, h) for w in (self.w_q, self.w_k, self.w_v)]
        b_heads = [None if b is None else b.reshape(h, -1) for b in (self._bias(i) for i in range(3))]
        parts: list[list[Tensor]] = [[] for _ in range(7)]
        for i in range(h):
            qi, ki, vi = (
                _linear(x, w[i], None if b is None else b[i])
                for x, w, b in zip((query, key, value), w_heads, b_heads, strict=True)
            )
            si = (qi @ ki.transpose(-2, -1)) * scale  # (B, Lq, Lk)
            mi = si if mask is None else si + mask[:, min(i, mask.shape[1] - 1)]
            ai = self._softmax(mi, mask is not None)
            for store, t in zip(parts, (qi, ki, vi, si, mi, ai, ai @ vi), strict=True):
                store.append(t)
        return tuple(torch.stack(p, dim=1) for p in parts)

    @staticmethod
    def _softmax(masked_scores: Tensor, has_mask: bool, out: Tensor | None = None) -> Tensor:
        """Softmax over keys (into `out` when given, except on the rare fully-masked path)."""
        if not has_mask:
            return torch.softmax(masked_scores, dim=-1, out=out)
        # A row with every key masked: softmax gives NaN there; define it as all zeros. The row is
        # replaced by zeros *before* the softmax too, so that no NaN reaches the backward pass.
        dead = torch.isneginf(masked_scores).all(dim=-1, keepdim=True)
        if not dead.any():
            return torch.softmax(masked_scores, dim=-1, out=out)
        return torch.softmax(masked_scores.masked_fill(dead, 0.0), dim=-1).masked_fill(dead, 0.0)

    def _additive_mask(
        self,
        attn_mask: Tensor | None,
        key_padding_mask: Tensor | None,
        causal: bool,
        bsz: int,
        len_q: int,
        len_k: int,
        batched: bool,
        dtype: torch.dtype,
    ) -> Tensor | None:
        """Combine every mask into one float mask broadcastable to (B, h, Lq, Lk), or None."""
        h = self.config.n_heads
        parts: list[Tensor] = []

        def as_float(m: Tensor, name: str) -> Tensor:
            if not isinstance(m, Tensor):
                raise AttentionError("bad_mask", f"{name} must be a tensor", name=name)
            if m.dtype == torch.bool:
                return torch.zeros(m.shape, dtype=dtype).masked_fill(m, float("-inf"))
            if not m.is_floating_point():
                raise AttentionError("bad_mask", f"{name} must be boolean or float, got {m.dtype}", name=name)
            if torch.isnan(m).any() or torch.isposinf(m).any():
                raise AttentionError("bad_mask", f"{name} contains NaN or +inf", name=name)
            return m.to(dtype)

        if attn_mask is not None:
            m = as_float(attn_mask, "attn_mask")
            if m.dim() == 2 and tuple(m.shape) == (len_q, len_k):
                parts.append(m.view(1, 1, len_q, len_k))
            elif m.dim() == 3 and tuple(m.shape) == (bsz * h, len_q, len_k):
                parts.append(m.view(bsz, h, len_q, len_k))
            else:
                raise AttentionError(
                    "bad_mask",
                    f"attn_mask must have shape ({len_q}, {len_k}) or ({bsz * h}, {len_q}, {len_k}), "
                    f"got {tuple(m.shape)}",
                    name="attn_mask",
                )
        if key_padding_mask is not None:
            m = as_float(key_padding_mask, "key_padding_mask")
            expected = (bsz, len_k) if batched else (len_k,)
            if tuple(m.shape) != expected:
                raise AttentionError(
                    "bad_mask",
                    f"key_padding_mask must have shape {expected}, got {tuple(m.shape)}",
                    name="key_padding_mask",
                )
            parts.append(m.view(bsz, 1, 1, len_k))
        if causal:
            parts.append(causal_mask(len_q, len_k, dtype).view(1, 1, len_q, len_k))
        if not parts:
            return None
        total = parts[0]
        for p in parts[1:]:
            total = total + p
        return total


def causal_mask(len_q: int, len_k: int | None = None, dtype: torch.dtype = torch.float32) -> Tensor:
    """(Lq, Lk) float mask: 0 where key j <= query i, -inf where j > i (no looking ahead)."""
    len_k = len_q if len_k is None else len_k
    ahead = torch.arange(len_k) > torch.arange(len_q).unsqueeze(1)  # (Lq, Lk): key j > query i
    return torch.zeros(len_q, len_k, dtype=dtype).masked_fill(ahead, float("-inf"))
