"""Drawing a matrix at the resolution the screen can show.

A 64 x 1024 heatmap on a 1,100-pixel-wide plot puts about one pixel under each column: the browser cannot
show the single cells, yet each one costs a value and a hover label in the message sent to it (the W^O head
contributions at d_model 1024, h 16 were 41.5 MB of JSON, close to Streamlit's 50 MB message limit).
Unlabelled axes (dimensions, positions) wider than the screen are therefore drawn as blocks of adjacent
entries, each the mean of its block; the figure says so in a note. Token axes carry labels and are never
merged. This is a view of the numbers, not a computation the lecture is about.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from i18n import t

MIN_CELL_PX = 3.0  # a cell narrower than this cannot be told apart from its neighbours


def block_factor(n: int, extent_px: float, min_px: float = MIN_CELL_PX) -> int:
    """How many adjacent entries of an axis of n entries share one drawn cell so that each cell gets at
    least `min_px` pixels of `extent_px`: 1 when they fit, else the smallest power of two that makes them fit
    (blocks of 2, 4, 8, ... dimensions read more easily than blocks of 13)."""
    fit = max(1, int(extent_px // min_px))
    if n <= fit:
        return 1
    return 2 ** math.ceil(math.log2(n / fit))


def block_mean(a: np.ndarray, axis: int, factor: int) -> np.ndarray:
    """The mean of each run of `factor` consecutive entries along `axis` (the last run may be shorter).
    Non-finite entries (-inf of a masked score) are left out of a mean; a run of nothing else stays -inf."""
    if factor <= 1:
        return a
    a = np.moveaxis(np.asarray(a, dtype=float), axis, -1)
    n = a.shape[-1]
    pad = (-n) % factor
    finite = np.isfinite(a)
    vals = np.where(finite, a, 0.0)
    if pad:
        widths = [(0, 0)] * (a.ndim - 1) + [(0, pad)]
        vals, finite = np.pad(vals, widths), np.pad(finite, widths)
    shape = (*a.shape[:-1], (n + pad) // factor, factor)
    total = vals.reshape(shape).sum(-1)
    count = finite.reshape(shape).sum(-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.where(count > 0, total / np.maximum(count, 1), -np.inf)
    return np.moveaxis(out, -1, axis)


def block_labels(ticks: Sequence[str], hover: Sequence[str], factor: int) -> tuple[list[str], list[str]]:
    """Tick and hover text of the merged axis: "first–last" of each block."""
    if factor <= 1:
        return list(ticks), list(hover)
    n = len(ticks)
    starts = range(0, n, factor)
    return ([f"{ticks[s]}–{ticks[min(s + factor, n) - 1]}" for s in starts],
            [f"{hover[s]}–{hover[min(s + factor, n) - 1]}" for s in starts])  # fmt: skip


@dataclass(frozen=True)
class Reduction:
    """What was merged: blocks of `row_factor` rows and `col_factor` columns (1: drawn as they are)."""

    rows: int
    cols: int
    row_factor: int = 1
    col_factor: int = 1

    @property
    def reduced(self) -> bool:
        return self.row_factor > 1 or self.col_factor > 1

    def note(self, lang: str) -> str | None:
        """The figure's translated note ("each cell is the mean of 16 adjacent columns ..."), or None."""
        if not self.reduced:
            return None
        parts = []
        if self.col_factor > 1:
            parts.append(t("fig.reduced_cols", lang, k=self.col_factor, n=self.cols,
                           m=math.ceil(self.cols / self.col_factor)))  # fmt: skip
        if self.row_factor > 1:
            parts.append(t("fig.reduced_rows", lang, k=self.row_factor, n=self.rows,
                           m=math.ceil(self.rows / self.row_factor)))  # fmt: skip
        return t("fig.reduced", lang, what="; ".join(parts))


def reduce_axes(
    a: np.ndarray, rows_px: float, cols_px: float, *, rows_free: bool, cols_free: bool
) -> tuple[np.ndarray, Reduction]:
    """a (..., R, C) with each free (unlabelled) axis merged into blocks that fit its pixels."""
    n_rows, n_cols = a.shape[-2], a.shape[-1]
    rf = block_factor(n_rows, rows_px) if rows_free else 1
    cf = block_factor(n_cols, cols_px) if cols_free else 1
    out = block_mean(block_mean(a, a.ndim - 2, rf), a.ndim - 1, cf)
    return out, Reduction(n_rows, n_cols, rf, cf)
