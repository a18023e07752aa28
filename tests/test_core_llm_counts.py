"""The counts of mha_core/llm.py against the things they count.

- kv_cache_bytes against the bytes of a KVCache filled by real decoding steps (float16 and float32).
- decode_step_flops against torch's FlopCounterMode on the real forward: one cached step, and the whole
  forward a decoder without a cache runs again.
- window_reach against the sliding-window masks composed layer after layer (boolean matrix products), and
  window_receptive_field against autograd through real stacked windowed layers.
- mean_pool_kv against the group means written here.
- parameter_count with shared K/V heads against the module's own parameters.
- score_memory against the tensors the plain forward and tiled attention hold.
"""

from __future__ import annotations

import pytest
import torch
from torch.utils.flop_counter import FlopCounterMode

from mha_core import (
    AttentionConfig,
    AttentionError,
    KVCache,
    MultiHeadAttention,
    causal_mask,
    decode_step_flops,
    kv_cache_bytes,
    mean_pool_kv,
    parameter_count,
    score_memory,
    window_reach,
    window_receptive_field,
)


@pytest.mark.parametrize("dtype", [torch.float16, torch.float32])
@pytest.mark.parametrize(("heads", "kv_heads"), [(4, 4), (4, 2), (4, 1)])
def test_kv_cache_bytes_equal_a_filled_cache(dtype: torch.dtype, heads: int, kv_heads: int) -> None:
    layers = [MultiHeadAttention(AttentionConfig(8 * heads, heads, n_kv_heads=kv_heads, seed=i)).to(dtype)
              for i in range(3)]  # fmt: skip
    caches = [KVCache() for _ in layers]
    x = torch.randn(2, 6, 8 * heads).to(dtype)
    with torch.no_grad():
        for t in range(6):
            h = x[:, t : t + 1]
            for layer, cache in zip(layers, caches, strict=True):
                h = h + layer(h, causal=True, cache=cache).output
    counted = kv_cache_bytes(6, kv_heads, 8, n_layers=3, bytes_per_number=dtype.itemsize, batch=2)
    assert counted == sum(c.nbytes for c in caches)


def flops_of(call) -> int:
    with FlopCounterMode(display=False) as counter, torch.no_grad():
        call()
    return counter.get_total_flops()


@pytest.mark.parametrize(("heads", "kv_heads"), [(4, 4), (4, 2), (8, 1)])
def test_decode_step_flops_equal_torch_flop_counter(heads: int, kv_heads: int) -> None:
    d = 8 * heads
    mha = MultiHeadAttention(AttentionConfig(d, heads, n_kv_heads=kv_heads, rope=True, bias=False))
    x = torch.randn(9, d)
    cache = KVCache()
    for t in range(1, 10):
        cached = flops_of(lambda t=t: mha(x[t - 1 : t], causal=True, cache=cache))
        recomputed = flops_of(lambda t=t: mha(x[:t], causal=True))
        assert cached == decode_step_flops(t, d, heads, kv_heads, cached=True).total
        assert recomputed == decode_step_flops(t, d, heads, kv_heads, cached=False).total
        # recomputing t tokens projects t rows and scores t x t: t (P + A t) against P + A t, exactly t times
        assert recomputed == t * cached


def reach_by_composing_masks(length: int, window: int, n_layers: int) -> int:
    """Farthest key the last token depends on after n layers: the visibility matrices multiplied (written here)."""
    visible = ~torch.isneginf(causal_mask(length, window=window))  # (L, L): key j in query i's window
    reach = torch.eye(length, dtype=torch.bool)
    for _ in range(n_layers):
        reach = (reach.float() @ visible.float()) > 0  # through one more layer
    return length - 1 - int(reach[-1].nonzero().min())


@pytest.mark.parametrize("window", [1, 2, 3, 4, 7])
@pytest.mark.parametrize("n_layers", [1, 2, 3, 5])
def test_window_reach_equals_the_masks_composed(window: int, n_layers: int) -> None:
    assert window_reach(window, n_layers) == reach_by_composing_masks(64, window, n_layers)


