"""Recognisable head types, each measured as the mean attention mass a head puts on one pattern.

For weights A (h, L, L) of one layer (rows: queries, summing to 1), over the queries where the pattern exists:
    previous token  mean_i A[i, i-1]  (i = 1 .. L-1)       next token  mean_i A[i, i+1]  (i = 0 .. L-2)
    [CLS]           mean_i A[i, 0]                          [SEP]       mean_i A[i, L-1]
    same token      mean_i A[i, i]   (the query itself)
A score of 1 means every query puts all its weight on that key; a uniform head scores 1/L.
"""

from __future__ import annotations

import numpy as np

PATTERNS: tuple[str, ...] = ("previous", "next", "cls", "sep", "self")


def pattern_scores(weights: np.ndarray) -> dict[str, np.ndarray]:
    """weights (..., L, L) -> {pattern: (...)} mean attention mass on each pattern (NaN where L is too short)."""
    a = np.asarray(weights, dtype=float)
    length = a.shape[-1]
    if a.ndim < 2 or a.shape[-2] != length:
        raise ValueError(f"weights must end in (L, L), got shape {a.shape}")
    diag = np.diagonal(a, axis1=-2, axis2=-1)  # (..., L)
    nan = np.full(a.shape[:-2], np.nan)
    return {
        "previous": np.diagonal(a, offset=-1, axis1=-2, axis2=-1).mean(axis=-1) if length > 1 else nan,
        "next": np.diagonal(a, offset=1, axis1=-2, axis2=-1).mean(axis=-1) if length > 1 else nan,
        "cls": a[..., :, 0].mean(axis=-1),
        "sep": a[..., :, -1].mean(axis=-1),
        "self": diag.mean(axis=-1),
    }


def best_heads(scores: dict[str, np.ndarray]) -> dict[str, tuple[int, int, float]]:
    """For scores of shape (layers, heads): the (layer, head, score) that shows each pattern most."""
    out = {}
    for name, s in scores.items():
        if np.isnan(s).all():
            continue
        layer, head = np.unravel_index(int(np.nanargmax(s)), s.shape)
        out[name] = (int(layer), int(head), float(s[layer, head]))
    return out
