"""Note 004's claims as computations (mha_core.note004), each against numpy written here."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
import torch

from explorer import Settings, run_scene
from i18n import t
from mha_core import MultiHeadAttention, contribution_similarity, head_similarity, score_rank
from mha_core.note004 import (
    bottleneck_sweep,
    cost_by_heads,
    inclusion_check,
    kernel_view,
    reachable_keys,
    rho_extremes,
    rotation,
    rotation_demo,
    time_by_heads,
)


def np_softmax(s: np.ndarray) -> np.ndarray:
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def np_layer(x, wq, wk, wv, wo):
    """Multi-head attention in numpy: per-head weights (h, d, dk), W^O (h*dk, d). Returns output, heads."""
    h, _, dk = wq.shape
    heads = []
    for i in range(h):
        q, k, v = x @ wq[i], x @ wk[i], x @ wv[i]
        heads.append(np_softmax(q @ k.T / math.sqrt(dk)) @ v)
    heads = np.stack(heads)
    return np.concatenate(list(heads), axis=-1) @ wo, heads


def np_cos(a: np.ndarray) -> np.ndarray:
    flat = a.reshape(a.shape[0], -1)
    unit = flat / np.linalg.norm(flat, axis=1, keepdims=True)
    return unit @ unit.T


def random_layer(d=12, h=3, length=7, seed=1):
    rng = np.random.default_rng(seed)
    dk = d // h
    return (rng.normal(size=(length, d)), rng.normal(size=(h, d, dk)) / 3, rng.normal(size=(h, d, dk)) / 3,
            rng.normal(size=(h, d, dk)) / 3, rng.normal(size=(d, d)) / 3)  # fmt: skip


def test_rotation_is_orthogonal_and_starts_at_identity():
    for dk in (1, 2, 5):
        r = rotation(dk, 1.3).numpy()
        np.testing.assert_allclose(r @ r.T, np.eye(dk), atol=1e-12)
        np.testing.assert_allclose(rotation(dk, 0.0).numpy(), np.eye(dk), atol=1e-12)
    assert rotation(1, math.pi).item() == pytest.approx(-1.0, abs=1e-15)  # cos(pi) through libm: not exact


def test_rotating_a_value_space_leaves_the_output_and_moves_rho():
    x, wq, wk, wv, wo = random_layer()
    demo = rotation_demo(x, wq, wk, wv, wo, head=1, angle=2.0)
    r = demo.r
    wv2, wo2 = wv.copy(), wo.copy()
    wv2[1] = wv[1] @ r
    wo2[4:8] = r.T @ wo[4:8]
    out1, heads1 = np_layer(x, wq, wk, wv, wo)
    out2, heads2 = np_layer(x, wq, wk, wv2, wo2)
    np.testing.assert_allclose(out1, out2, atol=1e-12)  # the layer computes the same function
    assert demo.max_output_change < 1e-12
    np.testing.assert_allclose(demo.rho_before, np_cos(heads1), atol=1e-12)
    np.testing.assert_allclose(demo.rho_after, np_cos(heads2), atol=1e-12)
    assert np.abs(demo.rho_after - demo.rho_before).max() > 0.01  # rho moved
    contrib = lambda heads, w: np.stack([heads[i] @ w[4 * i:4 * (i + 1)] for i in range(3)])  # noqa: E731
    np.testing.assert_allclose(demo.contrib_before, np_cos(contrib(heads1, wo)), atol=1e-12)
    np.testing.assert_allclose(demo.contrib_after, demo.contrib_before, atol=1e-12)  # invariant


def test_two_identical_heads_have_rho_1_until_one_is_rotated():
    x, wq, wk, wv, wo = random_layer(d=8, h=2)
    for w in (wq, wk, wv):
        w[1] = w[0]  # head 2 computes exactly what head 1 does
    demo = rotation_demo(x, wq, wk, wv, wo, head=1, angle=math.pi / 2)
    assert demo.rho_before[0, 1] == pytest.approx(1.0)
    assert demo.rho_after[0, 1] < 0.9  # the same head, in other coordinates
    assert demo.max_output_change < 1e-12


def test_rotation_on_the_default_setting_moves_rho_12_but_not_the_contributions():
    sc = run_scene(Settings())
    lo, hi, _, r_lo = rho_extremes(sc.head_outputs, 0, 1)
    demo = rotation_demo(sc.x_in, sc.w_q_heads, sc.w_k_heads, sc.w_v_heads, sc.w_o, head=1, angle=0.0, r=r_lo)
    np.testing.assert_allclose(demo.rho_before, sc.head_sim, atol=1e-5)
    np.testing.assert_allclose(demo.contrib_before, sc.contrib_sim, atol=1e-5)
    assert demo.max_output_change < 1e-12 * max(1.0, demo.output_scale) * 100
    assert demo.rho_after[0, 1] == pytest.approx(lo, abs=1e-5)
    assert lo < -0.3 < 0.3 < hi and lo <= sc.head_sim[0, 1] <= hi  # the issue measured 0.157 -> -0.526
    np.testing.assert_allclose(demo.contrib_after, demo.contrib_before, atol=1e-10)


def test_rho_extremes_are_the_procrustes_bounds():
    rng = np.random.default_rng(0)
    heads = rng.normal(size=(2, 6, 3))
    lo, hi, r_hi, r_lo = rho_extremes(heads, 0, 1)
    for _ in range(300):  # no random orthogonal R does better
        r, _ = np.linalg.qr(rng.normal(size=(3, 3)))
        rho = np_cos(np.stack([heads[0], heads[1] @ r]))[0, 1]
        assert lo - 1e-12 <= rho <= hi + 1e-12
    for r, want in ((r_hi, hi), (r_lo, lo)):
        r = r.numpy()
        np.testing.assert_allclose(r @ r.T, np.eye(3), atol=1e-12)
        assert np_cos(np.stack([heads[0], heads[1] @ r]))[0, 1] == pytest.approx(want)


def test_contribution_similarity_matches_numpy():
    sc = run_scene(Settings())
    contrib = np.einsum("hld,hde->hle", sc.head_outputs.astype(np.float64), sc.w_o_heads.astype(np.float64))
    np.testing.assert_allclose(sc.contrib_sim, np_cos(contrib), atol=1e-5)
    got = contribution_similarity(torch.tensor(sc.head_outputs), torch.tensor(sc.w_o_heads)).numpy()
    np.testing.assert_allclose(got, sc.contrib_sim)


def test_score_rank_is_at_most_dk():
    for h in (1, 4, 16):
        sc = run_scene(Settings(n_heads=h))
        s64 = np.einsum("hqd,hkd->hqk", sc.q.astype(np.float64), sc.k.astype(np.float64))  # Q_i K_i^T
        expected = [np.linalg.matrix_rank(s64[i]) for i in range(h)]
        assert list(score_rank(torch.tensor(s64)).numpy()) == expected
        assert list(score_rank(torch.tensor(sc.scores)).numpy()) == expected  # float32, as the layer gives it
        assert max(expected) == min(sc.d_k, sc.len_q)  # generic weights reach the bound


def test_bottleneck_sweep_ranks_and_reachable_keys():
    sc = run_scene(Settings())
    rows = bottleneck_sweep(sc.x_in, 64)
    assert [r.max_rank for r in rows] == [min(r.d_k, sc.len_q) for r in rows]  # generic weights reach the bound
    assert [r.n_heads for r in rows] == [1, 2, 4, 8, 16, 32, 64]
    for r in rows:
        assert r.max_rank <= min(r.d_k, sc.len_q)
        assert r.distinct_argmax <= r.reachable + 1e-9
    assert rows[-1].reachable <= 2  # d_k = 1: only the largest or the smallest key can win


def hull_vertices_2d(pts: np.ndarray) -> int:
    """Andrew's monotone chain, written here as the oracle for reachable_keys at d_k = 2."""
    p = sorted(map(tuple, pts))

    def turn(o, a, b):  # z of (a - o) x (b - o)
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    def half(points):
        out = []
        for q in points:
            while len(out) >= 2 and turn(out[-2], out[-1], q) <= 0:
                out.pop()
            out.append(q)
        return out

    return len(half(p)[:-1] + half(p[::-1])[:-1])


