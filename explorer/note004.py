"""Note 004's arguments on the current setting (mha_core.note004), computed once per Settings and cached."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import torch

from mha_core import score_rank
from mha_core.note004 import (
    BottleneckRow,
    HeadCost,
    InclusionRow,
    bottleneck_sweep,
    cost_by_heads,
    head_counts,
    inclusion_check,
)
from mha_core.why import head_contributions

from .pipeline import run_scene
from .settings import LIMITS, Settings

SWEEP_MAX_HEADS = 64  # the sweep goes down to d_k = 1 when d_model <= 64: there only 2 keys can ever win


@dataclass(frozen=True)
class Note004Data:
    """Small tables (a few dozen numbers) and the (h, L, d_model) head contributions of one setting."""

    ranks: tuple[int, ...]  # score rank of each head of the current layer
    bottleneck: tuple[BottleneckRow, ...]
    inclusion: tuple[InclusionRow, ...]
    costs: tuple[HeadCost, ...]  # h = every divisor of d_model up to the app's limit
    contributions: np.ndarray  # (h, Lq, d_model) head_i W^O_i
    sum_gap: float  # max |sum_i head_i W^O_i - output|


@lru_cache(maxsize=8)  # one entry holds h * L * d_model floats: at most 16 * 64 * 1024 * 8 B = 8 MiB
def note004_data(s: Settings) -> Note004Data:
    """Everything the page "Why multi-head, tested" draws, for valid settings."""
    sc = run_scene(s)
    x = torch.tensor(np.array(sc.x_in))
    contrib = head_contributions(sc.head_outputs.astype(np.float64), sc.w_o_heads.astype(np.float64))
    contrib.flags.writeable = False
    return Note004Data(
        ranks=tuple(int(r) for r in score_rank(torch.tensor(np.array(sc.scores)))),
        bottleneck=tuple(bottleneck_sweep(x, s.d_model, seed=s.seed, max_heads=SWEEP_MAX_HEADS)),
        inclusion=tuple(inclusion_check(x, s.d_model, seed=s.seed, max_heads=SWEEP_MAX_HEADS)),
        costs=tuple(cost_by_heads(sc.len_q, sc.len_k, s.d_model, head_counts(s.d_model, LIMITS.max_heads))),
        contributions=contrib,
        sum_gap=float(np.abs(contrib.sum(axis=0) - sc.output).max()),
    )
