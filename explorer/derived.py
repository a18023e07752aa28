"""Numbers some pages show beyond the Scene, computed from mha_core so that pages only lay them out:
the positional-encoding tables of the positional page, the per-head blocks of a weight matrix for any h,
W^O split into per-head contributions, and summary statistics of rho_ij."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import torch

from budget import GATE, ByteLRU, array_bytes, memoize
from mha_core import positional_similarity, sinusoidal_positional_encoding, split_weight_columns, wavelengths
from mha_core.note004 import (
    ClosestSubspaces,
    RotationDemo,
    closest_subspaces,
    rho_extremes,
    rotation_demo,
    subspace_overlap,
)
from mha_core.why import head_contributions

from .pipeline import Scene, _ro, run_scene
from .settings import Settings


@dataclass(frozen=True)
class PositionalTables:
    """p (L, d) sinusoidal positional encoding, similarity (L, L) = P P^T, wavelengths (ceil(d/2),)."""

    p: np.ndarray
    similarity: np.ndarray
    wavelengths: np.ndarray


# At the positional page's limits (L 256, d 1024, float32) one entry is about 1.3 MB.
POSITIONAL_CACHE = ByteLRU("positional", 16 << 20)


@memoize(POSITIONAL_CACHE, lambda tables: array_bytes((tables.p, tables.similarity, tables.wavelengths)))
def positional_tables(length: int, d_model: int, base: float) -> PositionalTables:
    """P, P P^T and the wavelengths for a length, width and base (cached: the page's own controls)."""
    p = sinusoidal_positional_encoding(length, d_model, base)
    return PositionalTables(_ro(p), _ro(positional_similarity(p)), _ro(wavelengths(d_model, base)))


def weight_blocks(w: np.ndarray, n_heads: int) -> np.ndarray:
    """A fused (d_model, d_model) projection as h per-head blocks (h, d_model, d_k): W_i = W[:, i d_k:(i+1) d_k]."""
    return split_weight_columns(torch.from_numpy(np.array(w)), n_heads).numpy()  # a copy: Scene arrays are read-only


@dataclass(frozen=True)
class OutputByHead:
    """contributions (h, Lq, d_model): head_i W^O_i; gap: max |sum_i head_i W^O_i - Concat W^O| (rounding only)."""

    contributions: np.ndarray
    gap: float


def output_by_head(scene: Scene) -> OutputByHead:
    """Concat(head_1..head_h) W^O written as the sum over heads of head_i W^O_i, checked against concat @ W^O."""
    contributions = head_contributions(scene.head_outputs, scene.w_o_heads)
    gap = float(np.abs(contributions.sum(axis=0) - scene.concat @ scene.w_o).max())
    return OutputByHead(contributions, gap)


def head_subspace_overlap(w_heads: np.ndarray) -> np.ndarray:
    """mha_core.note004.subspace_overlap (h, h) of the per-head blocks (h, d_model, d_k). At the largest setting
    that is h SVDs of 1024 x 64 and h^2 more: it takes a slot of the heavy-build gate, like a large figure (it was
    the largest CPU cost of /subspaces under bench/soak.py, run by every heavy user at once)."""
    with GATE.slot(GATE.is_heavy(int(np.size(w_heads)))):
        return subspace_overlap(w_heads)


def closest_head_subspaces(w_heads: np.ndarray) -> ClosestSubspaces | None:
    """mha_core.note004.closest_subspaces of the per-head blocks (h, d_model, d_k), from head_subspace_overlap."""
    if len(w_heads) < 2:
        return None
    return closest_subspaces(w_heads, head_subspace_overlap(w_heads))  # then only three ranks


@dataclass(frozen=True)
class OffDiagonal:
    """Smallest, largest and mean |value| of rho_ij over pairs of different heads (i != j)."""

    low: float
    high: float
    mean_abs: float


def off_diagonal(similarity: np.ndarray) -> OffDiagonal | None:
    """Summary of an (h, h) similarity matrix without its diagonal; None for a single head."""
    h = similarity.shape[0]
    if h < 2:
        return None
    off = similarity[~np.eye(h, dtype=bool)]
    return OffDiagonal(float(off.min()), float(off.max()), float(np.abs(off).mean()))


def valid_head_counts(d_model: int, limit: int = 64) -> list[int]:
    """Every h <= limit that divides d_model (d_k = d_model / h whole)."""
    return [h for h in range(1, min(d_model, limit) + 1) if d_model % h == 0]


@dataclass(frozen=True)
class HeadTurn:
    """Note 004's rotation of head `head`'s value space, seen from head `pair`: the demo (the layer run with and
    without R) and the range of rho_ij over every orthogonal R (mha_core.note004.rho_extremes)."""

    demo: RotationDemo
    low: float
    high: float


ROTATION_CACHE = ByteLRU("rotations", 8 << 20)  # at the largest setting (h 16, d_k 64) one entry is ~70 kB


def _turn_bytes(turn: HeadTurn) -> int:
    d = turn.demo
    return array_bytes((d.r, d.rho_before, d.rho_after, d.contrib_before, d.contrib_after))


@memoize(ROTATION_CACHE, _turn_bytes)
def head_turn(s: Settings, head: int, pair: int, mode: str, angle_degrees: int) -> HeadTurn:
    """The rotation demo of the Scene of `s` (cached: every student following a teacher reruns it with the same
    numbers, and it runs the layer twice in float64). mode "angle" turns by `angle_degrees`; "max" / "min" use the
    R that makes rho_{pair, head} largest / smallest."""
    sc = run_scene(s)
    low, high, r_high, r_low = rho_extremes(sc.head_outputs, pair, head)
    d = s.d_model
    b_in = sc.in_proj_bias  # [b^Q | b^K | b^V]
    biases = None if b_in is None else (b_in[:d], b_in[d:2 * d], b_in[2 * d:], sc.out_proj_bias)
    demo = rotation_demo(sc.x_in, sc.w_q_heads, sc.w_k_heads, sc.w_v_heads, sc.w_o, head=head,
                         angle=math.radians(angle_degrees), scale=s.scale, key=sc.x_kv_in if s.cross else None,
                         attn_mask=sc.mask[0] if sc.mask.any() else None,
                         r={"angle": None, "max": r_high, "min": r_low}[mode], biases=biases)  # fmt: skip
    return HeadTurn(demo, low, high)