def test_reachable_keys_are_the_convex_hull_vertices():
    rng = np.random.default_rng(3)
    for _ in range(5):
        k = rng.normal(size=(12, 2))
        assert reachable_keys(torch.tensor(k), n_dirs=20000) == hull_vertices_2d(k)
    assert reachable_keys(torch.tensor(rng.normal(size=(30, 1)))) == 2


def test_kernel_view_is_asymmetric_unless_wk_equals_wq():
    x, wq, wk, _, _ = random_layer()
    kv = kernel_view(x, wq[0], wk[0])
    s = (x @ wq[0]) @ (x @ wk[0]).T / 2.0
    np.testing.assert_allclose(kv.scores, s, atol=1e-12)
    assert kv.asymmetry == pytest.approx(np.linalg.norm(s - s.T) / np.linalg.norm(s))
    assert kv.asymmetry > 0.1 and kv.max_pair_gap == pytest.approx(np.abs(s - s.T).max())
    tied = kernel_view(x, wq[0], wq[0])
    assert tied.asymmetry < 1e-12  # symmetric up to rounding: BLAS need not give (Q Q^T)^T == Q Q^T bit for bit
    assert np.linalg.eigvalsh(np.exp(tied.scores - tied.scores.max())).min() > -1e-12  # Schur: exp of PSD is PSD


