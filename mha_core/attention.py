"""Multi-head attention that returns every intermediate tensor as one frozen trace.

Convention of the notes: row vectors, Q = X W^Q with W^Q of shape (d_model, d_model), and the
per-head W_i^Q = W^Q[:, i*d_k:(i+1)*d_k] of shape (d_model, d_k). torch.nn.MultiheadAttention stores
the transpose; `from_torch` converts.

Reading order: AttentionTrace (what is computed), MultiHeadAttention.forward (notes 002/004: project,
split into heads, score, mask, softmax, weight the values, concatenate, W^O), then _per_head (notes
000/001: the same with each head's own W_i), then tests/test_core_torch_oracle.py.

Beyond the notes, the attention of today's decoders (Llama, Mistral, BLOOM), each a few lines of the same
forward, all off by default (then every number is the 2017 layer's, bit for bit):
- AttentionConfig(n_kv_heads=g): g K/V heads shared by the h query heads (grouped-query; g = 1 multi-query).
  W^K, W^V are (d_model, g d_k); trace.k, trace.v have g heads; trace.kv_groups says which query heads share each.
- AttentionConfig(rope=True, rope_base=10000.0): rotary positions on Q and K (positional.apply_rope);
  AttentionConfig(alibi=True): ALiBi's per-head linear penalty added to the scores (positional.alibi_bias).
- forward(..., causal=True, window=w): a causal sliding window, each query sees its last w keys.
- forward(x_new, causal=True, cache=KVCache()): decoding one step at a time; the cache keeps K and V
  (mha_core/cache.py); the trace of a step is the new query rows against every key so far.
- forward(..., start=s): the tokens sit at positions s, s + 1, ... (what RoPE turns by).
- MultiHeadAttention.from_llama(attn): a transformers LlamaAttention copied in (any num_key_value_heads, RoPE).
- mha_core/tiled.py: tiled_attention, FlashAttention's online softmax as a reference function.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Literal, NamedTuple

import torch
from torch import Tensor, nn

from .cache import KVCache
from .config import AttentionConfig, validate_sizes
from .errors import AttentionError
from .positional import alibi_bias, apply_rope

Formulation = Literal["fused", "per_head"]


class _NamedWeights:
    """W^Q, W^K, W^V, W^O and their biases under the notes' names, as views of the stored parameters.

    Shared by the module and its trace, which both hold in_proj_weight (d_model, d_model + 2 g d_k) =
    [W^Q | W^K | W^V], in_proj_bias (d_model + 2 g d_k,) = [b^Q | b^K | b^V] or None, out_proj_weight W^O
    (d_model, d_model), out_proj_bias b^O (d_model,) or None, n_heads and n_kv_heads (g; g = h without sharing,
    when the in-projection is (d_model, 3 d_model)).
    """

    in_proj_weight: Tensor
    in_proj_bias: Tensor | None
    out_proj_weight: Tensor
    out_proj_bias: Tensor | None
    n_heads: int
    n_kv_heads: int

    @property
    def d_model(self) -> int:
        return self.out_proj_weight.shape[0]

    @property
    def d_k(self) -> int:
        return self.d_model // self.n_heads

    @property
    def kv_groups(self) -> tuple[tuple[int, ...], ...]:
        """For each K/V head j, the query heads that share it: j h/g, ..., (j + 1) h/g - 1 (Llama's repeat_kv)."""
        r = self.n_heads // self.n_kv_heads
        return tuple(tuple(range(j * r, (j + 1) * r)) for j in range(self.n_kv_heads))

    def qkv_weights(self) -> tuple[Tensor, Tensor, Tensor]:
        """W^Q (d_model, d_model), W^K and W^V (d_model, g d_k): views of the column blocks of [W^Q | W^K | W^V]."""
        return self.in_proj_weight.split(_qkv_widths(self.d_model, self.n_kv_heads * self.d_k), dim=1)

    def qkv_biases(self) -> tuple[Tensor | None, Tensor | None, Tensor | None]:
        """b^Q (d_model,), b^K and b^V (g d_k,): views of [b^Q | b^K | b^V]; all None without biases."""
        if self.in_proj_bias is None:
            return None, None, None
        return self.in_proj_bias.split(_qkv_widths(self.d_model, self.n_kv_heads * self.d_k))

    @property
    def w_q(self) -> Tensor:
        """W^Q: (d_model, d_model)."""
        return self.qkv_weights()[0]

    @property
    def w_k(self) -> Tensor:
        """W^K: (d_model, g d_k), (d_model, d_model) without sharing."""
        return self.qkv_weights()[1]

    @property
    def w_v(self) -> Tensor:
        """W^V: (d_model, g d_k), (d_model, d_model) without sharing."""
        return self.qkv_weights()[2]

    @property
    def b_q(self) -> Tensor | None:
        return self.qkv_biases()[0]

    @property
    def b_k(self) -> Tensor | None:
        return self.qkv_biases()[1]

    @property
    def b_v(self) -> Tensor | None:
        return self.qkv_biases()[2]

    @property
    def w_o(self) -> Tensor:
        """W^O: (d_model, d_model)."""
        return self.out_proj_weight

    @property
    def b_o(self) -> Tensor | None:
        return self.out_proj_bias

    @property
    def w_q_heads(self) -> Tensor:
        """W_i^Q stacked: (h, d_model, d_k)."""
        return split_weight_columns(self.w_q, self.n_heads)

    @property
    def w_k_heads(self) -> Tensor:
        """W_j^K stacked: (g, d_model, d_k), one per K/V head (g = h without sharing)."""
        return split_weight_columns(self.w_k, self.n_kv_heads)

    @property
    def w_v_heads(self) -> Tensor:
        """W_j^V stacked: (g, d_model, d_k)."""
        return split_weight_columns(self.w_v, self.n_kv_heads)

    @property
    def w_o_heads(self) -> Tensor:
        """W^O split into per-head row blocks W^O_i: (h, d_k, d_model); concat W^O = sum_i head_i W^O_i."""
        return self.w_o.reshape(self.n_heads, self.d_k, self.d_model)


@dataclass(frozen=True)
class AttentionTrace(_NamedWeights):
    """Every intermediate of one forward pass. Batched shapes; unbatched input drops the leading B.

    query, key, value  (B, L, d_model)  the inputs X (key and value are the query in self-attention; with a
                                       KV cache all three are the new tokens only: the cache keeps K and V, not X)
    q              (B, h, Lq, d_k)     per-head projections Q_i (after RoPE when the layer uses it)
    k, v           (B, g, Lk, d_k)     K_j, V_j: g = h heads, or g shared ones (n_kv_heads; query head i uses
                                       K/V head i // (h/g), see kv_groups); with a cache every key so far
    scores         (B, h, Lq, Lk)      Q_i K_i^T / sqrt(d_k) (or Q_i K_i^T when scale=False), + ALiBi's bias
                                       -m_a (i - j) of head a when the layer uses it; before the mask
    masked_scores  (B, h, Lq, Lk)      scores with the mask applied (-inf where a key is masked)
    weights        (B, h, Lq, Lk)      softmax of masked_scores over keys; a fully masked row is all 0
    head_outputs   (B, h, Lq, d_k)     weights @ v, i.e. head_i = A_i V_i
    concat         (B, Lq, d_model)    Concat(head_1, ..., head_h)
    output         (B, Lq, d_model)    concat W^O (+ b^O)
    mask           (B, h, Lq, Lk)      True where a key is masked (a broadcast view); None without a mask
    in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias: the module's parameters (see
    _NamedWeights: w_q, w_k, w_v, w_o, b_q, ..., b_o and the per-head w_q_heads, ..., w_o_heads are views)
    n_heads, n_kv_heads  h and g
    scale_factor   1 / sqrt(d_k), or 1 when scale=False
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
    in_proj_weight: Tensor
    in_proj_bias: Tensor | None
    out_proj_weight: Tensor
    out_proj_bias: Tensor | None
    n_heads: int
    n_kv_heads: int
    scale_factor: float

    @classmethod
    def _of(cls, *values: object) -> AttentionTrace:
        """AttentionTrace(*values) without the frozen __init__'s object.__setattr__ per field (20 of them,
        about 1 us of the forward at the app's size): the values in field order, stored as __init__ does."""
        trace = object.__new__(cls)
        trace.__dict__.update(zip(_TRACE_FIELDS, values, strict=True))
        return trace

    @property
    def q_fused(self) -> Tensor:
        """Q = X W^Q before the split into heads (after RoPE when the layer uses it): (B, Lq, d_model)."""
        return merge_heads(self.q)

    @property
    def k_fused(self) -> Tensor:
        """K = X W^K before the split into heads: (B, Lk, g d_k), (B, Lk, d_model) without sharing."""
        return merge_heads(self.k)

    @property
    def v_fused(self) -> Tensor:
        """V = X W^V before the split into heads: (B, Lk, g d_k)."""
        return merge_heads(self.v)


_TRACE_FIELDS = tuple(field.name for field in fields(AttentionTrace))


def split_heads(x: Tensor, n_heads: int) -> Tensor:
    """(..., L, d_model) -> (..., h, L, d_k): the reshape [B, T, h, d_k] -> [B, h, T, d_k] of note 002."""
    *lead, length, d_model = x.shape
    return x.reshape(*lead, length, n_heads, d_model // n_heads).transpose(-3, -2)


def merge_heads(x: Tensor) -> Tensor:
    """(..., h, L, d_k) -> (..., L, h * d_k): the inverse of split_heads, i.e. the concatenation."""
    return x.transpose(-3, -2).flatten(-2)  # (..., L, h, d_k) -> (..., L, h * d_k)


def split_weight_columns(w: Tensor, n_heads: int) -> Tensor:
    """Fused (d_model, d_model) projection -> per-head (h, d_model, d_k): W_i = W[:, i*d_k:(i+1)*d_k]."""
    d_in, d_out = w.shape
    return w.reshape(d_in, n_heads, d_out // n_heads).transpose(0, 1)


def merge_weight_columns(w_heads: Tensor) -> Tensor:
    """Per-head (h, d_model, d_k) -> fused (d_model, h * d_k): [W_1 | W_2 | ... | W_h]."""
    n_heads, d_in, d_k = w_heads.shape
    return w_heads.transpose(0, 1).reshape(d_in, n_heads * d_k)


def _qkv_widths(d_model: int, kv_width: int) -> tuple[int, int, int]:
    """Column widths of [W^Q | W^K | W^V]: d_model, then g d_k for K and for V (d_model each without sharing)."""
    return d_model, kv_width, kv_width


def share_kv(kv: Tensor, n_heads: int) -> Tensor:
    """(..., g, L, d_k) -> (..., h, L, d_k): K/V head j repeated for its h/g query heads (Llama's repeat_kv);
    the tensor itself when g = h."""
    g = kv.shape[-3]
    return kv if g == n_heads else kv.repeat_interleave(n_heads // g, dim=-3)


def _linear(x: Tensor, w: Tensor, b: Tensor | None) -> Tensor:
    """x W + b: x (..., d_in), w (d_in, d_out) in the notes' convention, b (d_out,) or None.
    b is added in place to the new tensor x W (one allocation less: about 2 us of the forward at the app's
    default size; autograd is fine with it, as the product's gradient does not need the product)."""
    return x @ w if b is None else (x @ w).add_(b)


def _masked_softmax(masked_scores: Tensor, mask: Tensor | None) -> Tensor:
    """Softmax over keys (the last axis); with a mask, a row whose every key is masked (-inf) gets
    weights 0, not NaN. The dead row is zeroed before the softmax too, so no NaN reaches the backward pass."""
    if mask is None:
        return torch.softmax(masked_scores, dim=-1)
    dead = torch.isneginf(masked_scores).all(dim=-1, keepdim=True)  # (..., Lq, 1)
    return torch.softmax(masked_scores.masked_fill(dead, 0.0), dim=-1).masked_fill(dead, 0.0)


def _check_input(name: str, t: object, d_model: int, dtype: torch.dtype) -> Tensor:
    """One input tensor: (L, d_model) or (B, L, d_model), L >= 1, real and finite; cast to dtype."""
    if not isinstance(t, Tensor):
        raise AttentionError("bad_input", f"{name} must be a tensor, got {type(t).__name__}", name=name)
    shape = t.shape
    if len(shape) not in (2, 3):
        raise AttentionError(
            "bad_shape",
            f"{name} must have shape (L, d_model) or (B, L, d_model), got {tuple(shape)}",
            name=name,
            shape=tuple(shape),
        )
    if shape[-1] != d_model:
        raise AttentionError(
            "bad_shape",
            f"{name} has last dimension {shape[-1]}, expected d_model={d_model}",
            name=name,
            shape=tuple(shape),
        )
    if shape[-2] == 0:
        raise AttentionError("empty", f"{name} has no tokens (L=0); at least one is needed", name=name)
    if t.dtype != dtype:
        if not (t.is_floating_point() or t.dtype in (torch.int32, torch.int64)):
            raise AttentionError("bad_input", f"{name} must hold real numbers, got {t.dtype}", name=name)
        t = t.to(dtype)
    # NaN or +-inf anywhere makes the sum NaN or +-inf, so a finite sum proves every value finite; a sum
    # that overflows (large finite values) is checked value by value before the input is refused.
    if not math.isfinite(t.sum().item()) and not torch.isfinite(t).all():
        raise AttentionError(
            "not_finite", f"{name} contains NaN or infinity; every value must be a finite number", name=name
        )
    return t


def _check_inputs(
    query: object, key: object, value: object, d_model: int, dtype: torch.dtype, formulation: str
) -> tuple[Tensor, Tensor, Tensor, bool]:
    """Validate the inputs and give them a batch axis: (query, key, value) each (B, L, d_model), and
    whether the input was batched. key defaults to query, value to key."""
    if formulation not in ("fused", "per_head"):
        raise AttentionError("bad_input", f"formulation must be 'fused' or 'per_head', got {formulation!r}")
    query = _check_input("query", query, d_model, dtype)
    key = query if key is None else _check_input("key", key, d_model, dtype)
    value = key if value is None else _check_input("value", value, d_model, dtype)
    if key is not query or value is not query:  # cross-attention: the three must agree
        _check_agreement(query, key, value)
    batched = query.dim() == 3
    if not batched:
        query, key, value = query.unsqueeze(0), key.unsqueeze(0), value.unsqueeze(0)
    return query, key, value, batched


def _check_agreement(query: Tensor, key: Tensor, value: Tensor) -> None:
    """query, key and value all batched or all unbatched, with one batch size B; key and value of one Lk."""
    if not query.dim() == key.dim() == value.dim():
        shapes = tuple(tuple(t.shape) for t in (query, key, value))
        raise AttentionError(
            "bad_shape",
            f"query, key and value must all be batched (B, L, d_model) or all unbatched (L, d_model), "
            f"got shapes {shapes[0]}, {shapes[1]} and {shapes[2]}",
            shapes=shapes,
        )
    if query.dim() == 3 and not (query.shape[0] == key.shape[0] == value.shape[0]):
        sizes = (query.shape[0], key.shape[0], value.shape[0])
        raise AttentionError(
            "bad_shape",
            f"query, key and value must have the same batch size B, got {sizes[0]}, {sizes[1]} and "
            f"{sizes[2]}",
            batch_sizes=sizes,
        )
    if key.shape[-2] != value.shape[-2]:
        raise AttentionError(
            "bad_shape",
            f"key and value must have the same length Lk, got {key.shape[-2]} and {value.shape[-2]}",
            len_k=key.shape[-2],
            len_v=value.shape[-2],
        )


def _float_mask(m: object, name: str, dtype: torch.dtype) -> Tensor:
    """A boolean mask (True = may not attend) as 0 / -inf; a float mask checked and cast."""
    if not isinstance(m, Tensor):
        raise AttentionError("bad_mask", f"{name} must be a tensor", name=name)
    if m.dtype == torch.bool:
        return torch.zeros(m.shape, dtype=dtype).masked_fill(m, float("-inf"))
    if not m.is_floating_point():
        raise AttentionError("bad_mask", f"{name} must be boolean or float, got {m.dtype}", name=name)
    if torch.isnan(m).any() or torch.isposinf(m).any():
        raise AttentionError("bad_mask", f"{name} contains NaN or +inf", name=name)
    return m.to(dtype)


def _additive_mask(
    attn_mask: Tensor | None,
    key_padding_mask: Tensor | None,
    causal: bool,
    shape: tuple[int, int, int, int],
    batched: bool,
    dtype: torch.dtype,
    past: int = 0,
    window: int | None = None,
) -> Tensor | None:
    """Every mask summed into one float mask (0 or -inf, or any added float) of four axes that broadcasts
    to shape = (B, h, Lq, Lk); None when there is no mask. The causal mask counts the queries from past
    (the tokens already in a KV cache) and keeps only the last `window` keys when a window is given."""
    bsz, h, len_q, len_k = shape
    total: Tensor | None = None
    if attn_mask is not None:
        m = _float_mask(attn_mask, "attn_mask", dtype)
        if tuple(m.shape) not in ((len_q, len_k), (bsz * h, len_q, len_k)):
            raise AttentionError(
                "bad_mask",
                f"attn_mask must have shape ({len_q}, {len_k}) or ({bsz * h}, {len_q}, {len_k}), "
                f"got {tuple(m.shape)}",
                name="attn_mask",
            )
        total = m.view(-1, h, len_q, len_k) if m.dim() == 3 else m.view(1, 1, len_q, len_k)
    if key_padding_mask is not None:
        m = _float_mask(key_padding_mask, "key_padding_mask", dtype)
        expected = (bsz, len_k) if batched else (len_k,)
        if tuple(m.shape) != expected:
            raise AttentionError(
                "bad_mask",
                f"key_padding_mask must have shape {expected}, got {tuple(m.shape)}",
                name="key_padding_mask",
            )
        m = m.view(bsz, 1, 1, len_k)
        total = m if total is None else total + m
    if causal:
        m = causal_mask(len_q, len_k, dtype, past=past, window=window).view(1, 1, len_q, len_k)
        total = m if total is None else total + m
    return total


def _check_options(
    config: AttentionConfig,
    x_q: Tensor,
    key: object,
    value: object,
    causal: bool,
    formulation: str,
    window: object,
    cache: object,
    start: object,
) -> int:
    """The options of today's decoders (shared K/V, RoPE, ALiBi, window, cache, start) checked against each
    other; returns past, the number of tokens already in the cache (0 without one)."""
    used = [name for name, on in (("n_kv_heads", config.kv_heads != config.n_heads), ("rope", config.rope),
            ("alibi", config.alibi), ("window", window is not None), ("cache", cache is not None),
            ("start", bool(start))) if on]  # fmt: skip
    if formulation == "per_head":
        raise AttentionError(
            "unsupported", f"formulation='per_head' is the notes' layer; it does not take {', '.join(used)}",
            options=tuple(used),
        )
    if (key is not None or value is not None) and used != ["n_kv_heads"]:
        raise AttentionError(
            "unsupported",
            f"{', '.join(n for n in used if n != 'n_kv_heads')} need self-attention (positions of one sequence):"
            " call without key and value",
            options=tuple(used),
        )
    if window is not None:
        if isinstance(window, bool) or not isinstance(window, int) or window < 1:
            raise AttentionError("bad_window", f"window must be a whole number >= 1, got {window!r}", value=window)
        if not causal:
            raise AttentionError("bad_window", "a sliding window is causal: call with causal=True", value=window)
    if isinstance(start, bool) or not isinstance(start, int) or start < 0:
        raise AttentionError("bad_input", f"start must be a whole number >= 0, got {start!r}", name="start")
    if cache is None:
        return 0
    if not isinstance(cache, KVCache):
        raise AttentionError("bad_cache", f"cache must be a KVCache, got {type(cache).__name__}")
    if start:
        raise AttentionError("bad_input", "with a cache, positions continue the cache's: leave start at 0")
    cache.check(x_q.shape[0], config.kv_heads, config.d_k, x_q.dtype)
    return len(cache)


class _Weights(NamedTuple):
    """A module's parameters and their named views under the notes' names, as its forward uses them."""

    in_proj_weight: Tensor  # [W^Q | W^K | W^V] (d_model, d_model + 2 g d_k): (d_model, 3 d_model) when g = h
    in_proj_bias: Tensor | None  # [b^Q | b^K | b^V] (d_model + 2 g d_k,) or None
    w_q: Tensor  # views of the column blocks of in_proj_weight: W^Q (d_model, d_model), W^K, W^V (d_model, g d_k)
    w_k: Tensor
    w_v: Tensor
    b_q: Tensor | None  # views of in_proj_bias, (d_model,) and (g d_k,), or None
    b_k: Tensor | None
    b_v: Tensor | None
    w_o: Tensor  # out_proj_weight W^O (d_model, d_model)
    b_o: Tensor | None  # out_proj_bias b^O (d_model,)

    @classmethod
    def of(cls, w: Tensor, b: Tensor | None, w_o: Tensor, b_o: Tensor | None) -> _Weights:
        widths = _qkv_widths(w_o.shape[0], (w.shape[1] - w_o.shape[0]) // 2)  # d_model, g d_k, g d_k
        b_qkv = (None, None, None) if b is None else b.split(widths)
        return cls(w, b, *w.split(widths, dim=1), *b_qkv, w_o, b_o)


class MultiHeadAttention(_NamedWeights, nn.Module):
    """Multi-head attention whose forward returns an AttentionTrace.

    Parameters (notes' convention, x @ W): in_proj_weight (d_model, 3 d_model) = [W^Q | W^K | W^V],
    in_proj_bias (3 d_model) = [b^Q | b^K | b^V], out_proj_weight W^O (d_model, d_model), out_proj_bias
    b^O (d_model); w_q, b_q, ..., w_o, b_o are views of them (_NamedWeights). With g = n_kv_heads < h,
    W^K and W^V are (d_model, g d_k), so the in-projection is (d_model, d_model + 2 g d_k).
    Seeded init: the same config always gives the same weights (xavier-uniform in-projection and
    uniform(+-1/sqrt(d_model)) output projection, as torch; biases start at zero, as torch).
    """

    def __init__(self, config: AttentionConfig) -> None:
        super().__init__()
        self.config = config
        d, width = config.d_model, config.d_model + 2 * config.kv_heads * config.d_k  # width = 3 d without sharing
        g = torch.Generator().manual_seed(config.seed)
        bound_in = math.sqrt(6.0 / (d + width))
        bound_out = 1.0 / math.sqrt(d)
        self.in_proj_weight = nn.Parameter((torch.rand(d, width, generator=g) * 2 - 1) * bound_in)
        self.out_proj_weight = nn.Parameter((torch.rand(d, d, generator=g) * 2 - 1) * bound_out)
        if config.bias:
            self.in_proj_bias = nn.Parameter(torch.zeros(width))
            self.out_proj_bias = nn.Parameter(torch.zeros(d))
        else:
            self.register_parameter("in_proj_bias", None)
            self.register_parameter("out_proj_bias", None)
        self._views: tuple[tuple[int, int | None], _Weights] | None = None  # (memory, views): see qkv_weights
        # a layer of today's decoders (shared K/V, RoPE, ALiBi): the forward checks its options (_check_options)
        self._llm = config.kv_heads != config.n_heads or config.rope or config.alibi

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
        *,
        rope: bool = False,
        rope_base: float = 10000.0,
        alibi: bool = False,
    ) -> MultiHeadAttention:
        """Fused weights in the notes' convention, used as x @ W: W^Q and W^O (d_model, d_model), W^K and W^V
        (d_model, d_model), or (d_model, g d_k) for g K/V heads shared by the n_heads query heads."""
        dtype = w_q.dtype if isinstance(w_q, Tensor) and w_q.is_floating_point() else torch.get_default_dtype()
        mats = [torch.as_tensor(w, dtype=dtype) for w in (w_q, w_k, w_v, w_o)]
        d = mats[0].shape[0] if mats[0].dim() == 2 else -1
        for name, m in zip(("W^Q", "W^K", "W^V", "W^O"), mats, strict=True):
            if m.dim() != 2 or m.shape[0] != d or (name in ("W^Q", "W^O") and m.shape[1] != d):
                raise AttentionError(
                    "bad_shape",
                    f"{name} must be a square (d_model, d_model) matrix, got {tuple(m.shape)}",
                    name=name,
                    shape=tuple(m.shape),
                )
            if not torch.isfinite(m).all():
                raise AttentionError("not_finite", f"{name} contains NaN or infinity", name=name)
        validate_sizes(d, n_heads)
        d_k, kv_width = d // n_heads, mats[1].shape[1]
        for name, m in (("W^K", mats[1]), ("W^V", mats[2])):
            if m.shape[1] != kv_width or kv_width % d_k or n_heads % max(1, kv_width // d_k):
                raise AttentionError(
                    "bad_shape",
                    f"{name} must be a square (d_model, d_model) matrix, or (d_model, g d_k) with g dividing "
                    f"n_heads={n_heads} and W^K, W^V of one shape, got {tuple(m.shape)}",
                    name=name,
                    shape=tuple(m.shape),
                )
        biases = [b_q, b_k, b_v, b_o]
        has_bias = any(b is not None for b in biases)
        g = None if kv_width == d else kv_width // d_k  # None: no sharing, the notes' layer
        cfg = AttentionConfig(
            d_model=d, n_heads=n_heads, bias=has_bias, scale=scale, n_kv_heads=g, rope=rope, rope_base=rope_base,
            alibi=alibi,
        )
        mha = cls(cfg).to(dtype)
        with torch.no_grad():
            mha.in_proj_weight.copy_(torch.cat(mats[:3], dim=1))
            mha.out_proj_weight.copy_(mats[3])
            if has_bias:
                widths = (d, kv_width, kv_width, d)
                b = [torch.zeros(n) if x is None else torch.as_tensor(x, dtype=mats[0].dtype)
                     for x, n in zip(biases, widths, strict=True)]  # fmt: skip
                for name, vec, n in zip(("b^Q", "b^K", "b^V", "b^O"), b, widths, strict=True):
                    if tuple(vec.shape) != (n,):
                        raise AttentionError(
                            "bad_shape", f"{name} must have shape ({n},), got {tuple(vec.shape)}", name=name
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
    def from_llama(cls, attn: nn.Module) -> MultiHeadAttention:
        """Copy a transformers LlamaAttention (q_proj, k_proj, v_proj, o_proj hold W^T, as torch): h query heads,
        g = num_key_value_heads K/V heads, RoPE with the config's rope_theta. Call the copy with causal=True:
        positions 0..L-1 then give the Llama module's output and weights (eager attention, no attention mask
        beyond the causal one). Plain RoPE only (rope_type "default"), and head_dim = hidden_size / heads."""
        cfg = attn.config
        h, d, head_dim = cfg.num_attention_heads, cfg.hidden_size, attn.head_dim
        rope = dict(getattr(cfg, "rope_parameters", None) or {})
        if rope.get("rope_type", "default") != "default":
            raise AttentionError("unsupported", f"RoPE scaling {rope.get('rope_type')!r} is not supported")
        if head_dim * h != d:
            raise AttentionError("unsupported", f"head_dim={head_dim} must equal hidden_size / heads = {d / h:g}")
        layers = (attn.q_proj, attn.k_proj, attn.v_proj, attn.o_proj)
        w = [layer.weight.detach().T for layer in layers]  # torch applies x @ W^T
        b = [None if layer.bias is None else layer.bias.detach() for layer in layers]
        base = float(rope.get("rope_theta", getattr(cfg, "rope_theta", 10000.0)))
        return cls.from_weights(h, *w, *b, rope=True, rope_base=base)

    @classmethod
    def from_torch(cls, torch_mha: nn.MultiheadAttention) -> MultiHeadAttention:
        """Copy the weights of a torch.nn.MultiheadAttention (same q/k/v width, no bias_k/v, no zero attn)."""
        if not torch_mha._qkv_same_embed_dim:
            raise AttentionError("unsupported", "kdim/vdim different from embed_dim are not supported")
        if torch_mha.bias_k is not None or torch_mha.add_zero_attn:
            raise AttentionError("unsupported", "add_bias_kv and add_zero_attn are not supported")
        # torch stores [W^Q; W^K; W^V] stacked by rows (3 d_model, d_model) and applies it as x @ W^T
        w_q, w_k, w_v = (w.T for w in torch_mha.in_proj_weight.detach().chunk(3))
        in_bias = torch_mha.in_proj_bias
        b_q, b_k, b_v = (None, None, None) if in_bias is None else in_bias.detach().chunk(3)
        w_o = torch_mha.out_proj.weight.detach().T
        b_o = None if torch_mha.out_proj.bias is None else torch_mha.out_proj.bias.detach()
        return cls.from_weights(torch_mha.num_heads, w_q, w_k, w_v, w_o, b_q, b_k, b_v, b_o)

    # ----- named views of the parameters (the weights themselves: _NamedWeights) ------------------
    def qkv_weights(self) -> tuple[Tensor, Tensor, Tensor]:
        """W^Q, W^K, W^V, each (d_model, d_model): views of [W^Q | W^K | W^V], made once per parameter.

        A view shares the parameter's memory, so an in-place edit (W[i, j] = x, copy_, an optimiser step)
        shows in it at once; a new parameter or new memory (assignment, .data = ..., .to(...)) gets new
        views. With autograd on they are made afresh on every call, so gradients reach the parameters."""
        p = self._weights()
        return p.w_q, p.w_k, p.w_v

    def qkv_biases(self) -> tuple[Tensor | None, Tensor | None, Tensor | None]:
        """b^Q, b^K, b^V, each (d_model,): views of [b^Q | b^K | b^V] (as qkv_weights); all None without biases."""
        p = self._weights()
        return p.b_q, p.b_k, p.b_v

    def _weights(self) -> _Weights:
        """The four parameters and the views W^Q, ..., b^V, kept while the parameters and memory they view
        stay the same (qkv_weights). Read from _parameters at once: nn.Module's attribute lookup is slow."""
        p = self._parameters
        w, b, w_o, b_o = p["in_proj_weight"], p["in_proj_bias"], p["out_proj_weight"], p["out_proj_bias"]
        if torch.is_grad_enabled():
            return _Weights.of(w, b, w_o, b_o)
        memory = (w.data_ptr(), None if b is None else b.data_ptr())
        if self._views is not None:
            kept_memory, kept = self._views
            same = kept.in_proj_weight is w and kept.in_proj_bias is b and kept.w_o is w_o and kept.b_o is b_o
            if same and kept_memory == memory:
                return kept
        kept = _Weights.of(w, b, w_o, b_o)
        self._views = (memory, kept)
        return kept

    @property
    def n_heads(self) -> int:
        return self.config.n_heads

    @property
    def n_kv_heads(self) -> int:
        """g, the number of K/V heads (= n_heads without sharing)."""
        return self.config.kv_heads

    @property
    def scale_factor(self) -> float:
        """1 / sqrt(d_k), the factor the scores are multiplied by; 1 when the config has scale=False."""
        return 1.0 / math.sqrt(self.config.d_k) if self.config.scale else 1.0

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
        window: int | None = None,
        cache: KVCache | None = None,
        start: int = 0,
    ) -> AttentionTrace:
        """Self-attention when key/value are None; cross-attention otherwise (value defaults to key).

        Masks follow torch: a boolean True means "may not attend", a float mask is added to the scores.
        attn_mask is (Lq, Lk) or (B*h, Lq, Lk); key_padding_mask is (B, Lk) or (Lk,) when unbatched;
        causal=True masks every key j > query i. A query whose keys are all masked gets weights 0 and
        therefore a head output of 0 (torch gives NaN there).
        formulation="per_head" computes each head with its own W_i (notes 000/001, `_per_head`) instead
        of the fused matrices split by reshape (notes 002/004, below); both give the same numbers.
        Today's decoders (self-attention, fused): window=w with causal=True lets each query see its last w
        keys; cache=KVCache() appends the new tokens' K and V to the cache and attends over every key so far
        (Lk = tokens cached before + Lq; masks then cover all Lk keys); start=s puts the first token at position
        s (RoPE turns by position; with a cache, positions continue the cache's).
        """
        c, h, g, scale = self.config, self.n_heads, self.config.kv_heads, self.scale_factor
        p = self._weights()  # W^Q, W^O (d_model, d_model), W^K, W^V (d_model, g d_k), biases or None
        x_q, x_k, x_v, batched = _check_inputs(query, key, value, c.d_model, p.w_o.dtype, formulation)
        if self._llm or window is not None or cache is not None or start:
            past = _check_options(c, x_q, key, value, causal, formulation, window, cache, start)
        else:
            past = 0  # the notes' layer: no option to check
        bsz, len_q, len_k = x_q.shape[0], x_q.shape[1], past + x_k.shape[1]
        mask = _additive_mask(
            attn_mask, key_padding_mask, causal, (bsz, h, len_q, len_k), batched, x_q.dtype, past, window
        )
        if formulation == "per_head":
            q, k, v, scores, masked_scores, weights, head_outputs = self._per_head(x_q, x_k, x_v, mask)
        else:
            q = split_heads(_linear(x_q, p.w_q, p.b_q), h)  # (B, h, Lq, d_k)   Q = X W^Q, split into heads
            k = split_heads(_linear(x_k, p.w_k, p.b_k), g)  # (B, g, Lq, d_k)   K = X W^K, g heads (g = h: MHA)
            v = split_heads(_linear(x_v, p.w_v, p.b_v), g)  # (B, g, Lq, d_k)   V = X W^V
            if c.rope:  # turn each coordinate pair of Q and K by the token's position
                at = torch.arange(start + past, start + past + len_q)  # (Lq,) positions of the new tokens
                q, k = apply_rope(q, at, c.rope_base), apply_rope(k, at, c.rope_base)  # (B, h | g, Lq, d_k)
            if cache is not None:
                k, v = cache.append(k, v)  # (B, g, Lk, d_k)   every key and value so far
            scores = (q @ share_kv(k, h).transpose(-2, -1)) * scale  # (B, h, Lq, Lk)
            if c.alibi:
                scores = scores + alibi_bias(h, len_q, len_k, past, scores.dtype)  # (B, h, Lq, Lk) - m_a (i - j)
            masked_scores = scores if mask is None else scores + mask  # (B, h, Lq, Lk)
            weights = _masked_softmax(masked_scores, mask)  # (B, h, Lq, Lk)
            head_outputs = weights @ share_kv(v, h)  # (B, h, Lq, d_k)   head_i = A_i V_i (V_j shared by its group)
        concat = merge_heads(head_outputs)  # (B, Lq, d_model)
        output = _linear(concat, p.w_o, p.b_o)  # (B, Lq, d_model)   Y = Concat W^O (+ b^O)
        hidden = None if mask is None else torch.isneginf(mask).expand(bsz, h, len_q, len_k)  # (B, h, Lq, Lk)
        tensors = (x_q, x_k, x_v, q, k, v, scores, masked_scores, weights, head_outputs, concat, output, hidden)
        if not batched:
            tensors = tuple(None if t is None else t[0] for t in tensors)  # drop the batch axis again
        return AttentionTrace._of(*tensors, p.in_proj_weight, p.in_proj_bias, p.w_o, p.b_o, h, g, scale)

    def _per_head(
        self, x_q: Tensor, x_k: Tensor, x_v: Tensor, mask: Tensor | None
    ) -> tuple[Tensor, Tensor, Tensor, Tensor, Tensor, Tensor, Tensor]:
        """Each head on its own (notes 000/001): Q_i = X W_i^Q, A_i = softmax(Q_i K_i^T / sqrt(d_k)),
        head_i = A_i V_i. Returns q, k, v, scores, masked_scores, weights, head_outputs stacked over heads."""
        h = self.n_heads
        w_heads = (self.w_q_heads, self.w_k_heads, self.w_v_heads)  # each (h, d_model, d_k)
        b_heads = [[None] * h if b is None else b.view(h, -1) for b in (self.b_q, self.b_k, self.b_v)]  # (h, d_k)
        per_head: list[tuple[Tensor, ...]] = []
        for i in range(h):
            q_i, k_i, v_i = (
                _linear(x, w[i], b[i]) for x, w, b in zip((x_q, x_k, x_v), w_heads, b_heads, strict=True)
            )  # (B, Lq, d_k), (B, Lk, d_k), (B, Lk, d_k)
            s_i = (q_i @ k_i.transpose(-2, -1)) * self.scale_factor  # (B, Lq, Lk)
            m_i = s_i if mask is None else s_i + mask[:, min(i, mask.shape[1] - 1)]  # (B, Lq, Lk)
            a_i = _masked_softmax(m_i, mask)  # (B, Lq, Lk)
            per_head.append((q_i, k_i, v_i, s_i, m_i, a_i, a_i @ v_i))  # head_i = A_i V_i: (B, Lq, d_k)
        return tuple(torch.stack(parts, dim=1) for parts in zip(*per_head, strict=True))  # each (B, h, ...)


def causal_mask(
    len_q: int,
    len_k: int | None = None,
    dtype: torch.dtype = torch.float32,
    *,
    past: int = 0,
    window: int | None = None,
) -> Tensor:
    """(Lq, Lk) float mask: 0 where key j <= query i, -inf where j > i (no looking ahead).

    Query i sits at position past + i (past: tokens already in a KV cache; Lk defaults to past + Lq).
    With a window w, keys j <= i - w are hidden too: each query sees its last w keys (itself included).
    """
    len_k = len_q + past if len_k is None else len_k
    query_at = torch.arange(len_q).unsqueeze(1)  # (Lq, 1): position of query i
    if past:
        query_at = query_at + past
    ahead = torch.arange(len_k) > query_at  # (Lq, Lk): key j > query i
    if window is not None:
        ahead |= torch.arange(len_k) <= query_at - window  # (Lq, Lk): key j too far back
    return torch.zeros(len_q, len_k, dtype=dtype).masked_fill(ahead, float("-inf"))
