"""The notes' errata (the list is i18n.catalog_errata.ERRATA) with the live numbers that prove each one on the
current setting, and the README section generated from the same list."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import torch

from i18n import t
from i18n.catalog_errata import ERRATA
from mha_core import operation_counts, parameter_count
from mha_core.note004 import (
    cost_by_heads,
    heads_reading_input,
    inclusion_check,
    kernel_view,
    rho_extremes,
    subspace_overlap,
)
from mha_core.why import head_contributions

from .pipeline import Scene, run_scene
from .presets import apply_preset
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
    overlap = subspace_overlap(sc.w_q_heads)
    off = overlap[~np.eye(h, dtype=bool)] if h > 1 else np.array([0.0])
    s_rows = sc.scores[0].sum(axis=-1)
    out: dict[str, dict[str, str]] = {
        "n000_split": {"heads": reading, "h": str(h)},
        "n004_blockdiag": {"heads": reading, "h": str(h)},
        "n000_wo": {"gap": _g(float(np.abs(sc.concat - sc.output).max()))},
        "n000_a": {"lo": f"{s_rows.min():.2f}", "hi": f"{s_rows.max():.2f}"},
        "n000_t": {"d": str(d), "L": str(L), "adds": f"{one['qk'].adds:,}"},
        "n000_mult": {"h": str(h), "mults": f"{costs[1].matmul_mults:,}", "x": str(h)},
        "n001_q": {"q1": q1, "q2": q2},
        "n001_params": {"d": str(d), "weights": f"{parameter_count(d, h).weights:,}"},
        "n001_orth": {"cos": f"{off.max():.2f}"},
        "n001_f": {"gap": _g(sum_gap)},
        "n001_parallel": {"steps": str(len(operation_counts(L, d, 1))), "h": str(h), "L": str(L)},
        "n004_stack": {"dk": str(sc.d_k), "gap": _g(fused_gap)},
        "n004_kernel": {"asym": f"{kv.asymmetry:.2f}", "eig": f"{kv.min_eig_sym:.3g}",
                        "tied": f"{kv.tied_min_eig:.3g}"},
        "n004_fh": {"d": str(d), "r1": str(incl[0].single_rank), "h0": str(fails[0]) if fails else "—"},
        "n004_asym": {"gap": f"{kv.max_pair_gap:.2f}"},
        "n004_basis": {"h": str(h), "gap": _g(sum_gap)},
        "n004_lowcorr": {},
        "n004_free": {"L": str(L), "mults": f"{costs[1].matmul_mults:,}", "e1": f"{costs[1].exponentials:,}",
                      "eh": f"{costs[h].exponentials:,}", "h": str(h)},
    }  # fmt: skip
    if h > 1:
        lo, hi, _, _ = rho_extremes(sc.head_outputs, 0, 1)
        out["n004_rho"] = {"lo": f"{lo:.2f}", "hi": f"{hi:.2f}", "now": f"{sc.head_sim[0, 1]:.2f}"}
    return out


# ------------------------------------------------------------------------------------------ README
README_START = "## Where the lecture notes are wrong"
PAGE_KEYS = {url: f"page.{url}" for url in ("why", "subspaces", "note004", "heads", "steps", "worked", "minilm")}


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
        lines.append(f"- **Note {e['note']}, line {e['line']}** — {e['title']['en']}. The note: `` {e['quote']} ``. "
                     f"{e['true']['en']}{shown}")  # fmt: skip
    return "\n".join(lines) + "\n"
