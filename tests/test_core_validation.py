"""Every invalid setting or input raises mha_core.AttentionError (a ValueError) with a stable `.code`
and a message that names the bad value and says what would be valid."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import torch

from mha_core import (
    AttentionConfig,
    AttentionError,
    MultiHeadAttention,
    embed_tokens,
    nearest_valid_d_model,
    nearest_valid_heads,
    operation_counts,
    parameter_count,
    sinusoidal_positional_encoding,
    tokenize,
    validate_sizes,
    wavelengths,
)

# The codes a UI translates; renaming one breaks its translations.
STABLE_CODES = {
    "not_integer",
    "not_positive",
    "not_divisible",
    "bad_seed",
    "bad_input",
    "bad_shape",
    "empty",
    "not_finite",
    "bad_mask",
    "bad_base",
    "unsupported",
}


@contextmanager
def raises(code: str, *fragments: str) -> Iterator[pytest.ExceptionInfo[AttentionError]]:
    """The block raises AttentionError with this code, and its message contains every fragment."""
    with pytest.raises(AttentionError) as info:
        yield info
    err = info.value
    assert isinstance(err, ValueError)
    assert err.code == code, (err.code, str(err))
    assert err.code in STABLE_CODES
    for fragment in fragments:
        assert fragment in str(err), (fragment, str(err))


def brute_force_divisor_neighbours(d_model: int, n_heads: int) -> tuple[int, ...]:
    divisors = [h for h in range(1, d_model + 1) if d_model % h == 0]
    below = [h for h in divisors if h < n_heads]
    above = [h for h in divisors if h > n_heads]
    return tuple(([max(below)] if below else []) + ([min(above)] if above else []))


def brute_force_multiple_neighbours(d_model: int, n_heads: int) -> tuple[int, ...]:
    multiples = [m for m in range(n_heads, 2 * d_model + 2 * n_heads, n_heads)]
    below = [m for m in multiples if m < d_model]
    above = [m for m in multiples if m > d_model]
    return tuple(([max(below)] if below else []) + ([min(above)] if above else []))


# ----- sizes ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("d_model", "n_heads"), [(10, 3), (64, 7), (12, 5), (7, 2), (512, 10), (6, 9), (9, 8)])
def test_d_model_not_divisible_by_n_heads_suggests_the_nearest_valid_sizes(d_model: int, n_heads: int) -> None:
    with raises("not_divisible", f"d_model={d_model}", f"n_heads={n_heads}") as info:
        AttentionConfig(d_model=d_model, n_heads=n_heads)
    params = info.value.params
    assert params["d_model"] == d_model and params["n_heads"] == n_heads
    heads = params["valid_heads"]
    assert heads and all(d_model % h == 0 for h in heads)
    assert heads == brute_force_divisor_neighbours(d_model, n_heads)
    assert params["valid_d_model"] == brute_force_multiple_neighbours(d_model, n_heads)
    assert all(m % n_heads == 0 for m in params["valid_d_model"])
    for suggestion in (*heads, *params["valid_d_model"]):
        assert str(suggestion) in str(info.value)


@pytest.mark.parametrize(("d_model", "n_heads", "bad"), [(0, 1, "d_model"), (-8, 2, "d_model"), (8, 0, "n_heads"),
                                                         (8, -2, "n_heads")])  # fmt: skip
def test_non_positive_sizes_are_rejected(d_model: int, n_heads: int, bad: str) -> None:
    with raises("not_positive", bad, "at least 1") as info:
        AttentionConfig(d_model=d_model, n_heads=n_heads)
    assert info.value.params["name"] == bad


@pytest.mark.parametrize("value", [8.0, 2.5, "8", None, True])
@pytest.mark.parametrize("which", ["d_model", "n_heads"])
def test_non_integer_sizes_are_rejected(value: object, which: str) -> None:
    sizes = {"d_model": 8, "n_heads": 2, which: value}
    with raises("not_integer", which, "whole number", repr(value)):
        validate_sizes(**sizes)


@pytest.mark.parametrize("seed", [-1, 1.5, True, "0"])
def test_negative_or_non_integer_seed_is_rejected(seed: object) -> None:
    with raises("bad_seed", "seed", ">= 0", repr(seed)):
        AttentionConfig(d_model=8, n_heads=2, seed=seed)


def test_valid_config_has_d_k_equal_to_d_model_over_heads() -> None:
    assert AttentionConfig(d_model=12, n_heads=4).d_k == 3


@pytest.mark.parametrize("d_model", range(1, 41))
def test_nearest_valid_heads_are_the_neighbouring_divisors(d_model: int) -> None:
    for n_heads in range(1, 45):
        assert nearest_valid_heads(d_model, n_heads) == brute_force_divisor_neighbours(d_model, n_heads)
        assert nearest_valid_d_model(d_model, n_heads) == brute_force_multiple_neighbours(d_model, n_heads)


def test_nearest_valid_examples_from_the_notes() -> None:
    assert nearest_valid_heads(512, 10) == (8, 16)
    assert nearest_valid_d_model(512, 10) == (510, 520)
    assert nearest_valid_heads(7, 3) == (1, 7)  # a prime d_model: only 1 and itself
    assert nearest_valid_d_model(3, 4) == (4,)  # 0 is never suggested
    assert nearest_valid_heads(12, 4) == (3, 6)  # a valid value gets its two neighbours, never itself
    assert nearest_valid_d_model(12, 4) == (8, 16)


# ----- inputs ------------------------------------------------------------------------------------------


@pytest.fixture
def mha() -> MultiHeadAttention:
    return MultiHeadAttention(AttentionConfig(d_model=8, n_heads=2))


def test_wrong_last_dimension_names_d_model(mha: MultiHeadAttention) -> None:
    with raises("bad_shape", "query", "last dimension 6", "d_model=8"):
        mha(torch.randn(2, 3, 6))
    with raises("bad_shape", "key", "last dimension 4"):
        mha(torch.randn(3, 8), torch.randn(3, 4))


@pytest.mark.parametrize("shape", [(8,), (1, 2, 3, 8), ()])
def test_input_must_be_2d_or_3d(mha: MultiHeadAttention, shape: tuple[int, ...]) -> None:
    with raises("bad_shape", "(L, d_model) or (B, L, d_model)", str(shape)):
        mha(torch.zeros(shape))


@pytest.mark.parametrize("shape", [(0, 8), (2, 0, 8)])
def test_empty_sequence_is_rejected(mha: MultiHeadAttention, shape: tuple[int, ...]) -> None:
    with raises("empty", "L=0", "at least one"):
        mha(torch.randn(*shape))


def test_empty_key_sequence_is_rejected(mha: MultiHeadAttention) -> None:
    with raises("empty", "key"):
        mha(torch.randn(3, 8), torch.randn(0, 8))


@pytest.mark.parametrize("value", [[[1.0] * 8], None, 3.0])
def test_input_must_be_a_tensor(mha: MultiHeadAttention, value: object) -> None:
    with raises("bad_input", "query", "tensor"):
        mha(value)


@pytest.mark.parametrize("dtype", [torch.bool, torch.complex64])
def test_input_must_hold_real_numbers(mha: MultiHeadAttention, dtype: torch.dtype) -> None:
    with raises("bad_input", "real numbers", str(dtype)):
        mha(torch.ones(3, 8, dtype=dtype))


def test_integer_input_is_accepted_as_numbers(mha: MultiHeadAttention) -> None:
    trace = mha(torch.ones(3, 8, dtype=torch.int64))
    assert trace.output.dtype == mha.in_proj_weight.dtype


def test_key_and_value_lengths_must_match(mha: MultiHeadAttention) -> None:
    with raises("bad_shape", "same length", "5", "4"):
        mha(torch.randn(3, 8), torch.randn(5, 8), torch.randn(4, 8))


def test_batch_sizes_must_match(mha: MultiHeadAttention) -> None:
    with raises("bad_shape", "same batch size", "2", "3"):
        mha(torch.randn(2, 3, 8), torch.randn(3, 4, 8))


def test_batched_and_unbatched_inputs_cannot_be_mixed(mha: MultiHeadAttention) -> None:
    with raises("bad_shape", "must all be batched", "(2, 3, 8)", "(4, 8)"):
        mha(torch.randn(2, 3, 8), torch.randn(4, 8))


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), float("-inf")])
@pytest.mark.parametrize("which", ["query", "key", "value"])
def test_nan_or_infinite_input_is_rejected(mha: MultiHeadAttention, bad: float, which: str) -> None:
    inputs = {"query": torch.randn(2, 3, 8), "key": torch.randn(2, 4, 8), "value": torch.randn(2, 4, 8)}
    inputs[which][1, -1, 5] = bad
    with raises("not_finite", which, "NaN or infinity"):
        mha(**inputs)


def test_unknown_formulation_is_rejected(mha: MultiHeadAttention) -> None:
    with raises("bad_input", "'fused' or 'per_head'", "'stacked'"):
        mha(torch.randn(3, 8), formulation="stacked")


# ----- masks -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(3, 4), (5, 3, 3), (2, 3, 3), (3,), (1, 2, 3, 3)])
def test_attn_mask_of_the_wrong_shape_names_the_valid_shapes(mha: MultiHeadAttention, shape) -> None:
    with raises("bad_mask", "attn_mask", "(3, 3) or (4, 3, 3)", str(shape)):
        mha(torch.randn(2, 3, 8), attn_mask=torch.zeros(shape, dtype=torch.bool))


@pytest.mark.parametrize(("batched", "shape", "expected"), [(True, (3,), "(2, 3)"), (True, (2, 4), "(2, 3)"),
                                                            (False, (1, 3), "(3,)")])  # fmt: skip
def test_key_padding_mask_of_the_wrong_shape_names_the_valid_shape(mha, batched, shape, expected) -> None:
    x = torch.randn(2, 3, 8) if batched else torch.randn(3, 8)
    with raises("bad_mask", "key_padding_mask", expected, str(shape)):
        mha(x, key_padding_mask=torch.zeros(shape, dtype=torch.bool))


@pytest.mark.parametrize("which", ["attn_mask", "key_padding_mask"])
def test_integer_masks_are_rejected(mha: MultiHeadAttention, which: str) -> None:
    shape = (3, 3) if which == "attn_mask" else (3,)
    with raises("bad_mask", which, "boolean or float", "int64"):
        mha(torch.randn(3, 8), **{which: torch.zeros(shape, dtype=torch.int64)})


@pytest.mark.parametrize("bad", [float("nan"), float("inf")])
def test_float_mask_with_nan_or_plus_infinity_is_rejected(mha: MultiHeadAttention, bad: float) -> None:
    mask = torch.zeros(3, 3)
    mask[0, 1] = bad
    with raises("bad_mask", "attn_mask", "NaN or +inf"):
        mha(torch.randn(3, 8), attn_mask=mask)


def test_mask_must_be_a_tensor(mha: MultiHeadAttention) -> None:
    with raises("bad_mask", "attn_mask", "tensor"):
        mha(torch.randn(3, 8), attn_mask=[[False] * 3] * 3)


# ----- constructing from weights ------------------------------------------------------------------------


def test_from_weights_needs_square_matrices() -> None:
    good = torch.randn(4, 4)
    with raises("bad_shape", "W^K", "(4, 3)"):
        MultiHeadAttention.from_weights(2, good, torch.randn(4, 3), good, good)


def test_from_weights_rejects_non_finite_weights() -> None:
    bad = torch.randn(4, 4)
    bad[0, 0] = float("nan")
    with raises("not_finite", "W^O"):
        MultiHeadAttention.from_weights(2, torch.randn(4, 4), torch.randn(4, 4), torch.randn(4, 4), bad)


def test_from_weights_checks_bias_shapes() -> None:
    w = torch.randn(4, 4)
    with raises("bad_shape", "b^V", "(4,)", "(3,)"):
        MultiHeadAttention.from_weights(2, w, w, w, w, b_v=torch.zeros(3))


def test_from_weights_checks_the_head_count() -> None:
    w = torch.randn(6, 6)
    with raises("not_divisible", "d_model=6", "n_heads=4"):
        MultiHeadAttention.from_weights(4, w, w, w, w)


def test_from_head_weights_needs_3d_stacks() -> None:
    w = torch.randn(4, 4)
    with raises("bad_shape", "(h, d_model, d_k)"):
        MultiHeadAttention.from_head_weights(w, w, w, w)


@pytest.mark.parametrize(
    "kwargs", [{"kdim": 3, "vdim": 3}, {"add_bias_kv": True}, {"add_zero_attn": True}], ids=lambda k: next(iter(k))
)
def test_from_torch_rejects_torch_features_the_notes_do_not_have(kwargs: dict) -> None:
    with raises("unsupported", "not supported"):
        MultiHeadAttention.from_torch(torch.nn.MultiheadAttention(4, 2, batch_first=True, **kwargs))


# ----- helpers -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("length", "d_model"), [(0, 4), (4, 0), (-1, 4), (2.0, 4), (4, True)])
def test_positional_encoding_sizes_must_be_positive_integers(length: object, d_model: object) -> None:
    with raises("not_positive", "whole number >= 1"):
        sinusoidal_positional_encoding(length, d_model)


@pytest.mark.parametrize("base", [1, 0.5, -10.0, float("inf"), float("nan"), "10000", True])
def test_positional_encoding_base_must_be_a_finite_number_above_one(base: object) -> None:
    with raises("bad_base", "finite number > 1", repr(base)):
        sinusoidal_positional_encoding(4, 4, base=base)
    with raises("bad_base"):
        wavelengths(4, base=base)


@pytest.mark.parametrize("d_model", [0, -2, 2.5])
def test_wavelengths_validate_d_model_like_the_encoding(d_model: object) -> None:
    with raises("not_positive", "d_model"):
        wavelengths(d_model)


def test_tokenize_needs_a_string() -> None:
    with raises("bad_input", "string", "bytes"):
        tokenize(b"hello")


@pytest.mark.parametrize("d_model", [0, -1, 2.0, True])
def test_embed_tokens_needs_a_positive_integer_width(d_model: object) -> None:
    with raises("not_positive", "d_model", repr(d_model)):
        embed_tokens(["a"], d_model)


def test_parameter_and_operation_counts_validate_sizes() -> None:
    with raises("not_divisible"):
        parameter_count(10, 3)
    with raises("not_divisible"):
        operation_counts(4, 10, 3)


@pytest.mark.parametrize(("len_q", "len_k"), [(0, None), (-1, None), (2.5, None), (3, 0), (3, True)])
def test_operation_counts_need_positive_integer_lengths(len_q: object, len_k: object) -> None:
    with raises("not_positive", "whole number >= 1"):
        operation_counts(len_q, 8, 2, len_k=len_k)
