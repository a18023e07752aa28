"""The two ways the notes write multi-head attention give the same numbers, and each trace field means
what the notes say: checked against a per-head computation written here with plain torch ops."""

from __future__ import annotations

import math

import pytest
import torch
from torch import Tensor

from mha_core import (
    AttentionConfig,
    MultiHeadAttention,
    causal_mask,
    merge_heads,
    merge_weight_columns,
    split_heads,
    split_weight_columns,
)

TRACE_FIELDS = ("q", "k", "v", "scores", "masked_scores", "weights", "head_outputs", "concat", "output")
TIGHT = {"rtol": 1e-10, "atol": 1e-12}


def randn(*shape: int, seed: int = 1) -> Tensor:
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed), dtype=torch.float64)


def random_module(d_model: int, n_heads: int, *, bias: bool = True, scale: bool = True, seed: int = 0):
    """float64 module with random weights and random non-zero biases."""
    w = [randn(d_model, d_model, seed=seed * 10 + i) / math.sqrt(d_model) for i in range(4)]
    b = [randn(d_model, seed=seed * 10 + 5 + i) for i in range(4)] if bias else [None] * 4
    return MultiHeadAttention.from_weights(n_heads, *w, *b, scale=scale)


# ----- fused == per head -----------------------------------------------------------------------------


def _scenarios() -> dict[str, tuple[dict, dict]]:
    """name -> (inputs, masks) for a (d_model=12, h=3) module."""
    x, memory = randn(2, 5, 12, seed=1), randn(2, 7, 12, seed=2)
    bool_mask = torch.rand(5, 5, generator=torch.Generator().manual_seed(3)) < 0.4
    pad = torch.tensor([[False] * 7, [False] * 4 + [True] * 3])
    return {
        "self": ({"query": x}, {}),
        "unbatched": ({"query": x[0]}, {}),
        "bool_attn_mask": ({"query": x}, {"attn_mask": bool_mask}),
        "float_attn_mask": ({"query": x}, {"attn_mask": randn(5, 5, seed=4)}),
        "3d_attn_mask": ({"query": x}, {"attn_mask": torch.rand(6, 5, 5) < 0.3}),
        "causal": ({"query": x}, {"causal": True}),
        "cross": ({"query": x, "key": memory, "value": memory}, {}),
        "cross_padded": ({"query": x, "key": memory, "value": randn(2, 7, 12, seed=5)}, {"key_padding_mask": pad}),
        "cross_causal_unbatched": ({"query": x[1], "key": memory[1]}, {"causal": True}),
    }


@pytest.mark.parametrize("scenario", list(_scenarios()))
@pytest.mark.parametrize("bias", [True, False], ids=["bias", "no_bias"])
def test_per_head_formulation_gives_the_same_trace_as_fused(scenario: str, bias: bool) -> None:
    inputs, masks = _scenarios()[scenario]
    mha = random_module(12, 3, bias=bias)
    fused = mha(**inputs, **masks)
    per_head = mha(**inputs, **masks, formulation="per_head")
    for name in TRACE_FIELDS:
        torch.testing.assert_close(getattr(per_head, name), getattr(fused, name), **TIGHT, msg=name)
    assert torch.equal(per_head.mask, fused.mask) if fused.mask is not None else per_head.mask is None


def test_from_head_weights_builds_the_module_of_the_merged_columns() -> None:
    """W^Q = [W_1^Q | W_2^Q | ... | W_h^Q]: head i owns columns i*d_k:(i+1)*d_k (notes 000/001 vs 002)."""
    h, d, d_k = 4, 12, 3
    heads = [randn(h, d, d_k, seed=s) for s in (1, 2, 3)]
    w_o = randn(d, d, seed=4)
    merged = [torch.cat([w[i] for i in range(h)], dim=1) for w in heads]  # written out, no library helper
    from_heads = MultiHeadAttention.from_head_weights(*heads, w_o)
    from_fused = MultiHeadAttention.from_weights(h, *merged, w_o)
    assert torch.equal(from_heads.in_proj_weight, from_fused.in_proj_weight)
    assert torch.equal(from_heads.out_proj_weight, from_fused.out_proj_weight)
    x = randn(2, 5, d)
    a, b = from_heads(x), from_fused(x)
    for name in TRACE_FIELDS:  # the same weights (exactly, above); MKL may round the same product differently
        torch.testing.assert_close(getattr(a, name), getattr(b, name), **TIGHT, msg=name)  # for other buffers


