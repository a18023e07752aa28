"""The attention core equals torch.nn.MultiheadAttention, the independent oracle.

Every test copies a torch module into ours with `MultiHeadAttention.from_torch` and compares our
trace with what torch returns for `need_weights=True, average_attn_weights=False`: the output
(B, Lq, d_model) and the per-head attention weights (B, h, Lq, Lk). The modules are float64 so the
tolerances can be tight. Masks never mask a whole query row here: torch returns NaN for such a row,
ours defines it as 0 (tested in test_core_formulations.py).
"""

from __future__ import annotations

import random

import pytest
import torch
from torch import Tensor, nn

from mha_core import MultiHeadAttention

TIGHT = {"rtol": 1e-10, "atol": 1e-12}


def make_pair(
    d_model: int, n_heads: int, *, bias: bool = True, dtype: torch.dtype = torch.float64, seed: int = 0
) -> tuple[MultiHeadAttention, nn.MultiheadAttention]:
    """A torch module with random weights (and random, not zero, biases) and our copy of it."""
    torch.manual_seed(seed)
    ref = nn.MultiheadAttention(d_model, n_heads, bias=bias, batch_first=True, dtype=dtype)
    if bias:  # torch starts its biases at zero; random ones make the bias handling matter
        nn.init.normal_(ref.in_proj_bias)
        nn.init.normal_(ref.out_proj.bias)
    ref.eval()
    return MultiHeadAttention.from_torch(ref), ref


def torch_attention(ref: nn.MultiheadAttention, query: Tensor, key: Tensor, value: Tensor, **masks):
    """torch's (output, per-head weights)."""
    with torch.no_grad():
        return ref(query, key, value, need_weights=True, average_attn_weights=False, **masks)


def assert_matches(trace, expected_output: Tensor, expected_weights: Tensor, tol: dict = TIGHT) -> None:
    torch.testing.assert_close(trace.weights, expected_weights, **tol)
    torch.testing.assert_close(trace.output, expected_output, **tol)


def randn(*shape: int, seed: int = 1) -> Tensor:
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed), dtype=torch.float64)


def random_bool_mask(*shape: int, seed: int = 2, p: float = 0.4) -> Tensor:
    """True = may not attend; key 0 always stays visible so that no query row is fully masked."""
    m = torch.rand(*shape, generator=torch.Generator().manual_seed(seed)) < p
    m[..., 0] = False
    return m


def random_float_mask(*shape: int, seed: int = 3) -> Tensor:
    """Additive mask: finite values plus some -inf (key 0 stays finite)."""
    m = randn(*shape, seed=seed)
    m[random_bool_mask(*shape, seed=seed + 100)] = float("-inf")
    return m


# ----- the plain case, with and without biases -----------------------------------------------------


@pytest.mark.parametrize("bias", [True, False], ids=["bias", "no_bias"])
def test_self_attention_matches_torch_multihead_attention(bias: bool) -> None:
    ours, ref = make_pair(16, 4, bias=bias)
    x = randn(3, 5, 16)
    assert_matches(ours(x), *torch_attention(ref, x, x, x))


@pytest.mark.parametrize("bias", [True, False], ids=["bias", "no_bias"])
def test_unbatched_input_matches_torch_and_drops_the_batch_dimension(bias: bool) -> None:
    ours, ref = make_pair(12, 3, bias=bias)
    x = randn(6, 12)
    out, w = torch_attention(ref, x, x, x)
    trace = ours(x)
    assert trace.output.shape == (6, 12) and trace.weights.shape == (3, 6, 6)
    assert_matches(trace, out, w)


def test_random_biases_change_the_result() -> None:
    """Guards the two tests above: with non-zero biases, dropping them would be caught."""
    ours, _ = make_pair(16, 4, bias=True)
    no_bias = MultiHeadAttention.from_weights(4, ours.w_q, ours.w_k, ours.w_v, ours.w_o)
    x = randn(2, 5, 16)
    assert not torch.allclose(ours(x).output, no_bias(x).output, atol=1e-3)