@pytest.mark.parametrize(("heads", "kv_heads"), [(8, 8), (8, 4), (8, 1), (6, 3)])
@pytest.mark.parametrize("bias", [True, False])
def test_parameter_count_with_shared_kv_heads_equals_the_module(heads: int, kv_heads: int, bias: bool) -> None:
    d = 4 * heads
    mha = MultiHeadAttention(AttentionConfig(d, heads, bias=bias, n_kv_heads=kv_heads))
    count = parameter_count(d, heads, bias=bias, n_kv_heads=kv_heads)
    assert count.total == sum(p.numel() for p in mha.parameters())
    assert count.weights == 2 * d * d + 2 * d * kv_heads * (d // heads)
    assert (count.w_k, count.w_v) == (mha.w_k.numel(), mha.w_v.numel())


def test_score_memory_equals_the_tensors_held() -> None:
    length, block = 48, 8
    mha = MultiHeadAttention(AttentionConfig(16, 1))
    scores = mha(torch.randn(length, 16)).scores  # (h=1, L, L)
    memory = score_memory(length, length, block, bytes_per_number=4)
    assert memory.full == scores.nbytes
    one_block = scores[0, :, :block]  # (Lq, b) scores of one block, and a max and a sum per row
    assert memory.tiled == one_block.nbytes + 2 * scores[0, :, 0].nbytes


@pytest.mark.parametrize(
    "call",
    [lambda: kv_cache_bytes(0, 1, 1), lambda: decode_step_flops(1, 8, 4, 3), lambda: window_reach(0, 2),
     lambda: parameter_count(8, 4, n_kv_heads=3), lambda: score_memory(4, 4, 0)],
)  # fmt: skip
def test_counts_reject_impossible_sizes(call) -> None:
    with pytest.raises(AttentionError):
        call()


@pytest.mark.parametrize(("window", "n_layers"), [(1, 3), (2, 2), (3, 3), (4, 2), (5, 1)])
def test_window_receptive_field_equals_what_the_last_output_depends_on(window: int, n_layers: int) -> None:
    """The real thing: n stacked windowed layers, and autograd says which inputs move the last token's output."""
    length = 12
    layers = [MultiHeadAttention(AttentionConfig(8, 2, seed=i)).double() for i in range(n_layers)]
    x = torch.randn(length, 8, dtype=torch.float64, requires_grad=True)
    h = x
    for layer in layers:
        h = layer(h, causal=True, window=window).output
    (grad,) = torch.autograd.grad(h[-1].sum(), x)
    depends = grad.abs().sum(-1) > 0  # (L,): inputs the last output depends on
    field = window_receptive_field(length, window, n_layers)
    assert torch.equal(field[-1, -1], depends)
    assert length - 1 - int(depends.nonzero().min()) == min(window_reach(window, n_layers), length - 1)


def test_mean_pool_kv_averages_each_groups_k_and_v() -> None:
    mha = MultiHeadAttention(AttentionConfig(24, 6, seed=4))
    with torch.no_grad():
        mha.in_proj_bias.normal_()
    pooled = mean_pool_kv(mha, 2)
    assert (pooled.n_kv_heads, tuple(pooled.w_k.shape)) == (2, (24, 8))
    for j, group in enumerate(((0, 1, 2), (3, 4, 5))):  # written here: the mean of the group's column blocks
        expected_k = sum(mha.w_k[:, 4 * i : 4 * i + 4] for i in group) / 3
        torch.testing.assert_close(pooled.w_k[:, 4 * j : 4 * j + 4], expected_k)
        torch.testing.assert_close(pooled.b_v[4 * j : 4 * j + 4], sum(mha.b_v[4 * i : 4 * i + 4] for i in group) / 3)
    assert torch.equal(pooled.w_q, mha.w_q) and torch.equal(pooled.w_o, mha.w_o)
    x = torch.randn(5, 24)
    torch.testing.assert_close(mean_pool_kv(mha, 6)(x, causal=True).output, mha(x, causal=True).output)
    with pytest.raises(AttentionError):
        mean_pool_kv(pooled, 1)
