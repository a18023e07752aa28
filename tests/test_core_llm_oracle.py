"""Today's decoder attention in the core equals independent oracles.

- transformers' LlamaAttention (eager) with grouped-query K/V heads and RoPE: MultiHeadAttention.from_llama
  copies it; with causal=True our output and per-head weights equal Llama's.
- transformers' BLOOM: its ALiBi slopes (build_alibi_tensor) and a whole BloomAttention forward.
- torch's scaled_dot_product_attention: enable_gqa for shared K/V heads, an explicit sliding-window mask,
  and the reference for tiled attention.
- the full causal forward for the KV cache (one token at a time equals the whole sequence at once).
The oracles compute in float32 where they choose to (Llama's rotary angles, BLOOM's softmax): tolerances
say so. Never float ==.
"""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F
from torch import Tensor

from mha_core import (
    AttentionConfig,
    KVCache,
    MultiHeadAttention,
    alibi_bias,
    alibi_slopes,
    causal_mask,
    rope_angles,
    tiled_attention,
)

transformers = pytest.importorskip("transformers")
from transformers.models.bloom.modeling_bloom import BloomAttention, BloomConfig, build_alibi_tensor  # noqa: E402
from transformers.models.llama.modeling_llama import (  # noqa: E402
    LlamaAttention,
    LlamaConfig,
    LlamaRotaryEmbedding,
)

CLOSE = {"rtol": 1e-6, "atol": 1e-6}  # float64 modules; the oracles' own float32 steps (angles, softmax)
TIGHT = {"rtol": 1e-10, "atol": 1e-12}  # float64 on both sides


def randn(*shape: int, seed: int = 1, dtype: torch.dtype = torch.float64) -> Tensor:
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed), dtype=dtype)


def llama(hidden: int, heads: int, kv_heads: int, *, bias: bool = False, theta: float = 10000.0, seed: int = 0):
    """A LlamaAttention with random weights (and biases), float64, eager, and its rotary embedding."""
    cfg = LlamaConfig(
        hidden_size=hidden, num_attention_heads=heads, num_key_value_heads=kv_heads, head_dim=hidden // heads,
        attention_bias=bias, rope_parameters={"rope_type": "default", "rope_theta": theta},
    )  # fmt: skip
    cfg._attn_implementation = "eager"
    torch.manual_seed(seed)
    attn = LlamaAttention(cfg, layer_idx=0).double().eval()
    if bias:
        for layer in (attn.q_proj, attn.k_proj, attn.v_proj, attn.o_proj):
            torch.nn.init.normal_(layer.bias, std=0.5)
    return attn, LlamaRotaryEmbedding(cfg)


def llama_forward(attn, rotary, x: Tensor) -> tuple[Tensor, Tensor]:
    """Llama's (output, weights) of x (B, L, d) at positions 0..L-1 under its causal mask."""
    bsz, length = x.shape[:2]
    positions = torch.arange(length).expand(bsz, length)
    mask = torch.zeros(length, length, dtype=x.dtype).masked_fill(
        torch.ones(length, length, dtype=torch.bool).triu(1), float("-inf")
    ).expand(bsz, 1, length, length)  # written here, not the core's causal_mask
    with torch.no_grad():
        return attn(x, position_embeddings=rotary(x, positions), attention_mask=mask)


@pytest.mark.parametrize(("heads", "kv_heads"), [(4, 4), (4, 2), (4, 1), (8, 2), (6, 3)])
@pytest.mark.parametrize("bias", [False, True])
def test_from_llama_equals_llama_attention_with_shared_kv_heads_and_rope(heads: int, kv_heads: int, bias: bool) -> None:
    attn, rotary = llama(8 * heads, heads, kv_heads, bias=bias, seed=heads + kv_heads)
    ours = MultiHeadAttention.from_llama(attn)
    assert (ours.n_heads, ours.n_kv_heads, ours.config.rope) == (heads, kv_heads, True)
    x = randn(2, 7, 8 * heads, seed=kv_heads)
    expected_output, expected_weights = llama_forward(attn, rotary, x)
    trace = ours(x, causal=True)
    torch.testing.assert_close(trace.weights, expected_weights, **CLOSE)
    torch.testing.assert_close(trace.output, expected_output, **CLOSE)
    assert trace.k.shape == (2, kv_heads, 7, 8)  # K and V keep their g heads


