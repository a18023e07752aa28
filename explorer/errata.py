"""The notes' errata (the list is i18n.catalog_errata.ERRATA) with the live numbers that prove each one on the
current setting, and the README section generated from the same list."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import torch

from i18n import cite_plain, t
from i18n.catalog_errata import ERRATA
from mha_core import MultiHeadAttention, operation_counts, parameter_count
from mha_core.note004 import (
    closest_subspaces,
    cost_by_heads,
    heads_reading_input,
    inclusion_check,
    kernel_sum_check,
    kernel_view,
    linearity_check,
    rho_extremes,
    subspace_overlap,
    symmetric_start,
)
from mha_core.why import head_contributions

from .models import REAL_MODELS
from .pipeline import NOTE_002_SIZES, Scene, run_scene, traced_shapes
from .presets import WORKED_EXAMPLE, apply_preset
from .settings import Settings

BY_ID = {e["id"]: e for e in ERRATA}
NOTES = tuple(sorted({e["note"] for e in ERRATA}))


def for_page(url: str) -> list[str]:
    """Ids of the errata whose demonstration is on page `url`."""
    return [e["id"] for e in ERRATA if e["page"] == url]


def _g(x: float) -> str:
    return f"{x:.2g}" if abs(x) < 1e-3 else f"{x:.3f}"


def _matrix(m: np.ndarray) -> str:
    rows = ", ".join("[" + ", ".join(f"{v:.2f}".rstrip("0").rstrip(".").replace("-0", "−0").replace("-", "−") or "0"
                                     for v in row) + "]" for row in m)  # fmt: skip
    return f"[{rows}]"


@lru_cache(maxsize=1)
def _worked_q() -> tuple[str, str]:
    """Q_1, Q_2 of note 001's worked example, as the layer computes them from the note's X and W_i^Q."""
    sc = run_scene(apply_preset(Settings(), "worked"))
    return _matrix(sc.q[0]), _matrix(sc.q[1])


def _pct(part: int, total: int) -> str:
    share = 100 * part / total if total else 0.0
    return f"{share:.1f} %" if share < 10 else f"{share:.0f} %"


def _shape(dims: tuple[int, ...]) -> str:
    return " × ".join(str(n) for n in dims)


@lru_cache(maxsize=1)
def _worked_other_kv() -> tuple[float, float]:
    """Note 001's example finished with two choices of the W_i^K, W_i^V it leaves out: (largest difference of the
    outputs, largest |output|). The other choice: seeded normal numbers of the app's size (seed 1)."""
    w = WORKED_EXAMPLE
    x = torch.tensor(w.x, dtype=torch.float64)
    wq, wo = torch.tensor(w.w_q_heads, dtype=torch.float64), torch.tensor(w.w_o, dtype=torch.float64)
    gen = torch.Generator().manual_seed(1)
    other = [0.5 * torch.randn(wq.shape, generator=gen, dtype=torch.float64) for _ in range(2)]
    outs = []
    for wk, wv in ((torch.tensor(w.w_k_heads, dtype=torch.float64), torch.tensor(w.w_v_heads, dtype=torch.float64)),
                   other):  # fmt: skip
        mha = MultiHeadAttention.from_head_weights(wq, wk, wv, wo)
        with torch.no_grad():
            outs.append(mha(x).output)
    return float((outs[0] - outs[1]).abs().max()), float(outs[0].abs().max())


@lru_cache(maxsize=1)
def _real_heads_contrib() -> dict[str, str] | None:
    """The low-correlation erratum on the real model: mean |cos| of different heads' contributions per layer,
    trained against random heads on the same input; None when the model is not installed."""
    try:
        from pretrained.loading import ModelUnavailable

        from .baselines import real_heads_baseline

        b = real_heads_baseline(t("minilm.default_text", "en"))
    except (ImportError, ModelUnavailable):
        return None
    tr, rnd = b.contrib_trained, b.contrib_random
    return {"lo": f"{tr.min():.2f}", "hi": f"{tr.max():.2f}", "rlo": f"{rnd.min():.2f}", "rhi": f"{rnd.max():.2f}"}


def _symmetric_start(sc: Scene):
    """The symmetry-breaking evidence on this Scene: the heads' gradients from a common start and from their own."""
    return symmetric_start(sc.x_in, sc.w_q_heads, sc.w_k_heads, sc.w_v_heads, sc.w_o_heads, seed=sc.settings.seed)