def test_per_head_weights_are_column_blocks_of_the_fused_matrices() -> None:
    h, d = 4, 16
    d_k = d // h
    trace = random_module(d, h)(randn(3, d))
    for i in range(h):
        cols = slice(i * d_k, (i + 1) * d_k)
        assert torch.equal(trace.w_q_heads[i], trace.w_q[:, cols])
        assert torch.equal(trace.w_k_heads[i], trace.w_k[:, cols])
        assert torch.equal(trace.w_v_heads[i], trace.w_v[:, cols])
        assert torch.equal(trace.w_o_heads[i], trace.w_o[cols, :])  # W^O_i: the rows head i feeds


# ----- each field against a computation written here --------------------------------------------------


@pytest.mark.parametrize(("d_model", "n_heads"), [(12, 3), (8, 1), (6, 6)])
@pytest.mark.parametrize("formulation", ["fused", "per_head"])
def test_matches_an_independent_per_head_computation(d_model: int, n_heads: int, formulation: str) -> None:
    """Q_i = X W_i^Q + b_i^Q, A_i = softmax(Q_i K_i^T / sqrt(d_k)), head_i = A_i V_i, Concat(...) W^O + b^O."""
    mha = random_module(d_model, n_heads, seed=7)
    x, memory = randn(5, d_model, seed=1), randn(4, d_model, seed=2)
    trace = mha(x, memory, memory, formulation=formulation)
    d = d_model
    d_k = d // n_heads
    w_in = mha.in_proj_weight.detach()
    w_q, w_k, w_v = w_in[:, :d], w_in[:, d : 2 * d], w_in[:, 2 * d :]
    b_q, b_k, b_v = mha.in_proj_bias.detach().split(d)
    heads = []
    for i in range(n_heads):
        cols = slice(i * d_k, (i + 1) * d_k)
        q_i = x @ w_q[:, cols] + b_q[cols]  # (Lq, d_k)
        k_i = memory @ w_k[:, cols] + b_k[cols]  # (Lk, d_k)
        v_i = memory @ w_v[:, cols] + b_v[cols]
        s_i = q_i @ k_i.T / math.sqrt(d_k)  # (Lq, Lk)
        a_i = torch.exp(s_i) / torch.exp(s_i).sum(dim=1, keepdim=True)
        head_i = a_i @ v_i  # (Lq, d_k)
        for name, expected in (("q", q_i), ("k", k_i), ("v", v_i), ("scores", s_i), ("weights", a_i)):
            torch.testing.assert_close(getattr(trace, name)[i], expected, **TIGHT, msg=f"{name} head {i}")
        torch.testing.assert_close(trace.head_outputs[i], head_i, **TIGHT)
        heads.append(head_i)
    concat = torch.cat(heads, dim=1)  # (Lq, d_model)
    torch.testing.assert_close(trace.concat, concat, **TIGHT)
    expected_output = concat @ mha.out_proj_weight.detach() + mha.out_proj_bias.detach()
    torch.testing.assert_close(trace.output, expected_output, **TIGHT)


@pytest.mark.parametrize("shape", [(2, 5, 12), (1, 5, 12), (5, 12)], ids=["batch2", "batch1", "unbatched"])
def test_fused_projections_are_x_times_w(shape: tuple[int, ...]) -> None:
    """Several sequences go through one wide multiply, a single one through a batched per-head multiply:
    both must be X W^Q + b^Q (and K, V) split into heads."""
    mha = random_module(12, 4)
    x = randn(*shape)
    trace = mha(x)
    torch.testing.assert_close(trace.q_fused, x @ trace.w_q + trace.b_q, **TIGHT)
    torch.testing.assert_close(trace.k_fused, x @ trace.w_k + trace.b_k, **TIGHT)
    torch.testing.assert_close(trace.v_fused, x @ trace.w_v + trace.b_v, **TIGHT)


def test_concat_times_w_o_is_the_sum_of_each_heads_contribution() -> None:
    """Concat(head_1..head_h) W^O = sum_i head_i W^O_i (the block form of note 004)."""
    h = 4
    trace = random_module(16, h, bias=False)(randn(2, 5, 16))
    per_head_sum = sum(trace.head_outputs[:, i] @ trace.w_o_heads[i] for i in range(h))
    torch.testing.assert_close(trace.concat @ trace.w_o, per_head_sum, **TIGHT)
    torch.testing.assert_close(trace.output, per_head_sum, **TIGHT)


def test_unmasked_masked_scores_are_the_scores() -> None:
    trace = random_module(8, 2)(randn(4, 8))
    assert torch.equal(trace.masked_scores, trace.scores)
    assert trace.mask is None


