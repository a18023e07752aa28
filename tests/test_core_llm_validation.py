"""Every invalid use of today's decoder options raises AttentionError with a message naming what is wrong."""

from __future__ import annotations

import re

import pytest
import torch

from mha_core import AttentionConfig, AttentionError, KVCache, MultiHeadAttention, tiled_attention


def raises(code: str, *fragments: str):
    return pytest.raises(AttentionError, match=".*".join(re.escape(f) for f in fragments))


@pytest.mark.parametrize("g", [3, 0, -2, 16, 2.0, True])
def test_n_kv_heads_must_divide_n_heads(g: object) -> None:
    with raises("bad_kv_heads", "n_kv_heads", "divides n_heads=8", "[1, 2, 4, 8]") as info:
        AttentionConfig(64, 8, n_kv_heads=g)
    assert info.value.code == "bad_kv_heads" and info.value.params["valid"] == (1, 2, 4, 8)


def test_rope_needs_an_even_d_k_and_a_base_above_one() -> None:
    with raises("odd_d_k", "d_k = 3"):
        AttentionConfig(12, 4, rope=True)
    for base in (1, 0.5, float("inf"), float("nan"), "10000", True):
        with pytest.raises(AttentionError, match="rope_base"):
            AttentionConfig(16, 4, rope=True, rope_base=base)


def test_rope_and_alibi_are_exclusive_and_boolean() -> None:
    with raises("bad_option", "rope or alibi"):
        AttentionConfig(16, 4, rope=True, alibi=True)
    with raises("bad_option", "rope", "True or False"):
        AttentionConfig(16, 4, rope=1)


@pytest.fixture
def mha() -> MultiHeadAttention:
    return MultiHeadAttention(AttentionConfig(16, 4, n_kv_heads=2, rope=True))


@pytest.mark.parametrize("window", [0, -1, 1.5, True, "3"])
def test_window_must_be_a_positive_whole_number(mha: MultiHeadAttention, window: object) -> None:
    with raises("bad_window", "window", ">= 1"):
        mha(torch.randn(4, 16), causal=True, window=window)


def test_a_window_needs_causal(mha: MultiHeadAttention) -> None:
    with raises("bad_window", "causal=True"):
        mha(torch.randn(4, 16), window=2)


def test_positions_and_the_cache_need_self_attention(mha: MultiHeadAttention) -> None:
    with raises("unsupported", "rope", "self-attention"):
        mha(torch.randn(4, 16), torch.randn(5, 16))
    plain = MultiHeadAttention(AttentionConfig(16, 4, n_kv_heads=2))
    assert plain(torch.randn(4, 16), torch.randn(5, 16)).weights.shape == (4, 4, 5)  # shared K/V alone is fine
    with raises("unsupported", "cache", "self-attention"):
        plain(torch.randn(4, 16), torch.randn(5, 16), cache=KVCache())


def test_the_per_head_formulation_is_the_notes_layer_only(mha: MultiHeadAttention) -> None:
    with raises("unsupported", "per_head", "n_kv_heads, rope"):
        mha(torch.randn(4, 16), formulation="per_head")


@pytest.mark.parametrize("start", [-1, 1.5, True])
def test_start_must_be_a_whole_number(mha: MultiHeadAttention, start: object) -> None:
    with raises("bad_input", "start"):
        mha(torch.randn(4, 16), causal=True, start=start)


def test_start_and_a_cache_do_not_mix(mha: MultiHeadAttention) -> None:
    with raises("bad_input", "leave start at 0"):
        mha(torch.randn(1, 16), causal=True, cache=KVCache(), start=3)


def test_a_cache_belongs_to_one_layer_shape_and_batch(mha: MultiHeadAttention) -> None:
    cache = KVCache()
    mha(torch.randn(2, 1, 16), causal=True, cache=cache)
    with raises("bad_cache", "B=3"):
        mha(torch.randn(3, 1, 16), causal=True, cache=cache)
    other = MultiHeadAttention(AttentionConfig(16, 4, n_kv_heads=4))
    with raises("bad_cache", "g=4"):
        other(torch.randn(2, 1, 16), causal=True, cache=cache)
    with raises("bad_cache", "KVCache"):
        mha(torch.randn(1, 16), causal=True, cache={"k": None})
    assert len(cache) == 1  # a refused step leaves the cache as it was


def test_tiled_attention_checks_block_size_and_shapes() -> None:
    q = torch.randn(3, 4)
    for b in (0, -1, 1.5, True):
        with raises("bad_block", "block_size"):
            tiled_attention(q, q, q, b)
    with raises("bad_shape", "q (..., Lq, d_k)"):
        tiled_attention(q, torch.randn(3, 5), q, 2)


def test_from_weights_checks_shared_kv_shapes() -> None:
    w = torch.randn(8, 8)
    with raises("bad_shape", "W^K", "g d_k", "(8, 6)"):
        MultiHeadAttention.from_weights(4, w, torch.randn(8, 6), torch.randn(8, 6), w)  # g = 3 does not divide 4
    with raises("bad_shape", "W^V", "(8, 2)"):
        MultiHeadAttention.from_weights(4, w, torch.randn(8, 4), torch.randn(8, 2), w)
    with raises("bad_shape", "b^K", "(4,)"):
        MultiHeadAttention.from_weights(4, w, torch.randn(8, 4), torch.randn(8, 4), w, b_k=torch.zeros(8))
    mqa = MultiHeadAttention.from_weights(4, w, torch.randn(8, 2), torch.randn(8, 2), w)
    assert (mqa.n_kv_heads, mqa.config.n_kv_heads) == (1, 1)
