"""Settings validation, presets and the pipeline, checked against independent numpy computations."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
import torch

from explorer import LIMITS, WORKED_EXAMPLE, Settings, apply_preset, run_scene, shape_table, validate


def codes(s: Settings) -> list[str]:
    return [p.code for p in validate(s)]


def numpy_mha(x, xkv, wq, wk, wv, wo, h, scale=True, mask=None):
    """Multi-head attention written out with numpy, head by head (the oracle for the pipeline)."""
    d = wq.shape[0]
    dk = d // h
    outs, weights = [], []
    for i in range(h):
        cols = slice(i * dk, (i + 1) * dk)
        q, k, v = x @ wq[:, cols], xkv @ wk[:, cols], xkv @ wv[:, cols]
        s = q @ k.T / (np.sqrt(dk) if scale else 1.0)
        if mask is not None:
            s = np.where(mask, -np.inf, s)
        e = np.exp(s - s.max(axis=1, keepdims=True))
        a = e / e.sum(axis=1, keepdims=True)
        weights.append(a)
        outs.append(a @ v)
    concat = np.concatenate(outs, axis=1)
    return concat @ wo, np.stack(weights)


def test_default_settings_are_valid():
    assert validate(Settings()) == []


@pytest.mark.parametrize("preset", ["en", "zh", "worked", "paper", "custom"])
def test_every_preset_is_valid_and_runs(preset):
    s = apply_preset(Settings(), preset)
    assert validate(s) == []
    sc = run_scene(s)
    assert sc.weights.shape == (s.n_heads, sc.len_q, sc.len_k)


def test_not_divisible_suggests_valid_heads():
    problems = validate(dataclasses.replace(Settings(), d_model=64, n_heads=7))
    assert [p.code for p in problems] == ["not_divisible"]
    kw = problems[0].kwargs
    assert kw["heads"] == "4, 8"
    assert all(64 % int(h) == 0 for h in kw["heads"].split(", "))


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"text": ""}, "empty_text"),
        ({"text": "   ,,,  "}, None),  # punctuation are tokens
        ({"text": " \t\n "}, "empty_text"),
        ({"text": "a " * (LIMITS.max_tokens + 1)}, "too_many_tokens"),
        ({"text": "x" * (LIMITS.max_chars + 1)}, "too_many_chars"),
        ({"d_model": 0}, "out_of_range"),
        ({"d_model": LIMITS.max_d_model + 1}, "out_of_range"),
        ({"n_heads": LIMITS.max_heads + 1}, "out_of_range"),
        ({"seed": -1}, "out_of_range"),
        ({"mask": "sideways"}, "bad_choice"),
        ({"x_edits": ((0, 0, "abc"),)}, "not_a_number"),
        ({"x_edits": ((0, 0, float("nan")),)}, "not_finite"),
        ({"x_edits": ((0, 0, float("inf")),)}, "not_finite"),
        ({"x_edits": ((0, 0, 1e308),)}, "too_large_value"),
        ({"cross": True, "text_kv": ""}, "empty_text"),
    ],
)
def test_each_bad_setting_has_one_problem(change, code):
    got = codes(dataclasses.replace(Settings(), **change))
    assert got == ([] if code is None else [code])


def test_worked_example_matches_numpy_and_not_the_note():
    s = apply_preset(Settings(), "worked")
    sc = run_scene(s)
    w = WORKED_EXAMPLE
    x = np.array(w.x)
    wq = np.concatenate(np.array(w.w_q_heads), axis=1)
    wk = np.concatenate(np.array(w.w_k_heads), axis=1)
    wv = np.concatenate(np.array(w.w_v_heads), axis=1)
    wo = np.array(w.w_o)
    out, weights = numpy_mha(x, x, wq, wk, wv, wo, 2)
    np.testing.assert_allclose(sc.output, out, atol=1e-6)
    np.testing.assert_allclose(sc.weights, weights, atol=1e-6)
    q1 = x @ np.array(w.w_q_heads[0])
    np.testing.assert_allclose(sc.q[0], q1, atol=1e-6)
    # note 001 prints Q_1 = [[0.85, -0.05], [-0.29, 0.74]]; the product is different
    assert not np.allclose(q1, [[0.85, -0.05], [-0.29, 0.74]], atol=0.05)


@pytest.mark.parametrize("mask", ["none", "causal", "chosen"])
@pytest.mark.parametrize("cross", [False, True])
def test_scene_matches_numpy_oracle(mask, cross):
    s = dataclasses.replace(
        Settings(), d_model=16, n_heads=4, mask=mask, padded=(1, 3), cross=cross, text_kv="one two three four"
    )
    sc = run_scene(s)
    m = None
    if mask == "causal":
        m = np.triu(np.ones((sc.len_q, sc.len_k), bool), k=1)
    elif mask == "chosen":
        m = np.zeros((sc.len_q, sc.len_k), bool)
        m[:, [1, 3]] = True
    out, weights = numpy_mha(sc.x_in, sc.x_kv_in, sc.w_q, sc.w_k, sc.w_v, sc.w_o, 4, mask=m)
    np.testing.assert_allclose(sc.output, out, atol=1e-5)
    np.testing.assert_allclose(sc.weights, weights, atol=1e-6)
    if m is not None:
        assert (sc.weights[:, m] == 0).all()
        assert sc.mask[0].tolist() == m.tolist()


def test_x_edits_change_the_input_and_are_ignored_outside_the_matrix():
    base = run_scene(Settings(d_model=8, n_heads=2))
    edited = run_scene(Settings(d_model=8, n_heads=2, x_edits=((0, 0, 5.0), (999, 0, 1.0))))
    assert edited.x[0, 0] == 5.0
    np.testing.assert_array_equal(edited.x[1:], base.x[1:])
    assert not np.allclose(edited.output, base.output)


def test_weight_edits_change_that_matrix_only():
    s = Settings(d_model=4, n_heads=2, preset="custom", text="a b c")
    base = run_scene(s)
    edited = run_scene(dataclasses.replace(s, w_edits=(("w_k", 1, 2, 3.0),)))
    assert edited.w_k[1, 2] == 3.0
    np.testing.assert_array_equal(edited.w_q, base.w_q)
    np.testing.assert_array_equal(edited.w_o, base.w_o)


def test_seed_changes_weights_not_embeddings():
    a, b = run_scene(Settings(seed=1)), run_scene(Settings(seed=2))
    np.testing.assert_array_equal(a.x, b.x)
    assert not np.allclose(a.w_q, b.w_q)


def test_repeated_tokens_share_embedding_but_not_input_with_pe():
    sc = run_scene(Settings(text="the cat and the dog"))
    np.testing.assert_array_equal(sc.x[0], sc.x[3])
    assert not np.allclose(sc.x_in[0], sc.x_in[3])
    assert sc.labels[0] != sc.labels[3]


def test_scene_arrays_are_read_only():
    sc = run_scene(Settings())
    with pytest.raises(ValueError):
        sc.weights[0, 0, 0] = 1.0


def _dims(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in text.split(" × "))


@pytest.mark.parametrize(("batch", "len_q", "len_k", "d_model", "h"), [(1, 11, 11, 64, 8), (32, 20, 20, 512, 8),
                                                                      (3, 5, 7, 12, 3), (2, 4, 9, 6, 6)])
def test_shape_table_matches_the_tensors_of_note_002s_code(batch, len_q, len_k, d_model, h):
    """The oracle: run the fused formulation's PyTorch steps (view, transpose, matmul, transpose back,
    reshape) on real tensors of these sizes and read their shapes. The table's own column comes from a run of the
    core on a random batch (explorer.pipeline.traced_shapes), not from formatting the sizes."""
    dk = d_model // h
    s = Settings(d_model=d_model, n_heads=h)
    table = shape_table(s, len_q, len_k, batch=batch)
    x, mem = torch.randn(batch, len_q, d_model), torch.randn(batch, len_k, d_model)
    w_q, w_k, w_v, w_o = (torch.randn(d_model, d_model) for _ in range(4))
    q, k, v = x @ w_q, mem @ w_k, mem @ w_v
    q4 = q.view(batch, len_q, h, dk)
    qi = q4.transpose(1, 2)
    ki = k.view(batch, len_k, h, dk).transpose(1, 2)
    vi = v.view(batch, len_k, h, dk).transpose(1, 2)
    a = torch.softmax(qi @ ki.transpose(-2, -1) / dk**0.5, dim=-1)
    heads = a @ vi
    back = heads.transpose(1, 2)
    concat = back.reshape(batch, len_q, h * dk)
    y = concat @ w_o
    w_i = w_q.view(d_model, h, dk)[:, 0, :]  # head 1's columns of the fused matrix
    # all heads, then one head i (note 002 gives head_i the shape of all heads: erratum n002_head)
    want = [x, w_q, w_i, q, k, q4, qi, qi[:, 0], ki, a, a[:, 0], heads, heads[:, 0], back, concat, w_o, y]
    assert len(table) == len(want)
    sizes = {"B": batch, "L_k": len_k, "L": len_q, "d_model": d_model, "d_k": dk, "h": h}
    for (name, symbolic, now), tensor in zip(table, want, strict=True):
        assert _dims(now) == tuple(tensor.shape), name
        # the symbolic column, evaluated, gives the same numbers
        expr = symbolic.split(" = ")[-1]
        got = tuple(math.prod(sizes[f] for f in part.strip("()").split("·")) for part in expr.split(" × "))
        assert got == tuple(tensor.shape), (name, symbolic)
