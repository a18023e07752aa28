"""Every claim the pages "Heads that share keys and values", "Where positions go" and "Long context" make, checked
against a computation written here (numpy, torch, the formulas), not against the pages' own numbers."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
import torch

from explorer import Settings, apply_preset, run_scene
from explorer.llm import (
    CACHE_COLUMNS,
    POSITIONS,
    beyond_view,
    cache_rows,
    cache_table,
    kv_head_choices,
    memory_rows,
    positions_view,
    scene_layer,
    sharing_view,
    tiling_view,
    window_view,
)
from explorer.models import LLM_MODELS
from mha_core import alibi_bias, apply_rope, mean_pool_kv

SETTINGS = {
    "default": Settings(),
    "zh": apply_preset(Settings(), "zh"),
    "small": Settings(text="a b c d e f", d_model=12, n_heads=6, seed=3),
    "worked": apply_preset(Settings(), "worked"),
}


# ----- heads that share keys and values ----------------------------------------------------------------------
@pytest.mark.parametrize("name", list(SETTINGS))
def test_sharing_keeps_h_maps_and_shrinks_only_wk_wv(name: str) -> None:
    s = SETTINGS[name]
    d, h, dk = s.d_model, s.n_heads, s.d_k
    for g in kv_head_choices(h):
        view = sharing_view(s, g)
        assert view.weights.shape[0] == view.weights_mha.shape[0] == h  # still h queries, h maps
        assert view.params.weights == 2 * d * d + 2 * d * g * dk  # 2 d^2 + 2 d g d_k
        assert view.params.w_q == view.params_mha.w_q and view.params.w_o == view.params_mha.w_o
        assert view.params_mha.w_k == (h // g) * view.params.w_k  # W^K (and W^V) shrink by h / g
        assert sorted(i for grp in view.kv_groups for i in grp) == list(range(h))
        if g == h:
            np.testing.assert_allclose(view.weights, view.weights_mha, atol=1e-6)
            assert view.change.max() < 1e-6


def test_heads_of_a_group_score_against_the_same_keys_yet_their_maps_differ() -> None:
    s = SETTINGS["default"]
    scene = run_scene(s)
    mha = scene_layer(scene)
    shared = mean_pool_kv(mha, 2)
    x = torch.from_numpy(np.array(scene.x_in))
    with torch.no_grad():
        trace = shared(x, causal=True)
    for j, group in enumerate(trace.kv_groups):
        for i in group:  # written here: q_i against the group's one K, scaled
            expected = trace.q[i] @ trace.k[j].T / math.sqrt(scene.d_k)
            torch.testing.assert_close(trace.scores[i], expected)
        maps = [trace.weights[i] for i in group]
        assert all((maps[0] - other).abs().max() > 1e-3 for other in maps[1:])  # each keeps its own W_i^Q
    view = sharing_view(s, 2)
    assert view.change.min() > 0  # without training again, every map moves


def keys_read_with_a_sliding_window(window: int, tokens: int) -> int:
    """How many keys and values the last of `tokens` decoding steps reads from transformers' Mistral with its own
    cache (a tiny random model, eager attention): its attention row's length."""
    import warnings

    from transformers import MistralConfig, MistralForCausalLM
    from transformers.cache_utils import DynamicCache

    cfg = MistralConfig(vocab_size=50, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                        num_attention_heads=4, num_key_value_heads=2, head_dim=8, sliding_window=window,
                        max_position_embeddings=64)  # fmt: skip
    cfg._attn_implementation = "eager"
    torch.manual_seed(0)
    model, cache = MistralForCausalLM(cfg).eval(), DynamicCache(config=cfg)
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(tokens):
            out = model(torch.randint(0, 50, (1, 1)), cache=cache, use_cache=True, output_attentions=True)
            cache = out.past_key_values
    return out.attentions[0].shape[-1]


def test_the_real_models_table_is_the_formula_on_published_sizes() -> None:
    for row, m in zip(cache_rows(), LLM_MODELS, strict=True):
        assert m.d_model == m.n_heads * m.d_k and m.n_heads % m.n_kv_heads == 0  # the published sizes agree
        held = m.context if m.window is None else min(m.context, m.window)  # a sliding window keeps its last w
        assert row.per_token == 2 * m.layers * m.n_kv_heads * m.d_k * 2
        assert row.at_context == row.per_token * held
        assert row.without_sharing == 2 * m.layers * m.n_heads * m.d_k * held * 2
        assert row.saving == m.n_heads / m.n_kv_heads
    by_name = {r.model.name: r for r in cache_rows()}
    assert by_name["Llama-2-70B (2023)"].per_token == 320 * 1024  # 2 x 80 x 8 x 128 x 2 bytes
    assert by_name["GPT-3 175B (2020)"].saving == 1  # GPT-3: every head its own K and V