def test_inclusion_needs_rank_at_most_dk_plus_one():
    sc = run_scene(Settings())
    rows = inclusion_check(sc.x_in, 64)
    # generic W^Q, W^K of full rank 64 > L: rank(X W^Q W^Kᵀ Xᵀ) = rank(X) = L = 11
    assert rows[0].single_rank == np.linalg.matrix_rank(sc.x_in.astype(np.float64)) == 11
    for r in rows:
        assert r.reproducible == (r.single_rank <= r.d_k + 1)


def test_cost_by_heads_against_formulas():
    lq, lk, d = 11, 13, 64
    for c in cost_by_heads(lq, lk, d, [1, 2, 8, 64]):
        assert c.matmul_mults == 2 * lq * d * d + 2 * lk * d * d + 2 * lq * lk * d  # no h in it
        assert c.exponentials == c.n_heads * lq * lk
        assert c.score_bytes == 4 * c.n_heads * lq * lk
        mha = MultiHeadAttention.from_weights(c.n_heads, *(torch.randn(d, d) for _ in range(4)))
        tr = mha(torch.randn(lq, d), key=torch.randn(lk, d))
        assert tr.weights.numel() == c.exponentials  # one exponential per score the softmax sees
        assert tr.weights.numel() * tr.weights.element_size() == c.score_bytes


def test_time_by_heads_measures_every_h():
    t = time_by_heads(16, 8, [1, 8], reps=1)
    assert t.shape == (2,) and np.all(t > 0)


def test_head_similarity_of_scene_is_rho():
    sc = run_scene(Settings())
    np.testing.assert_allclose(sc.head_sim, np_cos(sc.head_outputs.astype(np.float64)), atol=1e-5)
    got = head_similarity(torch.tensor(sc.head_outputs)).numpy()
    np.testing.assert_allclose(got, sc.head_sim)


# ----- pages --------------------------------------------------------------------------------------------------
from tests.conftest import plotly_specs  # noqa: E402
from tests.test_app import run_page  # noqa: E402


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_note004_page_draws_every_demonstration(make_app, lang):
    at = run_page(make_app, "note004", lang=lang)
    assert not at.error
    specs = plotly_specs(at)
    assert len(specs) == 6  # bottleneck, basis, S, S^T, tied S, cost
    bottleneck = specs[0]["data"]
    assert [len(tr["x"]) for tr in bottleneck] == [7, 7, 7]  # h = 1, 2, 4, ..., 64 at d_model = 64
    sc = run_scene(Settings())
    np.testing.assert_allclose(specs[2]["data"][0]["z"], np.array(specs[3]["data"][0]["z"]).T, atol=1e-3)
    basis = specs[1]["data"]
    bars = np.array([tr["y"] for tr in basis if tr["type"] == "bar"], dtype=float)
    assert bars.shape == (8, 64)
    np.testing.assert_allclose(bars.sum(axis=0), sc.output[0], atol=2e-3)  # the terms add up to the output row
    tables = at.table
    assert len(tables) == 2


def test_note004_measure_times_every_h(make_app):
    at = run_page(make_app, "note004")
    at.select_slider(key="n4_time_length").set_value(64).run()
    at.button(key="n4_measure").click().run()
    assert not at.exception
    cost = plotly_specs(at)[-1]
    timed = [tr for tr in cost["data"] if tr.get("xaxis") == "x2"]
    assert timed and len(timed[0]["y"]) == 5 and all(v > 0 for v in timed[0]["y"])  # h = 1, 2, 4, 8, 16


@pytest.mark.parametrize("mode", ["angle", "min"])
def test_heads_page_rotation_leaves_output_and_moves_rho(make_app, mode):
    at = run_page(make_app, "heads")
    assert not [r for r in at.radio if r.key == "heads_rot_mode"]  # the expander is closed: nothing runs in it
    at.session_state["heads_rho_open"] = True  # what opening it sends
    at.run()
    at.radio(key="heads_rot_mode").set_value(mode).run()
    assert not at.exception
    text = next(m.value for m in at.markdown if m.value.startswith("Head 2 turned"))
    gap = float(re.search(r"output: \*\*([0-9.e+-]+)\*\*", text).group(1))
    before, after = map(float, re.search(r"\*\*([−\-0-9.]+) → ([−\-0-9.]+)\*\*", text).groups())
    cb, ca = map(float, re.findall(r"\*\*([−\-0-9.]+) → ([−\-0-9.]+)\*\*", text)[1])
    # the cosine is unchanged by the turn; shown to 3 decimals, two roundings may differ by one in the last digit
    assert gap < 1e-12 and abs(after - before) > 0.01 and abs(cb - ca) <= 0.0011
    if mode == "min":
        assert after < -0.3


