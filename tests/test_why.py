"""The "why it works" pages: every number against an independent formula, and AppTest runs of both pages."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
import torch

from figures.why import cost_figure, fused_weight_figure, parameter_figure, scaling_figure
from mha_core import AttentionConfig, MultiHeadAttention, parameter_count
from mha_core.why import (
    additive_attention,
    cost_curve,
    head_contributions,
    residual_layer_norm,
    scaling_experiment,
    score_bytes,
    softmax_jacobian_norm,
    time_forward,
)
from tests.conftest import chart_spec, charts
from tests.test_app import run_page


def test_softmax_jacobian_norm_matches_autograd():
    s = torch.randn(5, 7, dtype=torch.float64) * 3
    for row, got in zip(s, softmax_jacobian_norm(s), strict=True):
        jac = torch.autograd.functional.jacobian(lambda z: torch.softmax(z, dim=-1), row)
        assert float(got) == pytest.approx(float(torch.linalg.matrix_norm(jac)), rel=1e-10)


def test_scaling_experiment_shows_spread_sqrt_dk_and_saturation():
    r = scaling_experiment((4, 64, 1024), n_keys=16, n_rows=2000)
    np.testing.assert_allclose(r.spread, np.sqrt([4, 64, 1024]), rtol=0.08)  # Var(q.k) = d_k
    assert np.ptp(r.entropy_scaled) < 0.1  # scaled: the same softmax at every d_k
    assert r.entropy_raw[0] > r.entropy_raw[1] > r.entropy_raw[2]  # unscaled: ever more peaked
    assert r.max_weight_raw[-1] > 0.9 and r.max_weight_scaled[-1] < 0.5
    assert r.grad_raw[-1] < 0.3 * r.grad_scaled[-1]  # saturated softmax: the gradient vanishes
    assert np.all(r.entropy_scaled <= math.log(16) + 1e-9)


def test_cost_curve_is_the_hand_count():
    d, h = 64, 8
    quad, lin = cost_curve([1, 10, 100], d, h)
    for length, q, li in zip([1, 10, 100], quad, lin, strict=True):
        # QK^T and AV: L*L*d_k mults per head each, scaling: one per score
        assert q == 2 * length * length * d + h * length * length
        assert li == 4 * length * d * d  # four (L x d) @ (d x d) products
    assert score_bytes(11, 11, 8) == 8 * 11 * 11 * 4


def test_parameters_do_not_depend_on_h():
    totals = {parameter_count(512, h).total for h in (1, 2, 4, 8, 16, 32)}
    assert totals == {4 * 512 * 512 + 4 * 512}
    fig = json.loads(parameter_figure([1, 2, 4], {"W": [10, 10, 10], "b": [1, 1, 1]}, [4, 2, 1], 2).to_json())
    assert [a["x"] for a in fig["layout"]["annotations"]] == [0, 1, 2]
    assert "◀" in fig["layout"]["annotations"][1]["text"]


def test_concat_times_wo_is_the_sum_of_head_contributions():
    torch.manual_seed(0)
    mha = MultiHeadAttention(AttentionConfig(d_model=24, n_heads=4, seed=3))
    mha.requires_grad_(False)
    tr = mha(torch.randn(6, 24))
    w_o_heads = tr.w_o.reshape(4, 6, 24).numpy()  # rows of W^O in blocks of d_k
    contrib = head_contributions(tr.head_outputs.numpy(), w_o_heads)
    np.testing.assert_allclose(contrib.sum(0) + tr.b_o.numpy(), tr.output.numpy(), atol=1e-5)
    manual = sum(tr.head_outputs[i].numpy() @ tr.w_o.numpy()[i * 6:(i + 1) * 6] for i in range(4))
    np.testing.assert_allclose(contrib.sum(0), manual, atol=1e-5)


def test_residual_layer_norm_matches_torch_layer_norm():
    x, a = np.random.default_rng(0).normal(size=(2, 5, 16))
    ln = torch.nn.LayerNorm(16, elementwise_affine=False, eps=1e-5, dtype=torch.float64)
    want = ln(torch.from_numpy(x + a)).numpy()
    np.testing.assert_allclose(residual_layer_norm(x, a), want, atol=1e-12)


def test_additive_attention_matches_the_formula_with_the_same_weights():
    rng = np.random.default_rng(1)
    q, k, v = rng.normal(size=(3, 5)), rng.normal(size=(4, 5)), rng.normal(size=(4, 2))
    mask = np.zeros((3, 4), dtype=bool)
    mask[1, 2:] = True
    mask[2, :] = True  # a fully masked row
    got = additive_attention(q, k, v, hidden=6, seed=7, mask=mask)
    w_rng = np.random.default_rng(7)
    w_q, w_k = w_rng.normal(size=(5, 6)) / math.sqrt(5), w_rng.normal(size=(5, 6)) / math.sqrt(5)
    w_v = w_rng.normal(size=6) / math.sqrt(6)
    for i in range(3):
        e = [float(w_v @ np.tanh(q[i] @ w_q + k[j] @ w_k)) for j in range(4)]
        assert got.scores[i] == pytest.approx(e)
        allowed = [j for j in range(4) if not mask[i, j]]
        z = sum(math.exp(e[j]) for j in allowed)
        want = [math.exp(e[j]) / z if j in allowed else 0.0 for j in range(4)] if allowed else [0.0] * 4
        assert got.weights[i] == pytest.approx(want)
    np.testing.assert_allclose(got.output, got.weights @ v)


def test_time_forward_reports_progress_and_positive_times():
    seen = []
    secs = time_forward([4, 8], 16, 2, reps=1, progress=lambda done, total: seen.append((done, total)))
    assert secs.shape == (2,) and np.all(secs > 0) and seen == [(1, 2), (2, 2)]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_figures_build_in_both_languages(lang):
    r = scaling_experiment((2, 8), n_rows=20)
    scaling_figure(r.d_ks, r.n_keys, r.spread, (r.entropy_scaled, r.entropy_raw),
                   (r.max_weight_scaled, r.max_weight_raw), (r.grad_scaled, r.grad_raw), lang=lang)  # fmt: skip
    cost_figure([8, 16], np.array([1.0, 4.0]), np.array([2.0, 4.0]), None, lang=lang)
    cost_figure([8, 16], np.array([1.0, 4.0]), np.array([2.0, 4.0]), np.array([0.1, 0.3]), lang=lang)
    fig = json.loads(fused_weight_figure(np.zeros((8, 8)), 4, lang=lang).to_json())
    assert len(fig["layout"]["shapes"]) == 3 and len(fig["layout"]["xaxis"]["ticktext"]) == 4


@pytest.mark.parametrize("n_heads", [1, 2, 4, 8, 16])
@pytest.mark.parametrize("page", ["why", "subspaces"])
def test_pages_run_for_many_h(make_app, page, n_heads):
    at = run_page(make_app, page, n_heads=n_heads)
    assert not at.error and charts(at)


@pytest.mark.parametrize("page", ["why", "subspaces"])
def test_pages_run_with_masks_cross_attention_and_a_large_model(make_app, page):
    for state in ({"mask": "causal"}, {"mask": "padding", "padded": [0, 2]},
                  {"cross": True, "text_kv": "Le chat dort ."}, {"d_model": 512, "n_heads": 8}):  # fmt: skip
        at = run_page(make_app, page, **state)
        assert not at.error, state


def test_measure_button_times_the_core_and_draws_it(make_app):
    at = run_page(make_app, "why")
    cost = next(chart_spec(c) for c in charts(at) if "why_cost" in c.proto.id)
    assert len(cost["data"]) == 3
    at.button(key="why_measure").click().run()
    assert not at.exception
    cost = next(chart_spec(c) for c in charts(at) if "why_cost" in c.proto.id)
    assert len(cost["data"]) == 4 and all(v > 0 for v in cost["data"][3]["y"])


def test_subspaces_page_reports_the_wo_identity_and_cross_mode(make_app):
    at = run_page(make_app, "subspaces", cross=True, text_kv="Le chat dort .")
    texts = " ".join(m.value for m in at.markdown)
    assert "largest difference between the two sides" in texts
    assert any("cross-attention" in s.value.lower() for s in at.success)


def test_real_model_rows_compute_d_k_and_a_count_torch_agrees_with():
    from explorer import REAL_MODELS, model_rows

    for (name, d_model, h, d_k, _layers, params), m in zip(model_rows(), REAL_MODELS, strict=True):
        assert d_k * h == d_model, name
        torch_mha = torch.nn.MultiheadAttention(d_model, h, bias=True, device="meta")  # no memory for GPT-3
        assert params == sum(p.numel() for p in torch_mha.parameters()), name
        assert params == 4 * m.d_model**2 + 4 * m.d_model


def test_the_minilm_row_matches_the_shipped_model():
    from explorer import REAL_MODELS, model_rows
    from pretrained.loading import load_model

    model = load_model()
    row = next(m for m in REAL_MODELS if m.name == "all-MiniLM-L6-v2")
    assert (row.d_model, row.n_heads, row.layers) == (model.config.d_model, model.config.n_heads, model.config.n_layers)
    (*_, params), = model_rows((row,))
    layer = model.layers[0].attention  # our core, holding the real weights and biases
    assert sum(p.numel() for p in layer.parameters()) == params