def test_mistral_keeps_its_last_window_of_tokens_so_its_cache_is_half_a_gib() -> None:
    """The rolling buffer cache: transformers' Mistral, decoding past its window, never reads more than w keys in a
    step; so at its context of 8,192 tokens the cache holds the last 4,096: 0.5 GiB, not 1 GiB."""
    assert [keys_read_with_a_sliding_window(4, n) for n in (2, 4, 5, 9)] == [2, 4, 4, 4]
    mistral = next(r for r in cache_rows() if r.model.name.startswith("Mistral"))
    assert (mistral.model.context, mistral.model.window, mistral.model.cached_tokens) == (8192, 4096, 4096)
    assert mistral.at_context == 2 * 32 * 8 * 128 * 4096 * 2 == 2**29  # 0.5 GiB


def test_the_table_has_a_multi_query_model_and_qwen2_context_from_its_config() -> None:
    by_name = {r.model.name: r for r in cache_rows()}
    gemma = by_name["Gemma-2B (2024)"]
    assert gemma.model.n_kv_heads == 1 < gemma.model.n_heads  # multi-query attention: one K/V head
    assert gemma.per_token == 2 * 18 * 1 * 256 * 2 == 18 * 1024  # 18 KiB a token
    for name in ("Qwen2-7B (2024)", "Qwen2-72B (2024)"):
        m = by_name[name].model
        assert m.context == 131_072 and "max_position_embeddings" in m.source  # what the cited config.json says
    rows = cache_table()
    gib = {r[0]: r[CACHE_COLUMNS.index("llm.share.col_gib")] for r in rows}
    assert gib["Mistral-7B (2023)"] == "0.50" and gib["Gemma-2B (2024)"] == f"{18 * 1024 * 8192 / 2**30:.2f}"
    assert all(len(r) == len(CACHE_COLUMNS) for r in rows)


# ----- where positions go ---------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["default", "zh", "small"])
@pytest.mark.parametrize("shift", [1, 100, 4096])
def test_moving_the_sentence_changes_sinusoidal_scores_only(name: str, shift: int) -> None:
    view = positions_view(SETTINGS[name], shift)
    change = dict(zip(POSITIONS, view.score_change, strict=True))
    assert change["sinusoidal"] > 1e-2  # X + P is a new input
    assert change["alibi"] == 0.0  # exact: the penalty depends on i - j only, nothing else moved
    scores_size = np.abs(view.weights).max()
    assert view.rope_ok and change["rope"] < 1e-3 * max(1.0, scores_size)  # float32 rounding only
    assert np.abs(view.shifted[2] - view.weights[2]).max() == 0.0
    np.testing.assert_allclose(view.shifted[1], view.weights[1], atol=1e-4)


def test_rope_turns_q_and_k_and_leaves_v_alone() -> None:
    scene = run_scene(SETTINGS["default"])
    x = torch.from_numpy(np.array(scene.x))
    with torch.no_grad():
        plain, rope = scene_layer(scene)(x, causal=True), scene_layer(scene, rope=True)(x, causal=True)
    assert torch.equal(plain.v, rope.v)
    assert not torch.allclose(plain.q[:, 1:], rope.q[:, 1:])  # position 0 is not turned; later ones are
    torch.testing.assert_close(plain.q[:, 0], rope.q[:, 0])
    torch.testing.assert_close(plain.q.norm(dim=-1), rope.q.norm(dim=-1))  # turning keeps lengths


def test_rope_needs_an_even_d_k() -> None:
    s = Settings(d_model=12, n_heads=4)  # d_k = 3
    view = positions_view(s, 10)
    assert not view.rope_ok and np.isnan(view.score_change[1]) and np.isfinite(view.score_change[[0, 2]]).all()


