"""Properties of today's decoder attention that hold for every size and input (hypothesis draws them).

- g = h K/V heads is the notes' multi-head attention; g < h equals every query head using its group's K/V
  (weights copied into a g = h module, written here).
- RoPE: the scores depend on the distance m - n only (shift the whole sentence, same scores); turning keeps
  lengths.
- ALiBi: the bias is -m_i (i - j) per head, the same for every shift, steeper for head 1 than for head h.
- A causal window of w >= L keys is full causal attention; a window of 1 sees only itself.
- Tiled attention equals softmax attention for every block size.
- Decoding with a KV cache equals the full causal forward at every step.
"""

from __future__ import annotations

import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from torch import Tensor

from mha_core import (
    AttentionConfig,
    KVCache,
    MultiHeadAttention,
    alibi_bias,
    alibi_slopes,
    apply_rope,
    causal_mask,
    tiled_attention,
)

FAST = settings(max_examples=40, deadline=None)
CLOSE = {"rtol": 1e-9, "atol": 1e-10}  # float64 throughout


@st.composite
def layers(draw: st.DrawFn, rope: bool | None = None, alibi: bool | None = None) -> tuple[MultiHeadAttention, Tensor]:
    """A float64 layer with any valid (h, g, d_k) and options, and an input (B, L, d_model)."""
    n_heads = draw(st.sampled_from([1, 2, 3, 4, 6]))
    g = draw(st.sampled_from([d for d in range(1, n_heads + 1) if n_heads % d == 0]))
    d_k = 2 * draw(st.integers(1, 3))
    use_rope = draw(st.booleans()) if rope is None else rope
    use_alibi = (not use_rope and draw(st.booleans())) if alibi is None else alibi
    seed = draw(st.integers(0, 2**16))
    config = AttentionConfig(d_k * n_heads, n_heads, bias=draw(st.booleans()), seed=seed, n_kv_heads=g,
                             rope=use_rope, alibi=use_alibi)  # fmt: skip
    x = torch.randn(draw(st.integers(1, 2)), draw(st.integers(1, 9)), d_k * n_heads,
                    generator=torch.Generator().manual_seed(seed), dtype=torch.float64)  # fmt: skip
    return MultiHeadAttention(config).double(), x