def evidence(sc: Scene) -> dict[str, dict[str, str]]:
    """Format fields of each entry's live sentence (errata.<id>.evidence), computed on this Scene."""
    h, d, L = sc.n_heads, sc.d_model, sc.len_q
    contrib = head_contributions(sc.head_outputs, sc.w_o_heads)
    sum_gap = float(np.abs(contrib.sum(axis=0) - sc.output).max())
    reading = str(heads_reading_input(sc.w_q_heads, 0))
    x = torch.tensor(np.array(sc.x_in))
    kv = kernel_view(sc.x_in, sc.w_q_heads[0], sc.w_k_heads[0], sc.settings.scale, *sc.qk_biases(0))
    incl = inclusion_check(x, d, seed=sc.settings.seed)
    fails = [r.n_heads for r in incl if not r.reproducible]
    costs = {c.n_heads: c for c in cost_by_heads(L, sc.len_k, d, sorted({1, h}))}
    one = {c.step: c for c in operation_counts(L, d, 1)}
    q1, q2 = _worked_q()
    fused_gap = float(np.abs(sc.q_fused.reshape(L, h, sc.d_k).transpose(1, 0, 2) - sc.q).max())
    x_in = np.asarray(sc.x_in, dtype=np.float64)
    transposed_gap = float(np.abs(x_in @ np.asarray(sc.w_q).T - x_in @ np.asarray(sc.w_q)).max())  # X (W^Q)^T vs X W^Q
    closest = closest_subspaces(sc.w_q_heads, subspace_overlap(sc.w_q_heads)) if h > 1 else None
    s_rows = sc.scores[0].sum(axis=-1)
    by_step = {c.step: c for c in operation_counts(L, d, h, len_k=sc.len_k)}
    total = sum(c.mults for c in by_step.values())
    proj = sum(by_step[k].mults for k in ("q_proj", "k_proj", "v_proj", "out_proj"))
    n2 = NOTE_002_SIZES
    note = {c.step: c for c in operation_counts(n2["len_q"], n2["d_model"], n2["n_heads"])}
    note_total = sum(c.mults for c in note.values())
    note_proj = sum(note[k].mults for k in ("q_proj", "k_proj", "v_proj", "out_proj"))
    shapes = traced_shapes(n2["batch"], n2["len_q"], n2["len_k"], n2["d_model"], n2["n_heads"])
    wq_cut = np.concatenate(list(sc.w_q_heads), axis=1)  # [W_1^Q | ... | W_h^Q]
    ks = kernel_sum_check(sc.masked_scores, sc.v, sc.w_o_heads)
    lin = linearity_check(sc.x_in, sc.w_q_heads, sc.w_k_heads, seed=sc.settings.seed)
    kv_gap, kv_scale = _worked_other_kv()
    sizes = {m.name: m for m in REAL_MODELS}
    base, gpt = sizes["Transformer base (2017)"], sizes["GPT-3 175B (2020)"]
    one_head = parameter_count(d, 1)
    matmul = sum(c.mults for k, c in by_step.items() if k != "scale")
    parallel = {"L": str(L), "d": str(d), "dk": str(sc.d_k), "h": str(h), "n1": f"{L * sc.len_k:,}",
                "nh": f"{h * L * sc.len_k:,}", "mults": f"{by_step['qk'].mults:,}"}  # fmt: skip
    spread = float(np.abs(sc.weights - sc.weights[:1]).max())  # how far the heads' weights are from head 1's
    sym = _symmetric_start(sc)
    out: dict[str, dict[str, str]] = {
        "n000_split": {"heads": reading, "h": str(h)},
        "n004_blockdiag": {"heads": reading, "h": str(h)},
        "n000_wo": {"gap": _g(float(np.abs(sc.concat - sc.output).max()))},
        "n001_wo": {"gap": _g(float(np.abs(sc.concat - sc.output).max()))},
        "n000_parallel": parallel | {"spread": _g(spread)},
        "n000_a": {"lo": f"{s_rows.min():.2f}", "hi": f"{s_rows.max():.2f}"},
        "n000_t": {"d": str(d), "L": str(L), "adds": f"{one['qk'].adds:,}"},
        "n000_mult": {"h": str(h), "mults": f"{costs[1].matmul_mults:,}", "x": str(h),
                      "e1": f"{costs[1].exponentials:,}", "eh": f"{costs[h].exponentials:,}"},
        "n001_q": {"q1": q1, "q2": q2},
        "n001_params": {"d": str(d), "h": str(h), "mh": f"{parameter_count(d, h).weights:,}",
                        "s4": f"{one_head.weights:,}", "s3": f"{one_head.weights - one_head.w_o:,}"},

        "n001_f": {"gap": _g(sum_gap)},
        "n001_parallel": parallel,
        "n000_unified": {"d": str(d), "dk": str(sc.d_k), "h": str(h), "wgap": _g(float(np.abs(wq_cut - sc.w_q).max())),
                         "gap": _g(fused_gap)},
        "n000_qkonly": {"L": str(L), "d": str(d), "total": f"{total:,}", "mm": f"{matmul:,}",
                        "scale": f"{by_step['scale'].mults:,}", "qk": _pct(by_step["qk"].mults, total),
                        "av": _pct(by_step["weights_v"].mults, total), "proj": _pct(proj, total),
                        "n_qk": _pct(note["qk"].mults, note_total), "n_proj": _pct(note_proj, note_total)},
        "n001_kv": {"gap": _g(kv_gap), "scale": _g(kv_scale)},
        "n001_learn": {"h": str(h), "weights": f"{parameter_count(d, h).weights:,}", "heads": reading},
        "n002_head": {"all": _shape(shapes["head_outputs"]), "one": _shape(shapes["head_i"]),
                      "concat": _shape(shapes["concat"])},
        "n004_mkl": {"gap": _g(ks.output_gap), "scale": _g(ks.output_scale), "wgap": _g(ks.weight_gap)},
        "n004_nonlinear": {"proj": _g(lin.projection_gap), "bil": _g(lin.bilinear_gap), "rank": str(lin.m_rank),
                           "soft": _g(lin.softmax_gap)},
        "n004_gpt3": {"t_d": f"{base.d_model:,}", "t_h": str(base.n_heads), "t_dk": str(base.d_model // base.n_heads),
                      "g_d": f"{gpt.d_model:,}", "g_h": str(gpt.n_heads), "g_dk": str(gpt.d_model // gpt.n_heads),
                      "h_same": str(gpt.d_model // (base.d_model // base.n_heads))},
        "n004_stack": {"dk": str(sc.d_k), "gap": _g(fused_gap), "tgap": _g(transposed_gap)},
        "n004_kernel": {"asym": f"{kv.asymmetry:.2f}", "eig": f"{kv.min_eig_sym:.3g}",
                        "tied": f"{kv.tied_min_eig:.3g}", "double": f"{kv.double_min_eig:.3g}"},
        "n004_optima": {"same": _g(sym.same_start_gap), "own": _g(sym.own_weights_gap)},
        "n004_symmetric": {"same": _g(sym.same_start_gap), "own": _g(sym.own_weights_gap)},
        "n004_extra": {"d": str(d), "h": str(h), "w1": f"{one_head.weights:,}",
                       "wh": f"{parameter_count(d, h).weights:,}", "four": f"{4 * d * d:,}"},
        "n004_fh": {"d": str(d), "r1": str(incl[0].single_rank), "h0": str(fails[0]) if fails else "—"},
        "n004_asym": {"gap": f"{kv.max_pair_gap:.2f}"},
        "n004_basis": {"h": str(h), "gap": _g(sum_gap)},
        "n004_free": {"L": str(L), "mults": f"{costs[1].matmul_mults:,}", "e1": f"{costs[1].exponentials:,}",
                      "eh": f"{costs[h].exponentials:,}", "h": str(h)},
    }  # fmt: skip
    if closest is not None:
        out["n001_orth"] = {"i": str(closest.pair[0] + 1), "j": str(closest.pair[1] + 1),
                            "angle": f"{closest.angle:.1f}", "shared": str(closest.shared), "dk": str(sc.d_k)}
    real = _real_heads_contrib()
    if real is not None:
        out["n004_lowcorr"] = real
    if h > 1:
        lo, hi, _, _ = rho_extremes(sc.head_outputs, 0, 1)
        out["n004_rho"] = {"lo": f"{lo:.2f}", "hi": f"{hi:.2f}", "now": f"{sc.head_sim[0, 1]:.2f}"}
    return out


# ------------------------------------------------------------------------------------------ README
README_START = "## Where the lecture notes are wrong"
PAGE_KEYS = {url: f"page.{url}" for url in ("why", "subspaces", "note004", "heads", "steps", "worked", "minilm",
                                             "lab")}  # fmt: skip


def readme_section() -> str:
    """The README's errata section, in English, from ERRATA (scripts/errata_readme.py writes it)."""
    lines = [
        README_START, "",
        "The app teaches from five Chinese lecture notes and always shows computed numbers, never the notes'. The "
        "page “Where the notes are wrong” lists these with live numbers on the current setting; this list is "
        "generated from the same source (`i18n/catalog_errata.py`, by `python scripts/errata_readme.py`).", "",
    ]  # fmt: skip
    for e in ERRATA:
        page = t(PAGE_KEYS[e["page"]], "en") if e["page"] else ""
        shown = f" Shown on the page “{page}” (`{e['computation']}`)." if page else ""
        kind = f" ({t('errata.clarification', 'en')})" if e.get("kind") == "clarification" else ""
        lines.append(f"- **Note {e['note']}, line {e['line']}** — {e['title']['en']}{kind}. The note: "
                     f"`` {e['quote']} ``. {cite_plain(e['true']['en'], 'en')}{shown}")  # fmt: skip
    return "\n".join(lines) + "\n"