def test_from_torch_converts_torch_x_w_transpose_to_the_notes_x_w() -> None:
    """torch stores W^T (it computes x W^T); the notes and our trace use x W with W (d_model, d_model)."""
    ours, ref = make_pair(8, 2)
    d = 8
    trace = ours(randn(4, d))
    for i, w in enumerate((trace.w_q, trace.w_k, trace.w_v)):
        torch.testing.assert_close(w, ref.in_proj_weight[i * d : (i + 1) * d].T, rtol=0, atol=0)
    for i, b in enumerate((trace.b_q, trace.b_k, trace.b_v)):
        torch.testing.assert_close(b, ref.in_proj_bias[i * d : (i + 1) * d], rtol=0, atol=0)
    torch.testing.assert_close(trace.w_o, ref.out_proj.weight.T, rtol=0, atol=0)
    torch.testing.assert_close(trace.b_o, ref.out_proj.bias, rtol=0, atol=0)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_from_torch_keeps_the_dtype(dtype: torch.dtype) -> None:
    ours, ref = make_pair(8, 2, dtype=dtype)
    x = torch.randn(2, 3, 8, dtype=dtype)
    trace = ours(x)
    assert ours.in_proj_weight.dtype == dtype and trace.output.dtype == dtype
    tol = TIGHT if dtype == torch.float64 else {"rtol": 1e-5, "atol": 1e-5}
    assert_matches(trace, *torch_attention(ref, x, x, x), tol=tol)


# ----- masks ------------------------------------------------------------------------------------------


def test_boolean_attn_mask_matches_torch() -> None:
    ours, ref = make_pair(16, 4)
    x = randn(2, 6, 16)
    mask = random_bool_mask(6, 6)
    assert_matches(ours(x, attn_mask=mask), *torch_attention(ref, x, x, x, attn_mask=mask))


def test_float_attn_mask_is_added_to_the_scores_as_torch_does() -> None:
    ours, ref = make_pair(16, 4)
    x = randn(2, 6, 16)
    mask = random_float_mask(6, 6)
    assert_matches(ours(x, attn_mask=mask), *torch_attention(ref, x, x, x, attn_mask=mask))


@pytest.mark.parametrize("kind", ["bool", "float"])
def test_per_head_3d_attn_mask_of_shape_batch_times_heads_matches_torch(kind: str) -> None:
    bsz, h, length = 2, 4, 5
    ours, ref = make_pair(16, h)
    x = randn(bsz, length, 16)
    shape = (bsz * h, length, length)
    mask = random_bool_mask(*shape) if kind == "bool" else random_float_mask(*shape)
    assert_matches(ours(x, attn_mask=mask), *torch_attention(ref, x, x, x, attn_mask=mask))


def test_unbatched_3d_attn_mask_has_one_slice_per_head() -> None:
    ours, ref = make_pair(12, 3)
    x = randn(5, 12)
    mask = random_bool_mask(3, 5, 5)
    assert_matches(ours(x, attn_mask=mask), *torch_attention(ref, x, x, x, attn_mask=mask))


@pytest.mark.parametrize("kind", ["bool", "float"])
def test_key_padding_mask_matches_torch(kind: str) -> None:
    ours, ref = make_pair(16, 4)
    x = randn(3, 6, 16)
    pad = torch.tensor([[False] * 6, [False] * 4 + [True] * 2, [False] + [True] * 5])  # 0, 2, 5 pads
    mask = pad if kind == "bool" else torch.zeros(3, 6, dtype=torch.float64).masked_fill(pad, float("-inf"))
    assert_matches(ours(x, key_padding_mask=mask), *torch_attention(ref, x, x, x, key_padding_mask=mask))


def test_unbatched_key_padding_mask_is_one_flag_per_key() -> None:
    ours, ref = make_pair(8, 2)
    x = randn(4, 8)
    pad = torch.tensor([False, False, True, True])
    assert_matches(ours(x, key_padding_mask=pad), *torch_attention(ref, x, x, x, key_padding_mask=pad))


@pytest.mark.parametrize("kind", ["bool", "float"])
def test_attn_mask_and_key_padding_mask_together_match_torch(kind: str) -> None:
    ours, ref = make_pair(16, 4)
    x = randn(2, 6, 16)
    attn = random_bool_mask(6, 6)
    pad = torch.tensor([[False] * 5 + [True], [False] * 3 + [True] * 3])
    if kind == "float":  # torch wants both masks of the same kind
        attn, pad = (torch.zeros(m.shape, dtype=torch.float64).masked_fill(m, float("-inf")) for m in (attn, pad))
    expected = torch_attention(ref, x, x, x, attn_mask=attn, key_padding_mask=pad)
    assert_matches(ours(x, attn_mask=attn, key_padding_mask=pad), *expected)