@FAST
@given(layers(rope=False, alibi=False))
def test_shared_kv_heads_equal_each_query_head_using_its_groups_k_and_v(case) -> None:
    mha, x = case
    h, g, d_k = mha.n_heads, mha.n_kv_heads, mha.d_k
    # the same layer without sharing: W_i^K = W_{i // (h/g)}^K for every query head i (written here)
    w_k = torch.cat([mha.w_k_heads[i * g // h] for i in range(h)], dim=1)
    w_v = torch.cat([mha.w_v_heads[i * g // h] for i in range(h)], dim=1)
    b_k = None if mha.b_k is None else torch.cat([mha.b_k.view(g, d_k)[i * g // h] for i in range(h)])
    b_v = None if mha.b_v is None else torch.cat([mha.b_v.view(g, d_k)[i * g // h] for i in range(h)])
    full = MultiHeadAttention.from_weights(h, mha.w_q, w_k, w_v, mha.w_o, mha.b_q, b_k, b_v, mha.b_o)
    assert full.n_kv_heads == h
    for causal in (False, True):
        ours, expected = mha(x, causal=causal), full(x, causal=causal)
        torch.testing.assert_close(ours.weights, expected.weights, **CLOSE)
        torch.testing.assert_close(ours.output, expected.output, **CLOSE)
    assert sorted(i for group in ours.kv_groups for i in group) == list(range(h))


@FAST
@given(layers(rope=True), st.integers(0, 5000))
def test_rope_scores_depend_only_on_the_distance(case, shift: int) -> None:
    mha, x = case
    at_zero, shifted = mha(x, causal=True), mha(x, causal=True, start=shift)
    torch.testing.assert_close(shifted.scores, at_zero.scores, rtol=1e-7, atol=1e-7)
    torch.testing.assert_close(shifted.output, at_zero.output, rtol=1e-7, atol=1e-7)
    if shift:  # the queries themselves did turn (unless they are 0): only their dot products stay
        assert not torch.allclose(shifted.q, at_zero.q) or at_zero.q.abs().max() < 1e-6


@FAST
@given(st.integers(1, 40).map(lambda n: 2 * n), st.integers(1, 12), st.integers(0, 10_000))
def test_rope_keeps_lengths_and_dot_products_depend_on_m_minus_n(d_k: int, length: int, seed: int) -> None:
    gen = torch.Generator().manual_seed(seed)
    q, k = (torch.randn(length, d_k, generator=gen, dtype=torch.float64) for _ in range(2))
    m = torch.randint(0, 4096, (length,), generator=gen)
    n = torch.randint(0, 4096, (length,), generator=gen)
    rq, rk = apply_rope(q, m), apply_rope(k, n)
    torch.testing.assert_close(rq.norm(dim=-1), q.norm(dim=-1), rtol=1e-12, atol=1e-12)
    # the same pair at positions (m - n, 0): the score is the same
    rq0, rk0 = apply_rope(q, m - n + 4096), apply_rope(k, torch.full((length,), 4096))
    torch.testing.assert_close((rq * rk).sum(-1), (rq0 * rk0).sum(-1), rtol=1e-8, atol=1e-8)


@FAST
@given(st.integers(1, 17), st.integers(1, 9), st.integers(0, 20))
def test_alibi_bias_is_minus_slope_times_distance(n_heads: int, length: int, past: int) -> None:
    bias = alibi_bias(n_heads, length, past=past).double()
    slopes = alibi_slopes(n_heads).double()
    for i in range(length):
        for j in range(past + length):
            torch.testing.assert_close(bias[:, i, j], -slopes * (past + i - j), rtol=1e-6, atol=1e-7)  # float32
    assert bool((slopes > 0).all() and (slopes < 1).all())
    if n_heads & (n_heads - 1) == 0:  # a power of two: the paper's 2^(-8/h), 2^(-16/h), ..., 2^(-8)
        expected = torch.tensor([2.0 ** (-8 * (i + 1) / n_heads) for i in range(n_heads)], dtype=torch.float64)
        torch.testing.assert_close(slopes, expected, rtol=1e-6, atol=0)


@FAST
@given(layers(), st.integers(0, 3))
def test_a_window_at_least_as_long_as_the_sequence_is_full_causal(case, extra: int) -> None:
    mha, x = case
    full = mha(x, causal=True)
    windowed = mha(x, causal=True, window=x.shape[1] + extra)
    torch.testing.assert_close(windowed.output, full.output, rtol=0, atol=0)
    only_self = mha(x, causal=True, window=1)
    eye = torch.eye(x.shape[1], dtype=torch.float64).expand_as(only_self.weights)
    torch.testing.assert_close(only_self.weights, eye, rtol=0, atol=0)  # exact: masked weights are 0, one key 1


@FAST
@given(st.integers(1, 9), st.integers(1, 9), st.integers(1, 12), st.booleans(), st.integers(0, 10_000))
def test_tiled_attention_equals_softmax_attention_for_every_block_size(len_q, len_k, block, causal, seed) -> None:
    gen = torch.Generator().manual_seed(seed)
    q, k, v = (torch.randn(2, n, 4, generator=gen, dtype=torch.float64) for n in (len_q, len_k, len_k))
    mask = causal_mask(len_q, len_k, torch.float64) if causal else None
    scores = q @ k.transpose(-2, -1) / 2.0 + (0 if mask is None else mask)  # written here: softmax attention
    expected = torch.softmax(scores, -1).nan_to_num(0.0) @ v  # a row with no visible key: 0 (as the core)
    tiled = tiled_attention(q, k, v, block, mask=mask)
    torch.testing.assert_close(tiled.output, expected, **CLOSE)
    assert tiled.running_max.shape[0] == len(range(0, len_k, block))


@FAST
@given(layers(), st.one_of(st.none(), st.integers(1, 4)), st.integers(1, 3))
def test_decoding_with_a_cache_equals_the_full_causal_forward_at_every_step(case, window, chunk) -> None:
    mha, x = case
    full = mha(x, causal=True, window=window)
    cache = KVCache()
    for t in range(0, x.shape[1], chunk):
        step = mha(x[:, t : t + chunk], causal=True, window=window, cache=cache)
        end = min(t + chunk, x.shape[1])
        torch.testing.assert_close(step.output, full.output[:, t:end], **CLOSE)
        torch.testing.assert_close(step.weights, full.weights[:, :, t:end, :end], **CLOSE)
        assert len(cache) == end
    torch.testing.assert_close(cache.k, full.k, **CLOSE)
    torch.testing.assert_close(cache.v, full.v, **CLOSE)