@pytest.mark.parametrize(("d_k", "trained"), [(16, 64), (64, 512), (128, 4096), (64, 2048)])
def test_rope_pairs_that_never_turned_within_the_trained_length(d_k: int, trained: int) -> None:
    view = beyond_view(d_k, trained, 8)
    j = np.arange(d_k // 2)
    wavelength = 2 * np.pi * 10000.0 ** (2 * j / d_k)  # written here
    np.testing.assert_allclose(view.wavelengths, wavelength, rtol=1e-12)
    angle_at_end = (trained - 1) / 10000.0 ** (2 * j / d_k)
    assert view.unseen == int((angle_at_end < 2 * np.pi).sum())
    # a pair turned by one wavelength is back where it started: that is what "a full turn" means
    x = torch.randn(3, d_k, dtype=torch.float64)
    for pair in (0, d_k // 4):
        turned = apply_rope(x, torch.tensor([wavelength[pair]] * 3, dtype=torch.float64))
        torch.testing.assert_close(turned[:, [pair, pair + d_k // 2]], x[:, [pair, pair + d_k // 2]])


def test_alibi_penalty_is_one_straight_line_beyond_the_trained_length() -> None:
    bias = alibi_bias(8, 1, 2049, past=2048).double()  # the last query of 2049 tokens against every key
    distance = 2048 - torch.arange(2049)
    slopes = -bias[:, 0, 0] / 2048
    torch.testing.assert_close(bias[:, 0], -slopes[:, None] * distance, rtol=1e-6, atol=1e-4)
    torch.testing.assert_close(bias[:, 0, 2048 - 1024], 0.5 * bias[:, 0, 0])  # twice as far, twice the penalty


# ----- long context -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("length", "window", "layers"), [(24, 4, 3), (16, 1, 4), (30, 7, 2), (10, 16, 6)])
def test_window_view_reach_and_first_layers(length: int, window: int, layers: int) -> None:
    view = window_view(length, window, layers)
    last = view.first_layer[-1]
    reached = np.flatnonzero(np.isfinite(last))
    assert length - 1 - reached.min() == min(view.reach, length - 1) and view.reach == layers * (window - 1)
    for j in reached:  # written here: key j (distance d back) first reaches through layer ceil(d / (w - 1))
        d = length - 1 - j
        assert last[j] == (1 if d == 0 else math.ceil(d / (window - 1)))
    assert np.isnan(view.first_layer[np.triu_indices(length, 1)]).all()  # the future never
    assert view.visible.sum() == sum(min(i + 1, window) for i in range(length))


def test_memory_table_is_l_squared_against_l() -> None:
    for length, full, tiled in memory_rows((1024, 4096, 131072), 128, 8):
        assert full == 8 * length * length * 4
        assert tiled == 8 * (length * 128 + 2 * length) * 4
        assert full / tiled == pytest.approx(length / 130)  # L / (b + 2)


@pytest.mark.parametrize("name", ["default", "zh", "small"])
@pytest.mark.parametrize("block", [1, 2, 3, 5, 64])
def test_tiling_view_keeps_the_running_max_and_sum_of_the_softmax(name: str, block: int) -> None:
    s = SETTINGS[name]
    scene = run_scene(s)
    view = tiling_view(s, 0, block)
    q, k = np.array(scene.q[0], dtype=np.float64), np.array(scene.k[0], dtype=np.float64)
    row = q[-1] @ k.T * scene.scale_factor  # written here: the last query sees every key
    np.testing.assert_allclose(view.scores, row, rtol=1e-12)
    for n, start in enumerate(view.block_starts):
        seen = row[: start + block]
        assert view.running_max[n] == pytest.approx(seen.max(), rel=1e-12)
        assert view.running_sum[n] == pytest.approx(np.exp(seen - seen.max()).sum(), rel=1e-12)
    assert view.gap < 1e-10 and len(view.block_starts) == math.ceil(len(row) / block)


def test_pages_survive_odd_settings() -> None:
    for s in (Settings(text="x", d_model=4, n_heads=1), dataclasses.replace(SETTINGS["small"], cross=True,
              text_kv="p q r s t u v w"), Settings(mask="padding")):  # fmt: skip
        for g in kv_head_choices(s.n_heads):
            sharing_view(s, g)
        positions_view(s, 5)
        tiling_view(s, 0, 2)


@pytest.mark.parametrize("block", [1, 3, 8, 64])
def test_tiling_saves_memory_not_multiplications(block: int) -> None:
    """The long-context page: tiling still computes every one of the L^2 scores, with the same multiplications as
    plain softmax attention (torch's FlopCounterMode on both); what it saves is memory."""
    from torch.utils.flop_counter import FlopCounterMode

    from mha_core import tiled_attention

    gen = torch.Generator().manual_seed(block)
    q, k, v = (torch.randn(2, 64, 16, generator=gen, dtype=torch.float64) for _ in range(3))
    with FlopCounterMode(display=False) as plain:
        torch.softmax(q @ k.transpose(-2, -1) / 4.0, -1) @ v
    with FlopCounterMode(display=False) as tiled:
        out = tiled_attention(q, k, v, block)
    assert tiled.get_total_flops() == plain.get_total_flops() == 2 * 2 * (2 * 64 * 64 * 16)  # Q K^T and A V
    torch.testing.assert_close(out.output, torch.softmax(q @ k.transpose(-2, -1) / 4.0, -1) @ v)
    full, kept = memory_rows((64,), block, 1)[0][1:]  # one head's bytes: the full L x L scores, what tiling keeps
    assert full == 64 * 64 * 4 and kept == 64 * (block + 2) * 4
