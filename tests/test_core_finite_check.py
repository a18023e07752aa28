"""The forward refuses NaN and infinity in query, key and value, and nothing else (mha_core/attention.py,
_check_input: one sum decides for ordinary inputs; a sum that is not finite is checked value by value).

The oracle is torch.isfinite(x).all() on the input itself: large finite values whose sum overflows must
still be accepted, and a single NaN or infinity anywhere, also among such values or where a mask hides it,
must be refused."""

from __future__ import annotations

import itertools

import pytest
import torch

from mha_core import AttentionConfig, AttentionError, MultiHeadAttention

D, H = 8, 2
F32_MAX = torch.finfo(torch.float32).max
BAD = (float("nan"), float("inf"), float("-inf"))


@pytest.fixture
def mha() -> MultiHeadAttention:
    return MultiHeadAttention(AttentionConfig(d_model=D, n_heads=H, seed=0))


def near_max(shape: tuple[int, ...], dtype: torch.dtype = torch.float32, sign: float = 1.0) -> torch.Tensor:
    """Finite values within a factor 2 of the dtype's largest, all of one sign: their sum overflows."""
    big = torch.finfo(dtype).max
    return sign * big * (0.5 + 0.5 * torch.rand(shape, generator=torch.Generator().manual_seed(0), dtype=dtype))


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_large_finite_inputs_whose_sum_overflows_are_accepted(mha: MultiHeadAttention, sign: float) -> None:
    x = near_max((2, 3, D), sign=sign)
    assert torch.isfinite(x).all() and not torch.isfinite(x.sum())  # the sum alone would refuse them
    trace = mha(x)
    assert trace.query.equal(x)


def test_the_largest_float32_values_are_accepted_as_query_key_and_value(mha: MultiHeadAttention) -> None:
    q = torch.full((3, D), F32_MAX)
    kv = torch.full((4, D), -F32_MAX)
    trace = mha(q, kv, kv)
    assert trace.key.equal(kv) and trace.value.equal(kv)


def test_large_finite_float64_inputs_are_accepted_by_a_float64_module(mha: MultiHeadAttention) -> None:
    mha = mha.double()
    x = near_max((3, D), dtype=torch.float64)
    assert not torch.isfinite(x.sum())
    assert mha(x).query.dtype == torch.float64


@pytest.mark.parametrize("bad", BAD)
@pytest.mark.parametrize("large", [False, True], ids=["ordinary", "near_float32_max"])
def test_one_nan_or_infinity_anywhere_is_refused(mha: MultiHeadAttention, bad: float, large: bool) -> None:
    shape = (2, 3, D)
    base = near_max(shape) if large else torch.randn(shape, generator=torch.Generator().manual_seed(1))
    for index in itertools.product(*(range(n) for n in shape)):  # every position of the input
        x = base.clone()
        x[index] = bad
        with pytest.raises(AttentionError) as info:
            mha(x)
        assert info.value.code == "not_finite", index


@pytest.mark.parametrize("which", ["key", "value"])
@pytest.mark.parametrize("bad", BAD)
def test_nan_or_infinity_in_a_masked_key_is_refused(mha: MultiHeadAttention, which: str, bad: float) -> None:
    inputs = {"query": torch.randn(2, 3, D), "key": torch.randn(2, 4, D), "value": torch.randn(2, 4, D)}
    inputs[which][0, 3, 2] = bad  # key 3 of item 0, which the padding mask hides
    padding = torch.tensor([[False, False, False, True], [False, False, False, False]])
    with pytest.raises(AttentionError) as info:
        mha(**inputs, key_padding_mask=padding)
    assert info.value.code == "not_finite" and which in str(info.value)


@pytest.mark.parametrize("bad", BAD)
def test_nan_or_infinity_in_a_key_hidden_by_the_causal_mask_is_refused(mha: MultiHeadAttention, bad: float) -> None:
    x = torch.randn(5, D)
    x[4, 0] = bad  # the last token: as a key, the causal mask hides it from every earlier query
    with pytest.raises(AttentionError) as info:
        mha(x, causal=True)
    assert info.value.code == "not_finite"


def test_acceptance_matches_isfinite_on_mixtures_of_large_values_and_non_finite_ones(
    mha: MultiHeadAttention,
) -> None:
    g = torch.Generator().manual_seed(2)
    choices = torch.tensor([1.0, -1.0, F32_MAX, -F32_MAX, F32_MAX / 3, float("nan"), float("inf"), float("-inf")])
    for _ in range(300):
        x = choices[torch.randint(0, 5, (3, D), generator=g)]  # finite values, often overflowing the sum
        if torch.rand((), generator=g) < 0.5:  # sometimes one non-finite value at a random place
            x[torch.randint(0, 3, (), generator=g), torch.randint(0, D, (), generator=g)] = choices[
                torch.randint(5, 8, (), generator=g)
            ]
        finite = bool(torch.isfinite(x).all())
        try:
            mha(x)
            accepted = True
        except AttentionError as err:
            assert err.code == "not_finite"
            accepted = False
        assert accepted == finite, x
