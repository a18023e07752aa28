"""An erratum's "what is true" says only what a test shows: one test per entry of i18n/catalog_errata.ERRATA, each
computing the entry's claims (and the numbers it states) independently of the app's own functions: numpy and torch
written here, torch's FlopCounterMode and nn.MultiheadAttention, principal angles by QR and SVD, the notes' own lines.
A new erratum without a test here fails test_every_erratum_has_a_test."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
import torch
from torch.utils.flop_counter import FlopCounterMode

from explorer import Settings, run_scene
from explorer.errata import BY_ID, ERRATA
from explorer.presets import WORKED_EXAMPLE
from mha_core.note004 import closest_subspaces

SEEDS = Path("/work/shared/seeds")
RNG = np.random.default_rng(52)
CLAIMS: dict[str, object] = {}


def claim(eid: str):
    def register(fn):
        CLAIMS[eid] = fn
        return fn

    return register


def note(n: str, line: int) -> str:
    if not SEEDS.exists():
        pytest.skip("the lecture notes are not on this machine")
    return next(SEEDS.glob(f"{n}_*.txt")).read_text(encoding="utf-8").split("\n")[line - 1]


def subspace_angles(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Principal angles (radians) between the column spaces of a and b: orthonormal bases by QR, then the arccos of
    the singular values of Q_a^T Q_b (Björck and Golub)."""
    qa, qb = np.linalg.qr(a)[0], np.linalg.qr(b)[0]
    return np.arccos(np.clip(np.linalg.svd(qa.T @ qb, compute_uv=False), -1.0, 1.0))


