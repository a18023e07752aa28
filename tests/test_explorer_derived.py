"""The numbers pages take from explorer/derived.py and mha_core/why.py instead of computing them themselves,
each checked against numpy or torch written here."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from explorer import (
    Settings,
    off_diagonal,
    output_by_head,
    positional_tables,
    run_scene,
    valid_head_counts,
    weight_blocks,
)
from mha_core.why import layer_norm_stats, residual_layer_norm


@pytest.mark.parametrize(("length", "d_model", "base"), [(7, 6, 10000.0), (5, 9, 100.0)])
def test_positional_tables_follow_the_sine_cosine_formula(length, d_model, base):
    tables = positional_tables(length, d_model, base)
    want = np.zeros((length, d_model))
    for i in range(length):
        for col in range(d_model):
            angle = i / base ** (2 * (col // 2) / d_model)
            want[i, col] = math.sin(angle) if col % 2 == 0 else math.cos(angle)
    np.testing.assert_allclose(tables.p, want, atol=1e-6)
    np.testing.assert_allclose(tables.similarity, want @ want.T, atol=1e-5)
    pairs = range((d_model + 1) // 2)  # sin/cos column pairs j: columns 2j and 2j + 1
    np.testing.assert_allclose(tables.wavelengths, [2 * math.pi * base ** (2 * j / d_model) for j in pairs], rtol=1e-9)
    assert not tables.p.flags.writeable  # cached: nobody may change what the next caller gets


def test_weight_blocks_are_the_column_blocks_of_the_fused_matrix():
    w = np.random.default_rng(0).normal(size=(12, 12))
    for h in (1, 2, 3, 4, 6, 12):
        blocks = weight_blocks(w, h)
        d_k = 12 // h
        assert blocks.shape == (h, 12, d_k)
        for i in range(h):
            np.testing.assert_array_equal(blocks[i], w[:, i * d_k : (i + 1) * d_k])


def test_output_by_head_adds_up_to_concat_times_w_o():
    scene = run_scene(Settings(d_model=16, n_heads=4))
    by_head = output_by_head(scene)
    d_k = 4
    for i in range(4):
        want = scene.head_outputs[i] @ scene.w_o[i * d_k : (i + 1) * d_k, :]  # W^O_i: the rows head i feeds
        np.testing.assert_allclose(by_head.contributions[i], want, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(by_head.contributions.sum(axis=0), scene.output, atol=1e-5)  # no bias in the app
    assert 0 <= by_head.gap < 1e-5


def test_off_diagonal_summary_leaves_out_each_head_with_itself():
    sim = np.array([[1.0, -0.5, 0.2], [-0.5, 1.0, 0.1], [0.2, 0.1, 1.0]])
    rho = off_diagonal(sim)
    pairs = [sim[i, j] for i in range(3) for j in range(3) if i != j]
    assert (rho.low, rho.high) == (min(pairs), max(pairs))
    assert rho.mean_abs == pytest.approx(np.mean(np.abs(pairs)))
    assert off_diagonal(np.ones((1, 1))) is None


def test_valid_head_counts_divide_d_model():
    assert valid_head_counts(12) == [1, 2, 3, 4, 6, 12]
    assert valid_head_counts(1024) == [1, 2, 4, 8, 16, 32, 64]  # at most 64 heads
    assert all(96 % h == 0 for h in valid_head_counts(96))


def test_layer_norm_stats_are_the_row_mean_and_std_of_torch_layer_norm():
    x, a = np.random.default_rng(1).normal(size=(2, 5, 8))
    y = residual_layer_norm(x, a)
    want = torch.nn.functional.layer_norm(torch.tensor(x + a), (8,), eps=1e-5).numpy()
    stats = layer_norm_stats(y)
    assert stats.max_abs_mean == pytest.approx(np.abs(want.mean(axis=1)).max(), abs=1e-12)
    assert stats.mean_std == pytest.approx(want.std(axis=1).mean(), rel=1e-9)
    assert stats.max_abs_mean < 1e-9 and stats.mean_std == pytest.approx(1.0, abs=1e-3)


@pytest.mark.parametrize("mode", ["max", "min"])
def test_head_turn_reaches_the_extreme_rho_and_leaves_the_output_alone(mode):
    """The rotation demo of the Heads page (cached per setting): head j's value space turned by the Procrustes R
    moves rho_ij to its highest (lowest) value, computed here with numpy; the layer's output does not change."""
    from explorer.derived import head_turn

    s = Settings(n_heads=4, d_model=16, seed=3)
    head, pair = 2, 0
    turn = head_turn(s, head, pair, mode, 60)
    a, b = np.asarray(run_scene(s).head_outputs[pair], float), np.asarray(run_scene(s).head_outputs[head], float)
    top = np.linalg.svd(b.T @ a, compute_uv=False).sum() / (np.linalg.norm(a) * np.linalg.norm(b))
    want = top if mode == "max" else -top
    assert turn.high == pytest.approx(top) and turn.low == pytest.approx(-top)
    assert turn.demo.rho_after[pair, head] == pytest.approx(want, abs=1e-6)  # the demo reruns the layer in float64
    assert turn.demo.max_output_change < 1e-9 * max(turn.demo.output_scale, 1.0)
    assert head_turn(s, head, pair, mode, 60) is turn  # the second student's run: from the cache
