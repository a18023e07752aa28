"""Every sentence true (issue 35): each new erratum and each corrected text says what an independent computation
shows. The oracles are numpy or torch written here (never numbers copied from the app's output); the app's own
numbers (the errata's live evidence, the demonstrations) are then checked against them."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest
import torch

from explorer import WORKED_EXAMPLE, Settings, run_scene
from explorer.errata import evidence
from explorer.models import REAL_MODELS
from explorer.pipeline import traced_shapes
from explorer.shown import average_check, column_view, order_demo, positional_profile, shift_check
from i18n import STRINGS, cited_ids, t
from mha_core import AttentionConfig, MultiHeadAttention
from mha_core.analysis import mean_attention_distance
from mha_core.note004 import kernel_sum_check, linearity_check
from mha_core.why import architecture_costs, weighted_average_gap

SEEDS = Path("/work/shared/seeds")
RNG = np.random.default_rng(35)


def plain(text: str) -> str:
    """A catalogue text without LaTeX markup, to search its words."""
    return re.sub(r"\\(text|mathrm)\{([^}]*)\}|[${}\\]", lambda m: m.group(2) or "", text)


def softmax(s: np.ndarray) -> np.ndarray:
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def mha_numpy(x: np.ndarray, wq: np.ndarray, wk: np.ndarray, wv: np.ndarray, wo: np.ndarray, h: int,
              causal: bool = False) -> np.ndarray:  # fmt: skip
    """Multi-head attention written out: x (L, d), fused weights (d, d), row convention of the notes."""
    length, d = x.shape
    dk = d // h
    q, k, v = x @ wq, x @ wk, x @ wv
    heads = []
    for i in range(h):
        cols = slice(i * dk, (i + 1) * dk)
        s = q[:, cols] @ k[:, cols].T / math.sqrt(dk)
        if causal:
            s = np.where(np.triu(np.ones((length, length), bool), 1), -np.inf, s)
        heads.append(softmax(s) @ v[:, cols])
    return np.concatenate(heads, axis=1) @ wo


# ------------------------------------------------------------------------------------ corrected texts


def test_d_k_texts_say_every_head_reads_all_inputs():
    """d_k = d_model / h is the width of a head's OUTPUT; W_i^Q has d_model rows, so every head reads every input."""
    d, h = 12, 3
    wq = RNG.normal(size=(d, d))
    heads = [wq[:, i * d // h:(i + 1) * d // h] for i in range(h)]
    assert all(w.shape == (d, d // h) for w in heads)
    x = RNG.normal(size=(5, d))
    bumped = x.copy()
    bumped[:, 0] += 1.0  # change input dimension 1 only
    assert all(np.abs(bumped @ w - x @ w).max() > 0 for w in heads)  # every head's queries move
    for key in ("quiz.d_k.explain", "quiz.d_k.trap_mult", "quiz.note_error.why_dk"):
        en, zh = plain(t(key, "en", d=12, h=3, dk=4)), plain(t(key, "zh", d=12, h=3, dk=4))
        assert "split it" not in en and "平分" not in zh, key
        if key == "quiz.d_k.explain":  # the question's own explanation says it
            assert re.search(r"reads all", en) and "读取全部" in zh, key
        else:  # the others link to the erratum that says it (tests/test_citations.py: they do not restate it)
            cited = cited_ids(STRINGS[key]["en"])
            assert "n000_split" in cited and cited == cited_ids(STRINGS[key]["zh"]), key


def test_overlap_is_principal_angles_not_rho():
    """Turning head 2's value space moves rho_12 but not the principal angles between the query subspaces: rho
    does not measure how much the heads' subspaces overlap."""
    d, h, length = 8, 2, 6
    dk = d // h
    x = RNG.normal(size=(length, d))
    wq, wk, wv = (RNG.normal(size=(d, d)) / math.sqrt(d) for _ in range(3))

    def rho(wv_: np.ndarray) -> float:
        heads = [softmax((x @ wq[:, c]) @ (x @ wk[:, c]).T / math.sqrt(dk)) @ (x @ wv_[:, c])
                 for c in (slice(0, dk), slice(dk, d))]  # fmt: skip
        a, b = heads[0].ravel(), heads[1].ravel()
        return float(a @ b / np.linalg.norm(a) / np.linalg.norm(b))

    def cos_smallest_angle(a: np.ndarray, b: np.ndarray) -> float:
        qa, qb = np.linalg.qr(a)[0], np.linalg.qr(b)[0]
        return float(np.linalg.svd(qa.T @ qb, compute_uv=False).max())

    r, _ = np.linalg.qr(RNG.normal(size=(dk, dk)))
    wv2 = wv.copy()
    wv2[:, dk:] = wv[:, dk:] @ r
    angles = cos_smallest_angle(wq[:, :dk], wq[:, dk:])
    assert abs(rho(wv) - rho(wv2)) > 1e-3  # rho moves
    assert cos_smallest_angle(wq[:, :dk], wq[:, dk:]) == pytest.approx(angles)  # the subspaces did not
    assert cited_ids(STRINGS["quiz.note_error.why_orthogonal"]["en"]) == ["n001_orth"]  # the quiz links to it
    text = plain(t("errata.n001_orth.true", "en"))  # and the erratum says it in principal angles, not rho
    assert "principal angle" in text and "ρ" not in text and "rho" not in text
    assert "主角度" in t("errata.n001_orth.true", "zh")


def test_note_error_explain_no_longer_vouches_for_shapes_and_cost():
    assert "right about the shapes" not in t("quiz.note_error.explain", "en")
    assert "形状和计算量的说法是对的" not in t("quiz.note_error.explain", "zh")


def test_parameter_counts_with_and_without_w_o():
    d, h = 64, 8
    multi = h * 3 * d * (d // h) + d * d  # W_i^Q, W_i^K, W_i^V of every head, and W^O
    single_with, single_without = 4 * d * d, 3 * d * d
    assert multi == single_with == 4 * d * d
    live = evidence(run_scene(Settings(d_model=d, n_heads=h)))["n001_params"]
    assert live["mh"] == f"{multi:,}" and live["s4"] == f"{single_with:,}" and live["s3"] == f"{single_without:,}"
    true = plain(t("errata.n001_params.true", "en"))
    assert "without one it has 3" in true  # the single-head column depends on W^O


def test_dot_product_variance_is_d_k():
    for dk in (4, 64):
        q, k = RNG.normal(size=(20000, dk)), RNG.normal(size=(20000, dk))
        assert np.var((q * k).sum(-1)) == pytest.approx(dk, rel=0.05)
    note002 = next(SEEDS.glob("002_*.txt")).read_text(encoding="utf-8") if SEEDS.exists() else ""
    assert "方差" not in note002  # note 002 says nothing about a variance, so the text must not attribute it
    assert "(note 002)" not in t("why.scale.text", "en", dk=8) and "footnote 4" in t("why.scale.text", "en", dk=8)


def test_pe_similarity_rises_and_depends_on_distance_only_for_even_d():
    def pe(length: int, d: int) -> np.ndarray:
        pos = np.arange(length)[:, None]
        angle = pos / 10000 ** (np.arange(0, d, 2) / d)
        p = np.zeros((length, d))
        p[:, 0::2] = np.sin(angle)
        p[:, 1::2] = np.cos(angle[:, : d // 2])
        return p

    p = pe(200, 64)
    sim = p @ p.T
    rises = int((np.diff(sim[0]) > 0).sum())
    assert rises == 82  # the count: row 0 rises at 82 of 199 steps
    prof = positional_profile(200, 64, 10000.0)
    assert (prof.rises, prof.steps) == (rises, 199)
    same_distance = max(np.ptp(np.diagonal(sim, k)) for k in range(-198, 199))
    assert same_distance < 1e-9 and prof.spread < 1e-9
    odd = pe(200, 3)  # the lone last sine: sin(i w) sin(j w) depends on i + j too
    odd_sim = odd @ odd.T
    odd_spread = max(np.ptp(np.diagonal(odd_sim, k)) for k in range(-198, 199))
    assert odd_spread > 0.1
    assert positional_profile(200, 3, 10000.0).spread == pytest.approx(odd_spread, rel=1e-6)
    assert "less so" not in t("pe.similarity_text", "en", rises=1, steps=2)


def test_pe_shift_is_a_rotation_of_each_pair():
    """P[pos + k] = P[pos] M_k with M_k built here from the angle-addition formulas."""
    d, k, length = 16, 5, 30
    pos = np.arange(length + k)[:, None]
    w = 1 / 10000 ** (np.arange(0, d, 2) / d)
    p = np.zeros((length + k, d))
    p[:, 0::2], p[:, 1::2] = np.sin(pos * w), np.cos(pos * w)
    m = np.zeros((d, d))
    for j, wj in enumerate(w):
        c, s = math.cos(k * wj), math.sin(k * wj)
        m[2 * j: 2 * j + 2, 2 * j: 2 * j + 2] = [[c, -s], [s, c]]
    np.testing.assert_allclose(p[k:], p[:length] @ m, atol=1e-12)
    check = shift_check(length, d, 10000.0, k)
    assert check.max_error < 1e-12
    np.testing.assert_allclose(check.blocks[0][1], m[:2, :2], atol=1e-15)


def test_swap_without_positions_only_swaps_rows():
    """torch.nn.MultiheadAttention as the oracle: without positions a swap permutes the output rows; with P added,
    or with a causal mask, rows change beyond the swap."""
    torch.manual_seed(0)
    d, h, length, a, b = 16, 4, 7, 1, 4
    mha = torch.nn.MultiheadAttention(d, h, bias=False, batch_first=True)
    x = torch.randn(1, length, d)
    perm = list(range(length))
    perm[a], perm[b] = b, a
    with torch.no_grad():
        y = mha(x, x, x)[0][0]
        ys = mha(x[:, perm], x[:, perm], x[:, perm])[0][0]
        assert (ys[perm] - y).abs().max() < 1e-5
        causal = torch.triu(torch.ones(length, length, dtype=torch.bool), 1)
        yc = mha(x, x, x, attn_mask=causal)[0][0]
        ycs = mha(x[:, perm], x[:, perm], x[:, perm], attn_mask=causal)[0][0]
        change = (ycs[perm] - yc).abs().amax(-1)
    assert change[0] < 1e-5 and change[b + 1:].max() < 1e-5 and change[a:b + 1].min() > 1e-3
    demo = order_demo(Settings(), 1, 4)
    assert demo.change[0].max() < 1e-5  # the app's layer: no positions, no mask
    assert demo.change[1].max() > 1e-3  # positional encoding
    assert demo.change[2, :1].max() < 1e-5 and demo.change[2, 5:].max() < 1e-5 and demo.change[2, 1:5].min() > 1e-3
    intro = t("inputs.intro", "en")
    assert "ignores order" not in intro and "causal mask" in intro


def test_random_heads_score_as_low_as_trained_ones():
    """MiniLM's trained heads against random heads (numpy weights drawn here) on each layer's real input."""
    pytest.importorskip("safetensors")
    from pretrained.encoder import encode_text
    from pretrained.loading import ModelUnavailable

    try:
        enc = encode_text(t("minilm.default_text", "en"))
    except ModelUnavailable:
        pytest.skip("all-MiniLM-L6-v2 is not installed")

    def mean_abs_cos(contrib: np.ndarray) -> float:
        flat = contrib.reshape(contrib.shape[0], -1)
        unit = flat / np.linalg.norm(flat, axis=1, keepdims=True)
        cos = unit @ unit.T
        return float(np.abs(cos[~np.eye(len(cos), dtype=bool)]).mean())

    trained, random = [], []
    for layer in enc.layers:
        att = layer.attention
        heads, w_o = att.head_outputs.double().numpy(), att.w_o_heads.detach().double().numpy()
        trained.append(mean_abs_cos(np.einsum("hld,hde->hle", heads, w_o)))
        x = att.query.double().numpy()
        d, h = x.shape[1], att.n_heads
        wq, wk, wv, wo = (RNG.uniform(-1, 1, size=(d, d)) * math.sqrt(6 / (2 * d)) for _ in range(4))
        dk = d // h
        outs = [softmax((x @ wq[:, i * dk:(i + 1) * dk]) @ (x @ wk[:, i * dk:(i + 1) * dk]).T / math.sqrt(dk))
                @ (x @ wv[:, i * dk:(i + 1) * dk]) for i in range(h)]  # fmt: skip
        random.append(mean_abs_cos(np.stack([o @ wo[i * dk:(i + 1) * dk] for i, o in enumerate(outs)])))
    assert max(random) <= max(trained)  # random heads score as low: low correlation alone shows nothing
    assert max(random) < 0.1 and min(trained) < 0.1
    live = evidence(run_scene(Settings()))["n004_lowcorr"]
    assert float(live["rhi"]) <= float(live["hi"])
    assert float(live["hi"]) == pytest.approx(max(trained), abs=0.006)


def test_inclusion_check_is_about_one_head_on_one_sentence():
    """softmax forgives a constant per row: rank(S + c 1^T) <= rank(S) + 1, the bound the check uses."""
    s = RNG.normal(size=(8, 3)) @ RNG.normal(size=(3, 8))  # rank 3
    c = RNG.normal(size=(8, 1))
    np.testing.assert_allclose(softmax(s + c), softmax(s), atol=1e-12)
    assert np.linalg.matrix_rank(s + c) <= np.linalg.matrix_rank(s) + 1
    text = plain(t("n4.incl.fails", "en", h0=4))
    assert "no single head" in text and "does not show" in text
    title = plain(t("errata.n004_fh.title", "en"))
    assert "fails at fixed" not in title


def test_worked_example_is_not_determined_without_w_k_w_v():
    """Note 001's own X, W_i^Q and W^O with two choices of the W_i^K, W_i^V it leaves out: two outputs."""
    w = WORKED_EXAMPLE
    x, wo = np.array(w.x), np.array(w.w_o)
    wq = np.concatenate(w.w_q_heads, axis=1)
    outs = []
    for wk, wv in ((np.concatenate(w.w_k_heads, axis=1), np.concatenate(w.w_v_heads, axis=1)),
                   (RNG.normal(size=(4, 4)), RNG.normal(size=(4, 4)))):  # fmt: skip
        outs.append(mha_numpy(x, wq, wk, wv, wo, 2))
    assert np.abs(outs[0] - outs[1]).max() > 0.1
    live = evidence(run_scene(Settings()))["n001_kv"]
    assert float(live["gap"]) > 0.1


# ------------------------------------------------------------------------------------------ new errata


def test_n000_unified_the_heads_matrices_are_column_blocks_of_one():
    sc = run_scene(Settings())
    d, h = sc.d_model, sc.n_heads
    x = np.asarray(sc.x_in, dtype=np.float64)
    wq = np.asarray(sc.w_q, dtype=np.float64)
    q = x @ wq
    for i in range(h):
        np.testing.assert_allclose(q[:, i * d // h:(i + 1) * d // h], x @ sc.w_q_heads[i], atol=1e-5)
    live = evidence(sc)["n000_unified"]
    assert float(live["wgap"]) == 0 and float(live["gap"]) < 1e-5


def test_n000_qkonly_projections_dominate_at_note_002s_sizes():
    length, d = 20, 512
    qk = av = length * length * d
    proj = 4 * length * d * d
    total = qk + av + proj
    assert proj / total == pytest.approx(0.98, abs=0.005) and qk / total == pytest.approx(0.0096, abs=0.0005)
    live = evidence(run_scene(Settings()))["n000_qkonly"]
    assert live["n_proj"] == "98 %" and live["n_qk"] == "1.0 %"
    sc = run_scene(Settings())
    length, d = sc.len_q, sc.d_model
    total = 2 * length * length * d + 4 * length * d * d
    assert float(live["proj"].rstrip(" %")) == pytest.approx(100 * 4 * length * d * d / total, abs=0.6)


def test_n001_learn_the_same_weights_for_every_h():
    d = 64
    counts = {h: h * 3 * d * (d // h) + d * d for h in (1, 2, 8, 64)}
    assert len(set(counts.values())) == 1
    live = evidence(run_scene(Settings(d_model=d, n_heads=8)))["n001_learn"]
    assert live["weights"] == f"{counts[1]:,}" and live["heads"] == "8"


def test_n002_head_one_head_is_a_slice_of_all_heads():
    """Note 002's step 4 in torch: output_per_head is B x h x T x d_k; one head is B x T x d_k."""
    b, length, d, h = 32, 20, 512, 8
    q = torch.randn(b, length, d).view(b, length, h, d // h).transpose(1, 2)  # (B, h, T, d_k)
    k, v = torch.randn_like(q), torch.randn_like(q)
    out = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(d // h), -1) @ v
    assert tuple(out.shape) == (32, 8, 20, 64) and tuple(out[:, 0].shape) == (32, 20, 64)
    shapes = traced_shapes(b, length, length, d, h)
    assert shapes["head_outputs"] == tuple(out.shape) and shapes["head_i"] == tuple(out[:, 0].shape)
    live = evidence(run_scene(Settings()))["n002_head"]
    assert live["all"] == "32 × 8 × 20 × 64" and live["one"] == "32 × 20 × 64" and live["concat"] == "32 × 20 × 512"


def test_n004_mkl_summing_kernels_is_another_layer():
    """Per-head softmax (the layer) against one softmax of the summed kernels, written here; equal for h = 1."""
    sc = run_scene(Settings())
    s = np.asarray(sc.scores, dtype=np.float64)
    v, wo = np.asarray(sc.v, dtype=np.float64), np.asarray(sc.w_o_heads, dtype=np.float64)
    own = softmax(s)
    kernel = np.exp(s).sum(axis=0)
    shared = kernel / kernel.sum(axis=-1, keepdims=True)
    layer = np.einsum("hqk,hkd,hde->qe", own, v, wo)
    mkl = np.einsum("qk,hkd,hde->qe", shared, v, wo)
    check = kernel_sum_check(sc.masked_scores, sc.v, sc.w_o_heads)
    assert check.output_gap == pytest.approx(np.abs(layer - mkl).max(), rel=1e-6)
    assert check.output_gap > 0.01
    one = run_scene(Settings(n_heads=1))
    assert kernel_sum_check(one.masked_scores, one.v, one.w_o_heads).output_gap < 1e-12


def test_n004_nonlinear_projections_are_linear_and_the_score_bilinear():
    sc = run_scene(Settings())
    x = np.asarray(sc.x_in, dtype=np.float64)
    x2 = RNG.normal(size=x.shape)
    wq, wk = np.asarray(sc.w_q_heads, dtype=np.float64), np.asarray(sc.w_k_heads, dtype=np.float64)
    assert np.abs((x + x2) @ wq - (x @ wq + x2 @ wq)).max() < 1e-12
    m = wq @ wk.transpose(0, 2, 1)
    np.testing.assert_allclose(x @ m @ x.T, (x @ wq) @ (x @ wk).transpose(0, 2, 1), atol=1e-10)
    assert max(np.linalg.matrix_rank(mi) for mi in m) <= sc.d_k
    lin = linearity_check(sc.x_in, sc.w_q_heads, sc.w_k_heads)
    assert lin.projection_gap < 1e-12 and lin.bilinear_gap < 1e-10 and lin.m_rank <= sc.d_k
    assert lin.softmax_gap > 0.1  # softmax(s + s') != softmax(s) + softmax(s')


def test_n004_gpt3_heads_are_wider_than_the_transformers():
    sizes = {m.name: m for m in REAL_MODELS}
    gpt, base = sizes["GPT-3 175B (2020)"], sizes["Transformer base (2017)"]
    assert (gpt.d_model, gpt.n_heads) == (12288, 96) and (base.d_model, base.n_heads) == (512, 8)
    assert 12288 // 96 == 128 > 512 // 8 == 64
    live = evidence(run_scene(Settings()))["n004_gpt3"]
    assert (live["g_dk"], live["t_dk"], live["h_same"]) == ("128", "64", "192")


def test_n001_parallel_counts_the_independent_dot_products():
    sc = run_scene(Settings())
    length, d, h = sc.len_q, sc.d_model, sc.n_heads
    live = evidence(sc)["n001_parallel"]
    assert live["n1"] == f"{length * length:,}" and live["nh"] == f"{h * length * length:,}"
    assert live["mults"] == f"{length * length * d:,}"  # one head of width d, or h heads of width d / h


def test_n000_mult_counts_equal_multiplications_and_h_fold_exponentials():
    sc = run_scene(Settings())
    length, d, h = sc.len_q, sc.d_model, sc.n_heads
    mults = 4 * length * d * d + 2 * length * length * d  # the same for h = 1 and h
    live = evidence(sc)["n000_mult"]
    assert live["mults"] == f"{mults:,}" and live["e1"] == f"{length * length:,}"
    assert live["eh"] == f"{h * length * length:,}"
    assert "more heads take longer" not in t("errata.n000_mult.true", "en")


def test_n004_kernel_a_head_is_a_nadaraya_watson_smoother():
    """A head's weights are K / sum K with K = exp(S): a kernel smoother with an asymmetric similarity."""
    sc = run_scene(Settings())
    s = np.asarray(sc.scores[0], dtype=np.float64)
    kernel = np.exp(s)
    np.testing.assert_allclose(kernel / kernel.sum(axis=-1, keepdims=True), sc.weights[0], atol=1e-6)
    assert np.abs(s - s.T).max() > 0.1  # not symmetric: not a Mercer kernel
    assert "Mercer" in t("errata.n004_kernel.title", "en")


def test_n004_stack_the_stacked_form_is_the_transpose():
    """The note's (h·d_k) x d_model matrix stacks the transposes of the W_i^Q: that is (W^Q)^T, torch's storage
    (nn.Linear computes x W^T). Taken as X W_all it gives other numbers."""
    d, h, length = 8, 2, 5
    dk = d // h
    heads = [RNG.normal(size=(d, dk)) for _ in range(h)]
    x = RNG.normal(size=(length, d))
    side_by_side = np.concatenate(heads, axis=1)  # d x (h d_k)
    stacked = np.concatenate([w.T for w in heads], axis=0)  # (h d_k) x d: the note's shape
    np.testing.assert_allclose(stacked, side_by_side.T)
    linear = torch.nn.Linear(d, d, bias=False)
    with torch.no_grad():
        linear.weight.copy_(torch.tensor(stacked))
        np.testing.assert_allclose(linear(torch.tensor(x, dtype=torch.float32)).numpy(), x @ side_by_side, atol=1e-5)
    assert np.abs(x @ stacked - x @ side_by_side).max() > 0.1
    live = evidence(run_scene(Settings()))["n004_stack"]
    sc = run_scene(Settings())
    xin = np.asarray(sc.x_in, dtype=np.float64)
    assert float(live["tgap"]) == pytest.approx(np.abs(xin @ sc.w_q.T - xin @ sc.w_q).max(), rel=1e-3)
    assert "not even defined" not in t("errata.n004_stack.true", "en")


def test_head_i_is_columns_i_minus_1_times_d_k():
    """Heads are numbered from 1, columns from 0: head i is columns (i-1)·d_k ... i·d_k - 1 of W^Q."""
    sc = run_scene(Settings())
    dk = sc.d_k
    for i in range(1, sc.n_heads + 1):
        np.testing.assert_array_equal(sc.w_q[:, (i - 1) * dk: i * dk], sc.w_q_heads[i - 1])
    for key in ("steps.proj.text", "why.params.blocks"):
        text = t(key, "en", d=64, h=8, dk=8)
        assert "(i−1)·$d_k$ … i·$d_k$ − 1" in text and "(i+1)" not in text, key
    assert t("steps.proj.fused_caption", "en", dk=8).startswith("Columns 0…8−1 belong to head 1")


def test_w_o_row_block_of_head_i_in_the_notebook_text():
    """The notebook counts heads from 1 too: head i's W^O_i is rows (i-1)·d_k ... i·d_k - 1 of W^O, the rows that
    meet head i's columns of the concatenation (checked by multiplying, numpy written here)."""
    sc = run_scene(Settings())
    dk, concat = sc.d_k, np.asarray(sc.concat, float)
    for i in range(1, sc.n_heads + 1):
        rows = slice((i - 1) * dk, i * dk)
        np.testing.assert_array_equal(sc.w_o[rows], sc.w_o_heads[i - 1])
        alone = np.zeros_like(concat)
        alone[:, rows] = concat[:, rows]  # head i's columns only
        np.testing.assert_allclose(alone @ sc.w_o, concat[:, rows] @ sc.w_o[rows], atol=1e-6)
    en, zh = t("nb.w_o.text", "en"), t("nb.w_o.text", "zh")
    assert "rows (i−1)·d_k … i·d_k − 1" in en and "head i's block" in en and "(i+1)" not in en
    assert "(i−1)·d_k 到 i·d_k − 1 行" in zh and "(i+1)" not in zh


# ------------------------------------------------------------------------------------- demonstrations


def test_weighted_average_gap_zero_for_one_head_positive_for_several():
    sc = run_scene(Settings())
    x = np.asarray(sc.x_in, dtype=np.float64)
    wq, wk, wv, wo = (np.asarray(w, dtype=np.float64) for w in (sc.w_q, sc.w_k, sc.w_v, sc.w_o))
    rows = x @ wv @ wo

    def gap(y: np.ndarray) -> np.ndarray:  # nearest affine combination, by least squares with sum(a) = 1
        n = rows.shape[0]
        kkt = np.block([[rows @ rows.T, np.ones((n, 1))], [np.ones((1, n)), np.zeros((1, 1))]])
        out = []
        for target in y:
            a = np.linalg.lstsq(kkt, np.concatenate([rows @ target, [1.0]]), rcond=None)[0][:n]
            out.append(np.linalg.norm(a @ rows - target))
        return np.array(out)

    one, several = mha_numpy(x, wq, wk, wv, wo, 1), mha_numpy(x, wq, wk, wv, wo, sc.n_heads)
    assert gap(one).max() < 1e-6 and gap(several).min() > 0.05
    np.testing.assert_allclose(weighted_average_gap(rows, several), gap(several), atol=1e-6)
    # a lower bound ("at least"): every weighted average of the rows is an affine combination, so none comes closer
    convex = RNG.dirichlet(np.ones(rows.shape[0]), size=500)  # 500 weighted averages (weights >= 0, sum 1)
    nearest = np.linalg.norm((convex @ rows)[:, None, :] - several[None], axis=-1).min(axis=0)  # (L,)
    assert (nearest >= weighted_average_gap(rows, several) - 1e-9).all()
    check = average_check(Settings())
    assert check.gap_one.max() < 1e-5 and check.gap_heads.min() > 0.05 and not check.fills


def test_architecture_costs_as_counted():
    n, d, k = 20, 512, 3
    got = {r.name: r for r in architecture_costs(n, d, k)}
    assert got["self_attention"].mults == 2 * n * n * d and got["rnn"].mults == 2 * n * d * d
    assert got["cnn"].mults == k * n * d * d
    assert (got["self_attention"].sequential, got["rnn"].sequential, got["cnn"].sequential) == (1, n, 1)
    assert (got["self_attention"].path, got["rnn"].path, got["cnn"].path) == (1, n - 1, math.ceil((n - 1) / (k - 1)))


def test_mean_attention_distance_local_and_uniform():
    length = 9
    local = np.eye(length, k=-1)
    local[0, 0] = 1.0  # every query on the token before it (the first on itself)
    uniform = np.full((length, length), 1 / length)
    want_uniform = np.abs(np.arange(length)[:, None] - np.arange(length)[None]).mean()
    assert float(mean_attention_distance(torch.tensor(local))) == pytest.approx((length - 1) / length)
    assert float(mean_attention_distance(torch.tensor(uniform))) == pytest.approx(want_uniform)


def test_column_view_is_the_transpose_of_the_row_view():
    sc = run_scene(Settings())
    cv = column_view(sc, 2, 3)
    w_col = np.asarray(sc.w_q_heads[2], dtype=np.float64).T  # d2l's W_i^(q): d_k x d_model
    q_col = np.asarray(sc.x_in[3], dtype=np.float64)[:, None]
    np.testing.assert_allclose(w_col @ q_col, np.asarray(sc.q[2, 3], dtype=np.float64)[:, None], atol=1e-5)
    assert cv.gap < 1e-5 and cv.w_d2l.shape == (sc.d_k, sc.d_model)


def test_tied_heads_get_identical_gradients():
    """Symmetry breaking, the oracle: two heads with the same weights get the same gradient (one backward pass of
    torch's own attention), so a step keeps them identical."""
    torch.manual_seed(1)
    d, h = 8, 2
    dk = d // h
    mha = torch.nn.MultiheadAttention(d, h, bias=False, batch_first=True)
    with torch.no_grad():
        w = mha.in_proj_weight.view(3, h, dk, d)  # torch stores (3 d, d): rows of head i are W_i^T
        w[:, 1] = w[:, 0]
        wo = mha.out_proj.weight.view(d, h, dk)
        wo[:, :, :] = wo[:, :1, :].clone().expand(-1, h, -1)
    x = torch.randn(3, 5, d)
    mha(x, x, x)[0].pow(2).sum().backward()
    g = mha.in_proj_weight.grad.view(3, h, dk, d)
    assert torch.equal(g[:, 0], g[:, 1])
    go = mha.out_proj.weight.grad.view(d, h, dk)
    assert torch.equal(go[:, 0], go[:, 1])


def test_symmetry_demo_tied_heads_stay_identical():
    from training import TrainConfig
    from training.symmetry import symmetry_breaking

    r = symmetry_breaking(TrainConfig("previous", d_model=16, n_heads=4, steps=20, lr=1e-2, seed=0), checkpoints=2)
    assert max(r.gap_tied) == 0.0 and min(r.gap_random) > 0.1
    assert np.ptp(r.pattern_tied) == 0.0


def test_random_contrib_range_is_random_heads_on_the_same_input():
    """The baseline beside the heads' cosine: the app's seeded random layers, recomputed here in numpy."""
    from explorer.baselines import RANDOM_SEEDS, random_contrib_range

    sc = run_scene(Settings())
    x = np.asarray(sc.x_in, dtype=np.float64)
    d, h = sc.d_model, sc.n_heads
    dk = d // h
    values = []
    for seed in RANDOM_SEEDS:
        layer = MultiHeadAttention(AttentionConfig(d_model=d, n_heads=h, bias=False, seed=seed))
        wq, wk, wv, wo = (getattr(layer, n).detach().double().numpy() for n in ("w_q", "w_k", "w_v", "w_o"))
        contrib = []
        for i in range(h):
            c = slice(i * dk, (i + 1) * dk)
            weights = softmax((x @ wq[:, c]) @ (x @ wk[:, c]).T / math.sqrt(dk))
            contrib.append((weights @ (x @ wv[:, c]) @ wo[c]).ravel())
        unit = np.array(contrib) / np.linalg.norm(contrib, axis=1, keepdims=True)
        cos = unit @ unit.T
        values.append(np.abs(cos[~np.eye(h, dtype=bool)]).mean())
    lo, hi = random_contrib_range(Settings())
    assert lo == pytest.approx(min(values), abs=1e-5) and hi == pytest.approx(max(values), abs=1e-5)
    assert random_contrib_range(Settings(n_heads=1)) == (0.0, 0.0)


def test_traced_shapes_run_the_core():
    shapes = traced_shapes(2, 3, 5, 12, 3)
    assert shapes["scores"] == (2, 3, 3, 5) and shapes["scores_i"] == (2, 3, 5) and shapes["q_split"] == (2, 3, 3, 4)


def test_every_changed_catalogue_text_formats_in_both_languages():
    """A text that cites an erratum still formats: the citations resolve to the erratum's title and link."""
    for key, entry in STRINGS.items():
        if "⟦" in entry["en"]:
            for lang in ("en", "zh"):
                fields: dict[str, object] = {}
                for _ in range(20):  # fill whatever fields the text has, one KeyError at a time
                    try:
                        out = t(key, lang, **fields) if fields else t(key, lang)
                        break
                    except KeyError as missing:
                        fields[missing.args[0]] = 1
                assert "⟦" not in out and "](" in out, key
    _ = MultiHeadAttention(AttentionConfig(d_model=4, n_heads=2))  # the core imports cleanly beside the tests
