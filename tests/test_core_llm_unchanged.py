"""With every new option off, the forward computes the notes' layer bit for bit as before the options came.

`today` below is the forward as it was (mha_core/attention.py before grouped K/V heads, RoPE, ALiBi, windows
and the cache), written out with the core's own helpers: the same torch operations in the same order, so
the numbers are equal exactly (torch.equal) by construction, not within a tolerance. A config with
n_kv_heads = n_heads is the same layer too: same weights, same trace.
"""

from __future__ import annotations

import dataclasses

import pytest
import torch
from torch import Tensor

from mha_core import AttentionConfig, AttentionTrace, KVCache, MultiHeadAttention, merge_heads, split_heads
from mha_core.attention import _additive_mask, _check_inputs, _linear, _masked_softmax


def today(mha: MultiHeadAttention, query, key=None, value=None, attn_mask=None, key_padding_mask=None,
          causal=False) -> tuple[Tensor, ...]:  # fmt: skip
    """The fused forward before today's options: its tensors (q, k, v, scores, ..., output, mask)."""
    h, scale = mha.config.n_heads, mha.scale_factor
    w_q, w_k, w_v = mha.in_proj_weight.chunk(3, dim=1)
    b_q, b_k, b_v = (None, None, None) if mha.in_proj_bias is None else mha.in_proj_bias.chunk(3)
    x_q, x_k, x_v, batched = _check_inputs(query, key, value, mha.config.d_model, w_q.dtype, "fused")
    bsz, len_q, len_k = x_q.shape[0], x_q.shape[1], x_k.shape[1]
    mask = _additive_mask(attn_mask, key_padding_mask, causal, (bsz, h, len_q, len_k), batched, x_q.dtype)
    q = split_heads(_linear(x_q, w_q, b_q), h)
    k = split_heads(_linear(x_k, w_k, b_k), h)
    v = split_heads(_linear(x_v, w_v, b_v), h)
    scores = (q @ k.transpose(-2, -1)) * scale
    masked_scores = scores if mask is None else scores + mask
    weights = _masked_softmax(masked_scores, mask)
    head_outputs = weights @ v
    concat = merge_heads(head_outputs)
    output = _linear(concat, mha.out_proj_weight, mha.out_proj_bias)
    hidden = None if mask is None else torch.isneginf(mask).expand(bsz, h, len_q, len_k)
    tensors = (x_q, x_k, x_v, q, k, v, scores, masked_scores, weights, head_outputs, concat, output, hidden)
    return tensors if batched else tuple(None if t is None else t[0] for t in tensors)


TENSORS = ("query", "key", "value", "q", "k", "v", "scores", "masked_scores", "weights", "head_outputs",
           "concat", "output", "mask")  # fmt: skip


def assert_same(trace: AttentionTrace, expected: tuple[Tensor, ...]) -> None:
    for name, want in zip(TENSORS, expected, strict=True):
        got = getattr(trace, name)
        assert (got is None) == (want is None), name
        assert got is None or torch.equal(got, want), f"{name} differs"


def randn(*shape: int, seed: int = 0) -> Tensor:
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("scale", [True, False])
@pytest.mark.parametrize("batched", [True, False])
def test_every_option_off_is_bit_for_bit_the_forward_of_before(bias: bool, scale: bool, batched: bool) -> None:
    mha = MultiHeadAttention(AttentionConfig(24, 4, bias=bias, scale=scale, seed=3))
    with torch.no_grad():
        if bias:
            mha.in_proj_bias.normal_()
            mha.out_proj_bias.normal_()
    x, y = randn(2, 6, 24, seed=1), randn(2, 4, 24, seed=2)
    pad = torch.tensor([[False] * 5 + [True], [False] * 6])
    attn = randn(6, 6, seed=4).masked_fill(torch.eye(6, dtype=torch.bool).roll(1, 1), float("-inf"))
    cases = [
        ((x,), {}),
        ((x,), {"causal": True}),
        ((x,), {"key_padding_mask": pad, "causal": True}),
        ((x,), {"attn_mask": attn}),
        ((x, y), {}),
        ((x, y), {"causal": True}),
    ]
    for args, masks in cases:
        if not batched:
            args = tuple(a[0] for a in args)
            masks = {k: (m[0] if k == "key_padding_mask" else m) for k, m in masks.items()}
        assert_same(mha(*args, **masks), today(mha, *args, **masks))


def test_the_in_projection_is_the_same_parameter_as_before() -> None:
    mha = MultiHeadAttention(AttentionConfig(16, 4, seed=5))
    g = torch.Generator().manual_seed(5)  # the init of before, written out
    bound = (6.0 / (16 + 3 * 16)) ** 0.5
    assert torch.equal(mha.in_proj_weight.detach(), (torch.rand(16, 48, generator=g) * 2 - 1) * bound)
    assert tuple(mha.in_proj_bias.shape) == (48,)


def test_n_kv_heads_equal_to_n_heads_is_todays_module() -> None:
    plain = MultiHeadAttention(AttentionConfig(32, 8, seed=2))
    shared = MultiHeadAttention(AttentionConfig(32, 8, seed=2, n_kv_heads=8))
    for a, b in zip(plain.parameters(), shared.parameters(), strict=True):
        assert torch.equal(a, b)
    x = randn(3, 5, 32)
    a, b = plain(x, causal=True), shared(x, causal=True)
    for f in dataclasses.fields(AttentionTrace):
        va, vb = getattr(a, f.name), getattr(b, f.name)
        assert torch.equal(va, vb) if isinstance(va, Tensor) else va == vb, f.name
    assert a.kv_groups == tuple((i,) for i in range(8))


def test_a_window_wider_than_the_sequence_and_an_empty_cache_change_nothing() -> None:
    mha = MultiHeadAttention(AttentionConfig(16, 2, seed=1))
    x = randn(7, 16)
    plain = mha(x, causal=True)
    assert_same(mha(x, causal=True, window=7), today(mha, x, causal=True))
    cached = mha(x, causal=True, cache=KVCache())
    for name in ("q", "k", "v", "scores", "weights", "output"):
        assert torch.equal(getattr(cached, name), getattr(plain, name)), name