def test_mask_field_is_true_exactly_where_a_key_is_hidden() -> None:
    mha = random_module(8, 2)
    x = randn(2, 4, 8)
    pad = torch.tensor([[False, False, False, True], [False, True, False, False]])
    trace = mha(x, key_padding_mask=pad, causal=True)
    hidden = torch.zeros(2, 2, 4, 4, dtype=torch.bool)
    for b in range(2):
        for i in range(4):
            for j in range(4):
                hidden[b, :, i, j] = bool(pad[b, j]) or j > i
    assert torch.equal(trace.mask, hidden)
    assert torch.isneginf(trace.masked_scores[hidden]).all()
    torch.testing.assert_close(trace.masked_scores[~hidden], trace.scores[~hidden], rtol=0, atol=0)


# ----- scale -------------------------------------------------------------------------------------------


def test_scale_false_gives_scores_equal_to_q_k_transpose_exactly() -> None:
    """Small integers: every product and sum is exact in float64, so equality can be exact."""
    h, d = 2, 6
    d_k = d // h
    gen = torch.Generator().manual_seed(0)
    w_q, w_k, w_v, w_o = (torch.randint(-3, 4, (d, d), generator=gen) for _ in range(4))
    x = torch.randint(-3, 4, (5, d), generator=gen)
    mha = MultiHeadAttention.from_weights(h, *(w.double() for w in (w_q, w_k, w_v, w_o)), scale=False)
    trace = mha(x.double())
    q_int, k_int = x @ w_q, x @ w_k  # int64 arithmetic: an exact oracle
    expected = torch.stack([q_int[:, i * d_k : (i + 1) * d_k] @ k_int[:, i * d_k : (i + 1) * d_k].T for i in range(h)])
    assert torch.equal(trace.scores, expected.double())
    assert trace.scale_factor == 1.0
    scaled = MultiHeadAttention.from_weights(h, *(w.double() for w in (w_q, w_k, w_v, w_o)))(x.double())
    assert scaled.scale_factor == pytest.approx(1 / math.sqrt(d_k))
    torch.testing.assert_close(scaled.scores, expected.double() / math.sqrt(d_k), **TIGHT)


def test_scale_false_agrees_between_formulations() -> None:
    mha = random_module(8, 2, scale=False)
    x = randn(3, 8)
    for name in TRACE_FIELDS:
        torch.testing.assert_close(getattr(mha(x), name), getattr(mha(x, formulation="per_head"), name), **TIGHT)


# ----- initialisation ------------------------------------------------------------------------------------


def test_seeded_init_is_reproducible_and_ignores_the_global_rng() -> None:
    torch.manual_seed(1)
    a = MultiHeadAttention(AttentionConfig(d_model=16, n_heads=4, seed=5))
    torch.manual_seed(2)
    b = MultiHeadAttention(AttentionConfig(d_model=16, n_heads=4, seed=5))
    for pa, pb in zip(a.parameters(), b.parameters(), strict=True):
        assert torch.equal(pa, pb)


def test_different_seeds_give_different_weights() -> None:
    a = MultiHeadAttention(AttentionConfig(d_model=16, n_heads=4, seed=0))
    b = MultiHeadAttention(AttentionConfig(d_model=16, n_heads=4, seed=1))
    assert not torch.equal(a.in_proj_weight, b.in_proj_weight)
    assert not torch.equal(a.out_proj_weight, b.out_proj_weight)


def test_init_follows_torch_bounds_and_zero_biases() -> None:
    """xavier-uniform in-projection (bound sqrt(6 / (d + 3d))), uniform(+-1/sqrt(d)) W^O, zero biases."""
    d = 64
    mha = MultiHeadAttention(AttentionConfig(d_model=d, n_heads=8))
    assert mha.in_proj_weight.shape == (d, 3 * d) and mha.out_proj_weight.shape == (d, d)
    assert mha.in_proj_weight.abs().max() <= math.sqrt(6 / (4 * d))
    assert mha.out_proj_weight.abs().max() <= 1 / math.sqrt(d)
    assert not mha.in_proj_bias.any() and not mha.out_proj_bias.any()
    assert MultiHeadAttention(AttentionConfig(d_model=d, n_heads=8, bias=False)).in_proj_bias is None


# ----- fully masked rows and gradients -------------------------------------------------------------------