def test_causal_equals_torch_with_the_upper_triangular_boolean_mask() -> None:
    """torch's is_causal is only a hint that needs attn_mask too, so the oracle gets the explicit mask."""
    ours, ref = make_pair(16, 4)
    x = randn(2, 7, 16)
    triu = torch.ones(7, 7, dtype=torch.bool).triu(diagonal=1)  # True = key j > query i: not visible
    assert_matches(ours(x, causal=True), *torch_attention(ref, x, x, x, attn_mask=triu))


# ----- cross-attention --------------------------------------------------------------------------------


@pytest.mark.parametrize("bias", [True, False], ids=["bias", "no_bias"])
def test_cross_attention_with_lq_different_from_lk_matches_torch(bias: bool) -> None:
    ours, ref = make_pair(16, 4, bias=bias)
    query, memory = randn(2, 3, 16, seed=1), randn(2, 7, 16, seed=2)
    trace = ours(query, memory, memory)
    assert trace.weights.shape == (2, 4, 3, 7)
    assert_matches(trace, *torch_attention(ref, query, memory, memory))


def test_cross_attention_with_distinct_key_and_value_matches_torch() -> None:
    ours, ref = make_pair(12, 3)
    query, key, value = randn(2, 4, 12, seed=1), randn(2, 6, 12, seed=2), randn(2, 6, 12, seed=3)
    assert_matches(ours(query, key, value), *torch_attention(ref, query, key, value))


def test_value_defaults_to_key_in_cross_attention() -> None:
    ours, ref = make_pair(8, 2)
    query, memory = randn(3, 8, seed=1), randn(5, 8, seed=2)
    assert_matches(ours(query, memory), *torch_attention(ref, query, memory, memory))


def test_unbatched_cross_attention_with_masks_matches_torch() -> None:
    ours, ref = make_pair(12, 4)
    query, memory = randn(3, 12, seed=1), randn(6, 12, seed=2)
    attn, pad = random_bool_mask(3, 6), torch.tensor([False] * 4 + [True] * 2)
    expected = torch_attention(ref, query, memory, memory, attn_mask=attn, key_padding_mask=pad)
    assert_matches(ours(query, memory, memory, attn_mask=attn, key_padding_mask=pad), *expected)


def test_causal_cross_attention_with_lq_different_from_lk_matches_triu_mask() -> None:
    ours, ref = make_pair(8, 2)
    query, memory = randn(2, 4, 8, seed=1), randn(2, 6, 8, seed=2)
    triu = torch.ones(4, 6, dtype=torch.bool).triu(diagonal=1)
    assert_matches(ours(query, memory, causal=True), *torch_attention(ref, query, memory, memory, attn_mask=triu))


# ----- many sizes --------------------------------------------------------------------------------------


def _random_sizes(n: int, seed: int = 2024) -> list[tuple[int, int]]:
    """(d_model, n_heads) pairs from a fixed RNG, plus the extremes h = 1 and h = d_model."""
    rng = random.Random(seed)
    pairs = [(1, 1), (7, 1), (7, 7), (16, 1), (16, 16), (24, 24)]
    while len(pairs) < n:
        d_model = rng.randint(2, 96)
        n_heads = rng.choice([h for h in range(1, d_model + 1) if d_model % h == 0])
        pairs.append((d_model, n_heads))
    return pairs


@pytest.mark.parametrize(("d_model", "n_heads"), _random_sizes(22))
def test_matches_torch_for_many_sizes(d_model: int, n_heads: int) -> None:
    ours, ref = make_pair(d_model, n_heads, seed=d_model * 100 + n_heads)
    rng = random.Random(d_model * 1000 + n_heads)
    bsz, len_q, len_k = rng.randint(1, 3), rng.randint(1, 6), rng.randint(1, 6)
    x, memory = randn(bsz, len_q, d_model, seed=1), randn(bsz, len_k, d_model, seed=2)
    assert_matches(ours(x), *torch_attention(ref, x, x, x))
    assert_matches(ours(x, memory, memory), *torch_attention(ref, x, memory, memory))
    mask = random_bool_mask(len_q, len_k)
    expected = torch_attention(ref, x, memory, memory, attn_mask=mask)
    assert_matches(ours(x, memory, memory, attn_mask=mask), *expected)