def test_rotation_with_biases_rotates_the_value_bias_too():
    x, wq, wk, wv, wo = random_layer()
    rng = np.random.default_rng(5)
    biases = tuple(rng.normal(size=12) for _ in range(4))
    demo = rotation_demo(x, wq, wk, wv, wo, head=2, angle=1.0, biases=biases)
    assert demo.max_output_change < 1e-12
    r = demo.r
    # numpy with biases: head 3's values x W_3^V + b_3^V, rotated: (x W_3^V + b_3^V) R, W^O_3 -> R^T W^O_3
    v = x @ wv[2] + biases[2][8:12]
    assert not np.allclose(v @ r, v)
    assert np.abs(demo.rho_after - demo.rho_before).max() > 0.01


def test_training_lab_compares_contributions_before_and_after():
    from dataclasses import replace

    from training import DEFAULTS, TASK_NAMES
    from training.trainer import Trainer

    trainer = Trainer(replace(DEFAULTS[TASK_NAMES[0]], steps=20))
    with torch.no_grad():
        traces = trainer.model(trainer.probe.tokens[None]).traces
    for layer, tr in enumerate(traces):
        contrib = np.einsum("hld,hde->hle", tr.head_outputs[0].double().numpy(), tr.w_o_heads.detach().double().numpy())
        np.testing.assert_allclose(trainer.contribution_before[layer], np_cos(contrib), atol=1e-5)
    trainer.run(20)
    assert not np.allclose(trainer.contribution_similarity(), trainer.contribution_before)


def test_real_weights_rotation_and_kernel_use_the_layers_biases():
    s = Settings(weight_source="minilm", layer=1, d_model=384, n_heads=12, add_pe=False)
    sc = run_scene(s)
    assert sc.in_proj_bias is not None
    d = 384
    biases = (sc.in_proj_bias[:d], sc.in_proj_bias[d:2 * d], sc.in_proj_bias[2 * d:], sc.out_proj_bias)
    mask = sc.mask[0] if sc.mask.any() else None
    demo = rotation_demo(sc.x_in, sc.w_q_heads, sc.w_k_heads, sc.w_v_heads, sc.w_o, head=1, angle=1.0,
                         attn_mask=mask, biases=biases)  # fmt: skip
    np.testing.assert_allclose(demo.rho_before, sc.head_sim, atol=1e-4)  # the real layer, biases included
    np.testing.assert_allclose(demo.contrib_before, sc.contrib_sim, atol=1e-4)
    assert demo.max_output_change < 1e-9
    kv = kernel_view(sc.x_in, sc.w_q_heads[2], sc.w_k_heads[2], True, *sc.qk_biases(2))
    np.testing.assert_allclose(kv.scores, sc.scores[2], atol=1e-3)


@pytest.mark.parametrize(("present", "chart_columns"), [(False, 2), (True, 0)])
def test_the_two_rho_maps_stand_side_by_side_except_on_a_projector(make_app, present, chart_columns):
    """Half a 1280-px projector is too narrow for 8 heads' numbers in big type: there the maps stack."""
    at = run_page(make_app, "heads")
    at.session_state["present"] = present
    at.session_state["heads_rho_open"] = True
    at.run()
    assert not at.exception
    rho = next(e for e in at.expander if e.label == t("hs.rho_title"))  # its ρ_ij is LaTeX ($\rho_{ij}$)
    assert len(rho.columns) == 3 + chart_columns  # the turn, pair and rotation choices, then the maps' own


@pytest.mark.parametrize(("page", "in_rows"), [("subspaces", 2), ("positional", 2), ("minilm", 6)])
def test_charts_in_a_row_stack_on_a_projector(make_app, page, in_rows):
    """Subspaces' two scoring maps, Positional's heatmap beside its wavelength chart and MiniLM's six part heatmaps
    (Q K V, S A O, three to a row) stand in columns on a wide screen; on a projector each takes the full width (half
    or a third of 1280 px in big type ran the numbers and the x axis's token labels into each other)."""
    at = run_page(make_app, page)
    wide = len(at.columns)
    at.session_state["present"] = True
    at.run()
    assert not at.exception
    assert len(at.columns) == wide - in_rows