@pytest.mark.parametrize("formulation", ["fused", "per_head"])
def test_fully_masked_query_row_gets_zero_weights_and_zero_head_output_without_nan(formulation: str) -> None:
    """torch returns NaN for a query that may see no key; we define its weights (and so head_i) as 0."""
    mha = random_module(8, 2)
    x = randn(2, 4, 8)
    mask = torch.zeros(4, 4, dtype=torch.bool)
    mask[2] = True  # query 2 sees nothing
    trace = mha(x, attn_mask=mask, formulation=formulation)
    assert torch.equal(trace.weights[:, :, 2], torch.zeros(2, 2, 4, dtype=torch.float64))
    assert torch.equal(trace.head_outputs[:, :, 2], torch.zeros(2, 2, 4, dtype=torch.float64))
    assert torch.equal(trace.concat[:, 2], torch.zeros(2, 8, dtype=torch.float64))
    torch.testing.assert_close(trace.output[:, 2], trace.b_o.expand(2, 8), rtol=0, atol=0)  # 0 W^O + b^O
    for name in TRACE_FIELDS:
        assert not torch.isnan(getattr(trace, name)).any(), name
    torch.testing.assert_close(trace.weights[:, :, [0, 1, 3]].sum(-1), torch.ones(2, 2, 3, dtype=torch.float64))


def test_fully_padded_sequence_gets_zero_weights() -> None:
    mha = random_module(8, 2)
    pad = torch.tensor([[False, True, True], [True, True, True]])
    trace = mha(randn(2, 3, 8), key_padding_mask=pad)
    assert torch.equal(trace.weights[1], torch.zeros(2, 3, 3, dtype=torch.float64))
    assert not torch.isnan(trace.output).any()


@pytest.mark.parametrize("formulation", ["fused", "per_head"])
def test_gradients_flow_to_every_parameter_and_the_input(formulation: str) -> None:
    mha = random_module(8, 2)
    x = randn(2, 5, 8).requires_grad_()
    mha(x, causal=True, formulation=formulation).output.sum().backward()
    for name, p in mha.named_parameters():
        assert p.grad is not None and torch.isfinite(p.grad).all() and p.grad.abs().sum() > 0, name
    assert x.grad is not None and torch.isfinite(x.grad).all()


@pytest.mark.parametrize("formulation", ["fused", "per_head"])
def test_gradients_stay_finite_with_a_fully_masked_query_row(formulation: str) -> None:
    """The zeroed row must not send NaN backwards through the softmax (training uses padded batches)."""
    mha = random_module(8, 2)
    x = randn(2, 4, 8).requires_grad_()
    mask = torch.zeros(4, 4, dtype=torch.bool)
    mask[1] = True
    mha(x, attn_mask=mask, formulation=formulation).output.sum().backward()
    for name, p in mha.named_parameters():
        assert torch.isfinite(p.grad).all(), name
    assert torch.isfinite(x.grad).all()


def test_gradients_match_torch_autograd_through_the_oracle() -> None:
    """d(output)/d(input) agrees with torch.nn.MultiheadAttention's own backward."""
    torch.manual_seed(0)
    ref = torch.nn.MultiheadAttention(8, 2, batch_first=True, dtype=torch.float64)
    torch.nn.init.normal_(ref.in_proj_bias)
    mha = MultiHeadAttention.from_torch(ref)
    x1 = randn(2, 4, 8).requires_grad_()
    x2 = x1.detach().clone().requires_grad_()
    mha(x1).output.pow(2).sum().backward()
    ref(x2, x2, x2, need_weights=False)[0].pow(2).sum().backward()
    torch.testing.assert_close(x1.grad, x2.grad, **TIGHT)


# ----- the small reshaping helpers ----------------------------------------------------------------------


def test_causal_mask_hides_every_later_key() -> None:
    for len_q, len_k in [(1, 1), (4, 4), (3, 5), (5, 2)]:
        m = causal_mask(len_q, len_k, torch.float64)
        expected = [[float("-inf") if j > i else 0.0 for j in range(len_k)] for i in range(len_q)]
        assert m.tolist() == expected
    assert causal_mask(3).shape == (3, 3) and causal_mask(3).dtype == torch.float32


def test_split_heads_gives_each_head_its_column_block_and_merge_heads_undoes_it() -> None:
    x = randn(2, 5, 12)
    heads = split_heads(x, 3)  # (B, h, L, d_k)
    assert heads.shape == (2, 3, 5, 4)
    for i in range(3):
        assert torch.equal(heads[:, i], x[..., i * 4 : (i + 1) * 4])
    assert torch.equal(merge_heads(heads), x)
    assert torch.equal(merge_heads(split_heads(x[0], 3)), x[0])  # unbatched


def test_split_weight_columns_and_merge_weight_columns_are_inverse() -> None:
    w = randn(8, 8)
    per_head = split_weight_columns(w, 4)  # (h, d_model, d_k)
    assert per_head.shape == (4, 8, 2)
    assert torch.equal(per_head[1], w[:, 2:4])
    assert torch.equal(merge_weight_columns(per_head), w)