def softmax(s: np.ndarray) -> np.ndarray:
    e = np.exp(s - s.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def layer(d: int = 16, h: int = 4, seed: int = 0):
    """A random layer written here in numpy: per-head W_i^Q, W_i^K, W_i^V (h, d, d_k) and W^O (d, d)."""
    g = np.random.default_rng(seed)
    w = [g.standard_normal((h, d, d // h)) / math.sqrt(d) for _ in range(3)]
    return (*w, g.standard_normal((d, d)) / math.sqrt(d))


def heads_out(x: np.ndarray, wq, wk, wv) -> np.ndarray:
    """(h, L, d_k): each head's softmax(Q_i K_i^T / sqrt(d_k)) V_i."""
    q, k, v = (np.einsum("ld,hde->hle", x, w) for w in (wq, wk, wv))
    return softmax(q @ k.transpose(0, 2, 1) / math.sqrt(q.shape[-1])) @ v


def torch_matmul_mults(fn) -> int:
    with FlopCounterMode(display=False) as count:
        fn()
    return count.get_total_flops() // 2


def torch_mha(d: int, h: int, length: int, seed: int = 0):
    torch.manual_seed(seed)
    mha = torch.nn.MultiheadAttention(d, h, bias=False, batch_first=True)
    x = torch.randn(1, length, d)
    return mha, x


# ------------------------------------------------------------------------------------------------ note 000
@claim("n000_split")
def _():
    d, h = 16, 4
    wq, *_ = layer(d, h)
    assert wq.shape[1:] == (d, d // h) and h * (d // h) == d  # each W_i^Q: d_model x d_k; h d_k = d_model
    x = RNG.standard_normal((5, d))
    bumped = x.copy()
    bumped[:, 0] += 1  # input dimension 1 only
    assert all(np.abs(bumped @ w - x @ w).max() > 0 for w in wq)  # every head reads it


@claim("n000_wo")
def _():
    assert "W^O" in note("002", 16) and "MultiHead" in note("002", 16)  # notes 002 and 004 write W^O
    assert "W_O" in note("004", 12) and "MultiHead" in note("004", 12)
    assert "W^O" in note("001", 74) and "MultiHead" in note("001", 74)  # note 001's summary
    assert "W" not in note("000", 48).split("=")[1] and "W_O" in note("000", 54)  # one line later
    mha, x = torch_mha(16, 4, 5)
    with torch.no_grad():
        out = mha(x, x, x)[0]
        concat = out @ torch.linalg.inv(mha.out_proj.weight.T)  # the concatenation before W^O
    assert (out - concat).abs().max() > 1e-3  # MultiHead's output is not the concatenation


@claim("n000_parallel")
def _():
    _parallel_claims()
    x = RNG.standard_normal((7, 16))
    out = heads_out(x, *layer(16, 4)[:3])
    weights = softmax(np.einsum("ld,hde->hle", x, layer(16, 4)[0]) @ np.einsum("ld,hde->hle", x, layer(16, 4)[1])
                      .transpose(0, 2, 1) / 2)  # fmt: skip
    assert all(np.abs(weights[i] - weights[0]).max() > 1e-3 for i in range(1, 4))  # h different patterns: views
    assert out.shape == (4, 7, 4)


@claim("n000_a")
def _():
    x = RNG.standard_normal((6, 16))
    wq, wk, *_ = layer()
    s = np.einsum("ld,hde->hle", x, wq) @ np.einsum("ld,hde->hle", x, wk).transpose(0, 2, 1)
    np.testing.assert_allclose(softmax(s).sum(-1), 1)  # A after the softmax: rows sum to 1
    assert np.abs(s.sum(-1) - 1).max() > 0.1  # the raw scores are another matrix


@claim("n000_t")
def _():
    for length, d in ((11, 8), (3, 5)):
        q, k = RNG.standard_normal((length, d)), RNG.standard_normal((length, d))
        adds = sum(len(q[i] * k[j]) - 1 for i in range(length) for j in range(length))  # a sum of d terms: d - 1
        assert adds == length**2 * (d - 1)


@claim("n000_mult")
def _():
    length, d = 11, 64
    mults, exps = set(), []
    for h in (1, 2, 4, 8):
        mha, x = torch_mha(d, h, length)
        with torch.no_grad():
            mults.add(torch_matmul_mults(lambda mha=mha, x=x: mha(x, x, x, average_attn_weights=False)))
            exps.append(mha(x, x, x, average_attn_weights=False)[1].numel())  # one exponential per score
    assert len(mults) == 1  # the matrix products: the same multiplications for every h
    assert exps == [h * length * length for h in (1, 2, 4, 8)]  # h times the exponentials and the L x L memory


@claim("n000_unified")
def _():
    mha, x = torch_mha(16, 4, 5)
    assert tuple(mha.in_proj_weight.shape) == (48, 16)  # PyTorch keeps W^Q, W^K and W^V in one tensor
    stored = mha.in_proj_weight[:16].detach()
    with torch.no_grad():  # ... transposed, as nn.Linear: x (W^Q) = F.linear(x, stored) = x stored^T, not x stored
        torch.testing.assert_close(torch.nn.functional.linear(x[0], stored), x[0] @ stored.T)
        assert (x[0] @ stored - x[0] @ stored.T).abs().max() > 1e-3
    w_q = stored.numpy().T  # (d, d), used as x @ W^Q
    blocks = [w_q[:, i * 4:(i + 1) * 4] for i in range(4)]
    xn = x[0].numpy()
    full = xn @ w_q
    for i, b in enumerate(blocks):
        np.testing.assert_allclose(full[:, i * 4:(i + 1) * 4], xn @ b, atol=1e-6)  # cut every d_k columns


@claim("n000_qkonly")
def _():
    # note 002's sizes: T = 20, d_model = 512, h = 8
    t, d, h = 20, 512, 8
    proj = 4 * torch_matmul_mults(lambda: torch.empty(t, d, device="meta") @ torch.empty(d, d, device="meta"))
    qk = torch_matmul_mults(lambda: torch.empty(h, t, d // h, device="meta") @ torch.empty(h, d // h, t, device="meta"))
    av = qk
    total = proj + qk + av + h * t * t  # and one multiplication by 1/sqrt(d_k) per score
    assert round(100 * proj / total) == 98 and round(100 * qk / total) == 1
    for length in (2 * d - 1, 2 * d + 1):  # the L^2 part outweighs the projections exactly when L > 2 d
        assert (2 * length * length * d > 4 * length * d * d) == (length > 2 * d)
    # the default setting: 195,712 in the matrix products, 968 = h L L_k for the scaling, 196,680 in all
    mha, x = torch_mha(64, 8, 11)
    with torch.no_grad():
        matmul = torch_matmul_mults(lambda: mha(x, x, x, average_attn_weights=False))  # the explicit path
    assert (matmul, 8 * 11 * 11, matmul + 8 * 11 * 11) == (195_712, 968, 196_680)


# ------------------------------------------------------------------------------------------------ note 001
@claim("n001_q")
def _():
    x = np.array([[1, 0.5, -1, 2], [-0.5, 1, 0.3, -2]])
    wq1 = np.array([[0.1, 0.4], [-0.2, 0.3], [1.0, -0.5], [0.5, 0.2]])
    wq2 = np.array([[-0.3, 0.2], [1.1, 0.6], [-0.4, 0.8], [0.7, -0.1]])
    np.testing.assert_allclose(x @ wq1, [[0, 1.45], [-0.95, -0.45]], atol=1e-12)
    np.testing.assert_allclose(x @ wq2, [[2.05, -0.5], [-0.27, 0.94]], atol=1e-12)
    assert np.abs(x @ wq1 - [[0.85, -0.05], [-0.29, 0.74]]).min() > 0.05  # every printed entry is off
    np.testing.assert_allclose(np.array(WORKED_EXAMPLE.x), x)


@claim("n001_params")
def _():
    for d, h in ((512, 8), (64, 8), (64, 1)):
        n = sum(p.numel() for p in torch.nn.MultiheadAttention(d, h, bias=False, device="meta").parameters())
        assert n == 4 * d * d and n - d * d == 3 * d * d  # W^O adds a fourth d^2, whatever h is


@claim("n001_orth")
def _():
    for seed in range(40):  # random heads of d_k = 8 in d_model = 64: not orthogonal, and meeting only in 0
        w = np.random.default_rng(seed).standard_normal((2, 64, 8))
        angles = np.degrees(subspace_angles(w[0], w[1]))
        assert angles.min() < 89.9 and angles.max() <= 90 + 1e-9
        assert np.linalg.matrix_rank(np.concatenate(list(w), axis=1)) == 16  # 8 + 8: no shared direction
    sc = run_scene(Settings())
    closest = closest_subspaces(sc.w_q_heads)
    i, j = closest.pair
    angle = np.degrees(subspace_angles(sc.w_q_heads[i].astype(float), sc.w_q_heads[j].astype(float)))
    assert closest.angle == pytest.approx(angle.min(), abs=1e-6) and closest.angle < 90  # 42.8 degrees
    pairs = [(a, b) for a in range(8) for b in range(a)]
    smallest = min(np.degrees(subspace_angles(sc.w_q_heads[a].astype(float), sc.w_q_heads[b].astype(float))).min()
                   for a, b in pairs)
    assert closest.angle == pytest.approx(smallest, abs=1e-6) and closest.shared == 0  # fmt: skip


@claim("n001_f")
def _():
    x = RNG.standard_normal((5, 16))
    wq, wk, wv, wo = layer()
    heads = heads_out(x, wq, wk, wv)
    concat = np.concatenate(list(heads), axis=1)
    terms = [heads[i] @ wo[i * 4:(i + 1) * 4] for i in range(4)]
    np.testing.assert_allclose(concat @ wo, sum(terms), atol=1e-12)  # a plain sum, no f around it


@claim("n001_wo")
def _():
    assert "W" not in note("001", 55)  # section 4: MultiHead = Concat(...)
    assert "W^O" in note("001", 64) and "Output" in note("001", 64)  # section 5 calls Concat W^O the output
    assert "MultiHead" in note("001", 74) and "W^O" in note("001", 74)  # the summary: MultiHead = Concat W^O
    CLAIMS["n000_wo"]()


def _parallel_claims():
    """One head computes all its scores as independent dot products, h heads the same multiplications; Q, K, V
    do not depend on one another."""
    length, d = 11, 64
    with torch.no_grad():
        one = torch_matmul_mults(lambda: torch.empty(length, d, device="meta") @ torch.empty(d, length, device="meta"))
        many = torch_matmul_mults(lambda: torch.empty(8, length, d // 8, device="meta")
                                  @ torch.empty(8, d // 8, length, device="meta"))  # fmt: skip
    assert one == many == length * length * d
    mha, x = torch_mha(16, 4, 5)
    q = torch.nn.functional.linear(x, mha.in_proj_weight[:16])
    (grad,) = torch.autograd.grad(q.sum(), mha.in_proj_weight)
    assert grad[16:].abs().max() == 0 and grad[:16].abs().max() > 0  # exact: Q reads W^Q only, not W^K or W^V


@claim("n001_parallel")
def _():
    _parallel_claims()


@claim("n001_end")
def _():
    line = note("001", 201)
    assert "�" in line and line.count("Transformer 架构的核心创新") == 2  # the phrase again after the broken character


@claim("n001_kv")
def _():
    text = "\n".join(note("001", n) for n in range(149, 174))  # the worked example
    assert "W_1^Q" in text and "W_2^Q" in text and "W^O" in text
    assert "W_1^K" not in text and "W_1^V" not in text and "W_2^K" not in text  # never given
    x = np.array([[1, 0.5, -1, 2], [-0.5, 1, 0.3, -2]])
    wq = np.array(WORKED_EXAMPLE.w_q_heads)
    wo = np.array(WORKED_EXAMPLE.w_o)
    outs = []
    for seed in (0, 1):  # two choices of the missing W_i^K, W_i^V
        g = np.random.default_rng(seed)
        wk, wv = (g.standard_normal(wq.shape) for _ in range(2))
        outs.append(np.concatenate(list(heads_out(x, wq, wk, wv)), axis=1) @ wo)
    assert np.abs(outs[0] - outs[1]).max() > 0.01  # the note does not determine the output


@claim("n001_learn")
def _():
    d = 64
    counts = {sum(p.numel() for p in torch.nn.MultiheadAttention(d, h, bias=False, device="meta").parameters())
              for h in (1, 2, 4, 8, 16)}  # fmt: skip
    assert counts == {4 * d * d}
    CLAIMS["n000_split"]()


# ------------------------------------------------------------------------------------------------ note 002
@claim("n002_head")
def _():
    b, t, d, h = 32, 20, 512, 8
    x = torch.empty(b, t, d, device="meta")
    split = (x @ torch.empty(d, d, device="meta")).view(b, t, h, d // h).transpose(1, 2)
    out = (split @ split.transpose(-2, -1)) @ split  # (B, h, T, d_k): all heads
    assert tuple(out.shape) == (b, h, t, d // h) and tuple(out[:, 0].shape) == (b, t, d // h)  # head_1: a slice
    assert tuple(out.transpose(1, 2).reshape(b, t, h * (d // h)).shape) == (b, t, d)


# ------------------------------------------------------------------------------------------------ note 003
@claim("n003_x")
def _():
    assert "x组" in note("003", 3) and "𝑖=1,…,ℎ" in note("003", 8)  # x here, h in the note's own formula


@claim("n003_additive")
def _():
    assert "可加性" in note("003", 2) and "加性注意力" in note("003", 12)  # the same note, ten lines later


@claim("n003_d2l")
def _():
    line = note("003", 2)
    assert "不同序列之间" in line and "序列内" not in line  # the note's words; d2l writes 序列内各种范围的依赖关系


# ------------------------------------------------------------------------------------------------ note 004
@claim("n004_stack")
def _():
    x = RNG.standard_normal((5, 16))
    wq = layer()[0]
    side = np.concatenate(list(wq), axis=1)  # (d, h d_k): [W_1^Q | ... | W_h^Q]
    for i in range(4):
        np.testing.assert_allclose((x @ side)[:, i * 4:(i + 1) * 4], x @ wq[i], atol=1e-12)
    stacked = np.concatenate([w.T for w in wq], axis=0)  # the note's (h d_k) x d_model: the transposes, stacked
    np.testing.assert_allclose(stacked, side.T)
    assert np.abs(x @ stacked - x @ side).max() > 0.1  # taken as written: other numbers


@claim("n004_blockdiag")
def _():
    CLAIMS["n000_split"]()
    wq = layer()[0]
    block = np.zeros((4 * 16, 16))  # BlockDiag(W_1^Q, ..., W_h^Q): (h d, h d_k)
    for i, w in enumerate(wq):
        block[i * 16:(i + 1) * 16, i * 4:(i + 1) * 4] = w
    assert block.shape == (4 * 16, 16)  # it would need X of h d_model columns


@claim("n004_kernel")
def _():
    for seed in range(20):
        g = np.random.default_rng(seed)
        u = g.standard_normal((9, 4))
        assert np.linalg.eigvalsh(np.exp(u @ u.T)).min() > -1e-9  # exp(u . v) is a Mercer kernel
        a = g.standard_normal((6, 6))
        psd = a @ a.T  # M symmetric positive semi-definite
        x = g.standard_normal((9, 6))
        k = np.exp(x @ psd @ x.T / math.sqrt(6))
        assert np.linalg.eigvalsh(k).min() / np.linalg.eigvalsh(k).max() > -1e-9  # so is exp(x M x'^T / sqrt d_k)
        wq, wk = g.standard_normal((6, 3)), g.standard_normal((6, 3))  # independent W^Q, W^K: M not symmetric
        s = x @ wq @ (x @ wk).T
        assert np.abs(s - s.T).max() > 1e-3  # k(x, x') != k(x', x): not even symmetric
    sc = run_scene(Settings())
    x, wq = sc.x_in.astype(float), sc.w_q_heads[0].astype(float)
    for c in (1, 2):  # W^K = c W^Q at the default setting
        s = (x @ wq) @ (x @ (c * wq)).T / math.sqrt(sc.d_k)
        eig = np.linalg.eigvalsh(np.exp(s - s.max()))
        assert eig.min() >= -1e-12 * eig.max()


@claim("n004_mkl")
def _():
    x = RNG.standard_normal((6, 16))
    wq, wk, wv, wo = layer()
    q, k, v = (np.einsum("ld,hde->hle", x, w) for w in (wq, wk, wv))
    s = q @ k.transpose(0, 2, 1) / 2
    own = np.concatenate(list(softmax(s) @ v), axis=1) @ wo  # each head normalises its own kernel
    shared = np.exp(s).sum(0)
    shared /= shared.sum(-1, keepdims=True)
    summed = np.concatenate(list(shared[None] @ v), axis=1) @ wo  # the kernels added first, normalised once
    assert np.abs(own - summed).max() > 1e-2


@claim("n004_fh")
def _():
    x = run_scene(Settings()).x_in.astype(float)  # the default sentence: 11 tokens
    g = np.random.default_rng(0)
    wq, wk = g.standard_normal((64, 64)), g.standard_normal((64, 64))
    s = (x @ wq) @ (x @ wk).T
    assert np.linalg.matrix_rank(s) == 11  # one head of d_k = d_model: full rank on 11 tokens
    for dk in (8, 4):  # a head of d_k: scores of rank <= d_k; a row constant adds at most 1
        sd = (x @ wq[:, :dk]) @ (x @ wk[:, :dk]).T + g.standard_normal((11, 1))
        assert np.linalg.matrix_rank(sd) <= dk + 1 < 11
    np.testing.assert_allclose(softmax(s + 3.0), softmax(s), atol=1e-12)  # softmax ignores a constant per row


@claim("n004_but")
def _():
    line = note("004", 39)
    assert line.index("严格包含") < line.index("但存在一些函数")  # "strictly contains", then "but there exist"


@claim("n004_asym")
def _():
    x = RNG.standard_normal((6, 16))
    wq, wk, *_ = layer()
    s = (x @ wq[0]) @ (x @ wk[0]).T
    assert np.abs(s - s.T).max() > 1e-2  # one head: s_ij != s_ji


@claim("n004_nonlinear")
def _():
    x, x2 = RNG.standard_normal((2, 16))
    wq, wk, *_ = layer()
    np.testing.assert_allclose((x + x2) @ wq[0], x @ wq[0] + x2 @ wq[0], atol=1e-12)  # linear
    m = wq[0] @ wk[0].T
    np.testing.assert_allclose(x @ m @ x2, (x @ wq[0]) @ (x2 @ wk[0]), atol=1e-12)  # a bilinear form
    assert np.linalg.matrix_rank(m) <= 4  # of rank <= d_k
    a, b = RNG.standard_normal((2, 5))
    assert np.abs(softmax(a + b) - (softmax(a) + softmax(b))).max() > 1e-2  # the softmax is not additive


@claim("n004_basis")
def _():
    CLAIMS["n001_f"]()


@claim("n004_rho")
def _():
    x = RNG.standard_normal((6, 16))
    wq, wk, wv, wo = layer()
    r, _ = np.linalg.qr(RNG.standard_normal((4, 4)))
    wv2, wo2 = wv.copy(), wo.copy()
    wv2[1] = wv[1] @ r
    wo2[4:8] = r.T @ wo[4:8]

    def run(v, o):
        heads = heads_out(x, wq, wk, v)
        a, b = heads[0].ravel(), heads[1].ravel()
        return np.concatenate(list(heads), axis=1) @ o, a @ b / np.linalg.norm(a) / np.linalg.norm(b)

    (out, rho), (out2, rho2) = run(wv, wo), run(wv2, wo2)
    np.testing.assert_allclose(out, out2, atol=1e-12)  # the same layer
    assert abs(rho - rho2) > 1e-3  # another rho_12


@claim("n004_lowcorr")
def _():
    pytest.importorskip("tokenizers")
    from explorer.baselines import real_heads_baseline
    from i18n import t
    from pretrained.loading import ModelUnavailable

    try:
        b = real_heads_baseline(t("minilm.default_text", "en"))
    except ModelUnavailable:
        pytest.skip("all-MiniLM-L6-v2 is not installed")
    assert b.contrib_random.mean() <= b.contrib_trained.mean() + 0.05  # random heads score at least as low


@claim("n004_optima")
def _():
    d, h, length = 16, 4, 6
    torch.manual_seed(0)
    x, target = torch.randn(1, length, d, dtype=torch.float64), torch.randn(1, length, d, dtype=torch.float64)

    def train(same_start: bool) -> float:
        mha = torch.nn.MultiheadAttention(d, h, bias=False, batch_first=True).double()
        with torch.no_grad():
            if same_start:  # every head a copy of head 1: its rows of W^Q, W^K, W^V, its columns of W^O
                w = mha.in_proj_weight.view(3, h, d // h, d)
                w[:] = w[:, :1].clone()
                o = mha.out_proj.weight.view(d, h, d // h)
                o[:] = o[:, :1].clone()
        opt = torch.optim.SGD(mha.parameters(), lr=0.1)
        for _ in range(5):  # one loss of all the weights, together
            opt.zero_grad()
            ((mha(x, x, x)[0] - target) ** 2).mean().backward()
            opt.step()
        w = mha.in_proj_weight.detach().view(3, h, d // h, d)
        return float((w - w[:, :1]).abs().max())

    assert train(same_start=True) < 1e-12  # the same start, the same gradients: the heads stay the same
    assert train(same_start=False) > 0.1


@claim("n004_symmetric")
def _():
    assert "对称的初始状态" in note("004", 53) and "不同的随机起点" in note("004", 53)
    CLAIMS["n004_optima"]()  # tied heads stay tied under SGD (to 1e-12); random ones part


@claim("n004_extra")
def _():
    assert "引入了额外的参数" in note("004", 27) and "完全相同" in note("004", 29)  # the note says both
    for d in (64, 512):
        counts = {sum(p.numel() for p in torch.nn.MultiheadAttention(d, h, bias=False, device="meta").parameters())
                  for h in (1, 2, 4, 8, 16)}  # fmt: skip
        assert counts == {4 * d * d}  # no h adds a parameter: 3 h d d_k + d^2 = 4 d^2


@claim("n004_gpt3")
def _():
    assert 12288 // 96 == 128 > 512 // 8 == 64 and 12288 / 512 == 24 and 12288 // 64 == 192
    assert "96" in note("004", 54)


@claim("n004_free")
def _():
    CLAIMS["n000_mult"]()
    CLAIMS["n001_learn"]()


@claim("n004_typo")
def _():
    assert "正交的特理" in note("004", 52)


# ------------------------------------------------------------------------------------------------ the list
def test_every_erratum_has_a_test():
    assert set(CLAIMS) == set(BY_ID)


@pytest.mark.parametrize("eid", [e["id"] for e in ERRATA])
def test_what_is_true(eid: str) -> None:
    CLAIMS[eid]()