def test_from_llama_keeps_the_rope_base() -> None:
    attn, rotary = llama(32, 4, 2, theta=500000.0)
    ours = MultiHeadAttention.from_llama(attn)
    assert ours.config.rope_base == 500000.0
    x = randn(1, 9, 32)
    torch.testing.assert_close(ours(x, causal=True).output, llama_forward(attn, rotary, x)[0], **CLOSE)


def test_from_llama_unbatched_and_step_by_step_with_a_cache() -> None:
    attn, rotary = llama(32, 4, 2, bias=True)
    ours = MultiHeadAttention.from_llama(attn)
    x = randn(1, 6, 32, seed=5)
    expected, _ = llama_forward(attn, rotary, x)
    cache = KVCache()
    steps = [ours(x[0, t : t + 1], causal=True, cache=cache).output for t in range(6)]
    torch.testing.assert_close(torch.cat(steps), expected[0], **CLOSE)


def test_rope_angles_equal_llama_rotary_embedding() -> None:
    _, rotary = llama(64, 4, 4, theta=10000.0)
    x = torch.zeros(1, 40, 64)
    cos, sin = rotary(x, torch.arange(40)[None])  # (1, L, d_k): Llama duplicates the d_k/2 angles
    angles = rope_angles(torch.arange(40), 16)  # (L, d_k/2)
    torch.testing.assert_close(torch.cat((angles, angles), -1).cos().float(), cos[0], rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(torch.cat((angles, angles), -1).sin().float(), sin[0], rtol=1e-5, atol=1e-5)


def test_from_llama_refuses_scaled_rope() -> None:
    attn, _ = llama(32, 4, 2)
    attn.config.rope_parameters = {"rope_type": "linear", "rope_theta": 10000.0, "factor": 2.0}
    with pytest.raises(ValueError, match="linear"):
        MultiHeadAttention.from_llama(attn)


# ----- ALiBi against BLOOM ---------------------------------------------------------------------------
@pytest.mark.parametrize("heads", [1, 2, 3, 4, 5, 6, 8, 12, 16, 24])
def test_alibi_slopes_equal_bloom_build_alibi_tensor(heads: int) -> None:
    length = 6
    bloom = build_alibi_tensor(torch.ones(1, length), heads, torch.float64).view(heads, length)  # (h, Lk): m_i j
    torch.testing.assert_close(alibi_slopes(heads).double(), bloom[:, 1], rtol=1e-6, atol=0)
    ours = alibi_bias(heads, length)  # (h, Lq, Lk): -m_i (i - j)
    # softmax does not change when a row gets a constant: BLOOM adds m_i j, ours -m_i (i - j) = m_i j - m_i i
    row_shift = (ours.double() - bloom[:, None, :]).amax(-1, keepdim=True) - (ours.double() - bloom[:, None, :])
    torch.testing.assert_close(row_shift, torch.zeros_like(row_shift), rtol=0, atol=1e-5)


def bloom_to_ours(bloom: BloomAttention, heads: int) -> MultiHeadAttention:
    """BLOOM's fused query_key_value keeps, per head, [q | k | v] rows side by side: (h, 3, d_k) x d."""
    d = bloom.hidden_size
    w = bloom.query_key_value.weight.detach().view(heads, 3, d // heads, d)  # torch layout: x @ W^T
    b = bloom.query_key_value.bias.detach().view(heads, 3, d // heads)
    w_q, w_k, w_v = (w[:, i].reshape(d, d).T for i in range(3))
    b_q, b_k, b_v = (b[:, i].reshape(d) for i in range(3))
    w_o, b_o = bloom.dense.weight.detach().T, bloom.dense.bias.detach()
    return MultiHeadAttention.from_weights(heads, w_q, w_k, w_v, w_o, b_q, b_k, b_v, b_o, alibi=True)


@pytest.mark.parametrize("heads", [2, 3, 4, 8])
def test_alibi_equals_a_bloom_attention_forward(heads: int) -> None:
    d, length = 4 * heads, 7
    cfg = BloomConfig(hidden_size=d, n_head=heads, attention_dropout=0.0, hidden_dropout=0.0)
    torch.manual_seed(heads)
    bloom = BloomAttention(cfg, layer_idx=0).double().eval()
    torch.nn.init.normal_(bloom.query_key_value.bias, std=0.5)
    torch.nn.init.normal_(bloom.dense.bias, std=0.5)
    ours = bloom_to_ours(bloom, heads)
    x = randn(2, length, d, seed=heads)
    alibi = build_alibi_tensor(torch.ones(2, length), heads, torch.float64)
    causal = torch.zeros(length, length, dtype=torch.float64).masked_fill(
        torch.ones(length, length, dtype=torch.bool).triu(1), float("-inf")
    )
    with torch.no_grad():
        out, probs = bloom(x, torch.zeros_like(x), alibi, causal.expand(2, 1, length, length))  # residual 0
    trace = ours(x, causal=True)
    torch.testing.assert_close(trace.weights, probs, **CLOSE)
    torch.testing.assert_close(trace.output, out, **CLOSE)


@pytest.mark.parametrize("heads", [12, 16])  # slopes 2^(-1/2), ...: not exact in float32
def test_a_float64_layer_with_alibi_is_exact_to_float64(heads: int) -> None:
    """The slopes are rounded once to the layer's dtype: a float64 layer agrees with float64 numpy written here to
    1e-12 (with the slopes rounded to float32 first, the bias was off by up to 1.9e-7 at 9 tokens)."""
    import math

    import numpy as np

    d, length = 4 * heads, 9
    mha = MultiHeadAttention(AttentionConfig(d, heads, alibi=True, seed=heads)).double()
    x = randn(length, d, seed=heads)
    with torch.no_grad():
        trace = mha(x, causal=True)
    below = 2 ** math.floor(math.log2(heads))  # the paper's slopes, in Python floats (float64)
    slopes = [2.0 ** (-8 * (i + 1) / below) for i in range(below)]
    slopes += [2.0 ** (-8 * (i + 1) / (2 * below)) for i in range(2 * below)][0::2][: heads - below]
    assert alibi_slopes(heads, torch.float64).tolist() == slopes  # exact: the same float64 operations
    q, k = trace.q.numpy(), trace.k.numpy()  # (h, L, d_k): an unbatched input
    i, j = np.arange(length)[:, None], np.arange(length)[None, :]
    scores = q @ k.transpose(0, 2, 1) / math.sqrt(d // heads) - np.array(slopes)[:, None, None] * (i - j)
    scores = np.where(j > i, -np.inf, scores)
    w = np.exp(scores - scores.max(-1, keepdims=True))
    w /= w.sum(-1, keepdims=True)
    np.testing.assert_allclose(trace.weights.numpy(), w, rtol=0, atol=1e-12)
    assert alibi_bias(heads, 4, dtype=torch.float64).dtype == torch.float64


# ----- torch's scaled_dot_product_attention -----------------------------------------------------------
def sdpa(trace, **kwargs) -> Tensor:
    return F.scaled_dot_product_attention(trace.q, trace.k, trace.v, **kwargs)


@pytest.mark.parametrize(("heads", "kv_heads"), [(8, 8), (8, 4), (8, 2), (8, 1), (6, 2)])
def test_shared_kv_heads_equal_sdpa_with_enable_gqa(heads: int, kv_heads: int) -> None:
    mha = MultiHeadAttention(AttentionConfig(4 * heads, heads, n_kv_heads=kv_heads, seed=kv_heads)).double()
    x = randn(2, 9, 4 * heads)
    for causal in (False, True):
        trace = mha(x, causal=causal)
        torch.testing.assert_close(trace.head_outputs, sdpa(trace, is_causal=causal, enable_gqa=True), **TIGHT)


@pytest.mark.parametrize("window", [1, 2, 3, 5, 8])
def test_sliding_window_equals_sdpa_with_an_explicit_window_mask(window: int) -> None:
    mha = MultiHeadAttention(AttentionConfig(32, 4, n_kv_heads=2, rope=True, seed=window)).double()
    x = randn(2, 11, 32)
    trace = mha(x, causal=True, window=window)
    i, j = torch.arange(11)[:, None], torch.arange(11)[None, :]
    visible = (j <= i) & (j > i - window)  # written here: key j within the last w keys of query i
    torch.testing.assert_close(trace.head_outputs, sdpa(trace, attn_mask=visible, enable_gqa=True), **TIGHT)
    assert torch.equal(~trace.mask[0, 0], visible)


@pytest.mark.parametrize("block_size", [1, 2, 3, 4, 5, 7, 12, 13, 64])
@pytest.mark.parametrize("causal", [False, True])
def test_tiled_attention_equals_sdpa(block_size: int, causal: bool) -> None:
    q, k, v = randn(2, 3, 12, 8, seed=1), randn(2, 3, 12, 8, seed=2), randn(2, 3, 12, 5, seed=3)
    mask = causal_mask(12, dtype=torch.float64) if causal else None
    tiled = tiled_attention(q, k, v, block_size, mask=mask)
    torch.testing.assert_close(tiled.output, F.scaled_dot_product_attention(q, k, v, is_causal=causal), **TIGHT)
    assert tiled.block_starts == tuple(range(0, 12, block_size))


def test_tiled_running_max_and_sum_are_the_softmax_normalisers_of_the_keys_so_far() -> None:
    q, k, v = randn(4, 8, seed=4), randn(10, 8, seed=5), randn(10, 3, seed=6)
    tiled = tiled_attention(q, k, v, 3)
    scores = (q @ k.T) / 8**0.5  # (Lq, Lk), written here
    for n, start in enumerate(tiled.block_starts):
        seen = scores[:, : start + 3]
        m = seen.amax(-1)
        torch.testing.assert_close(tiled.running_max[n], m, **TIGHT)
        torch.testing.assert_close(tiled.running_sum[n], torch.exp(seen - m[:, None]).sum(-1), **TIGHT)
        partial = torch.softmax(seen, -1) @ v[: start + 3]
        torch.testing.assert_close(tiled.partial_output[n], partial, **TIGHT)


# ----- the KV cache against the full causal forward ------------------------------------------------------
@pytest.mark.parametrize(
    "options",
    [{}, {"n_kv_heads": 2}, {"n_kv_heads": 1, "rope": True}, {"rope": True}, {"alibi": True}],
    ids=["mha", "gqa", "mqa+rope", "rope", "alibi"],
)
@pytest.mark.parametrize("window", [None, 3])
def test_the_cache_gives_the_full_causal_forward_at_every_step(options: dict, window: int | None) -> None:
    mha = MultiHeadAttention(AttentionConfig(32, 4, seed=7, **options)).double()
    x = randn(2, 8, 32, seed=8)
    full = mha(x, causal=True, window=window)
    cache = KVCache()
    for t in range(8):
        step = mha(x[:, t : t + 1], causal=True, cache=cache, window=window)
        torch.testing.assert_close(step.output[:, 0], full.output[:, t], **TIGHT)
        torch.testing.assert_close(step.weights[:, :, 0], full.weights[:, :, t, : t + 1], **TIGHT)
        torch.testing.assert_close(step.q[:, :, 0], full.q[:, :, t], **TIGHT)
        torch.testing.assert_close(step.k, full.k[:, :, : t + 1], **TIGHT)  # the cache so far
        assert len(cache) == t + 1 and step.k is cache.k


def test_a_cache_filled_with_a_prompt_then_one_token_at_a_time() -> None:
    mha = MultiHeadAttention(AttentionConfig(16, 4, n_kv_heads=2, rope=True, seed=3)).double()
    x = randn(10, 16, seed=9)
    full = mha(x, causal=True)
    cache = KVCache()
    prompt = mha(x[:6], causal=True, cache=cache)  # the prompt at once
    torch.testing.assert_close(prompt.output, full.output[:6], **TIGHT)
    for t in range(6, 10):
        torch.testing.assert_close(mha(x[t : t + 1], causal=True, cache=cache).output[0], full.output[t], **TIGHT)
