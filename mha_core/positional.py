"""Sinusoidal positional encoding (note 003, Vaswani et al. 2017)."""

from __future__ import annotations

import math

import torch
from torch import Tensor

from .errors import AttentionError


def _check_arguments(base: float, **sizes: int) -> None:
    for name, value in sizes.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise AttentionError("not_positive", f"{name} must be a whole number >= 1, got {value!r}", name=name)
    if isinstance(base, bool) or not (isinstance(base, (int, float)) and math.isfinite(base) and base > 1):
        raise AttentionError("bad_base", f"base must be a finite number > 1, got {base!r}", value=base)


def sinusoidal_positional_encoding(length: int, d_model: int, base: float = 10000.0,
                                   dtype: torch.dtype | None = None) -> Tensor:
    """P of shape (length, d_model): P[i, 2j] = sin(i / base^(2j/d)), P[i, 2j+1] = cos(i / base^(2j/d)).

    An odd d_model works: the last column is a sine without its cosine partner. Computed in float64 and returned
    in `dtype` (default: torch's default dtype).
    """
    _check_arguments(base, length=length, d_model=d_model)
    positions = torch.arange(length, dtype=torch.float64).unsqueeze(1)  # (L, 1)
    two_j = torch.arange(0, d_model, 2, dtype=torch.float64)  # (ceil(d/2),)
    angles = positions / torch.pow(torch.tensor(float(base), dtype=torch.float64), two_j / d_model)
    p = torch.zeros(length, d_model, dtype=torch.float64)
    p[:, 0::2] = torch.sin(angles)
    p[:, 1::2] = torch.cos(angles[:, : d_model // 2])
    return p.to(dtype or torch.get_default_dtype())


def wavelengths(d_model: int, base: float = 10000.0) -> Tensor:
    """Wavelength 2*pi*base^(2j/d) of each dimension pair j (sin/cos columns 2j, 2j+1): (ceil(d/2),)."""
    _check_arguments(base, d_model=d_model)
    two_j = torch.arange(0, d_model, 2, dtype=torch.float64)
    return 2 * math.pi * torch.pow(torch.tensor(float(base), dtype=torch.float64), two_j / d_model)


def positional_similarity(p: Tensor) -> Tensor:
    """Dot products P P^T between the encodings of every pair of positions: (L, L).

    For an even d_model the dot product depends only on the offset i - j (sum_j cos(offset * w_j)),
    which is why it is largest on the diagonal and decays with distance. (An odd d_model adds the lone
    last sine column, whose product sin(i w) sin(j w) also depends on i + j.)
    """
    return p @ p.T


def shift_matrix(offset: int, d_model: int, base: float = 10000.0) -> Tensor:
    """M_k (d_model, d_model) with P[pos + k] = P[pos] M_k for every pos (Vaswani et al. 2017, section 3.5):
    for each pair (2j, 2j+1) the 2 x 2 rotation [[cos kw, -sin kw], [sin kw, cos kw]], w = 1 / base^(2j/d),
    since sin(a + b) = sin a cos b + cos a sin b and cos(a + b) = cos a cos b - sin a sin b. It depends on the
    offset k only, never on pos. An odd d_model's last column (a sine without its cosine) has no such rotation:
    its row and column are NaN."""
    _check_arguments(base, d_model=d_model)
    if isinstance(offset, bool) or not isinstance(offset, int):
        raise AttentionError("not_integer", f"offset must be a whole number, got {offset!r}", name="offset")
    m = torch.zeros(d_model, d_model, dtype=torch.float64)
    for j in range(d_model // 2):
        angle = offset / float(base) ** (2 * j / d_model)
        c, s = math.cos(angle), math.sin(angle)
        m[2 * j: 2 * j + 2, 2 * j: 2 * j + 2] = torch.tensor([[c, -s], [s, c]], dtype=torch.float64)
    if d_model % 2:
        m[-1, :] = float("nan")
        m[:, -1] = float("nan")
    return m


def similarity_by_offset(p: Tensor) -> tuple[float, int, int]:
    """How P P^T behaves along offsets, from P (L, d): (spread, rises, steps). spread: the largest difference
    between two entries with the same offset i - j (0 when the dot product depends on the distance alone, as
    it does for an even d_model); rises: how many of the steps along row 0 (position 0 against 1, 2, ..., L-1)
    go up, i.e. where a farther position is MORE similar than the one before it."""
    sim = (p @ p.T).to(torch.float64)
    length = sim.shape[0]
    spread = 0.0
    for k in range(-(length - 1), length):
        diag = torch.diagonal(sim, offset=k)
        if diag.numel() > 1:
            spread = max(spread, float(diag.max() - diag.min()))
    row = sim[0]
    rises = int((row[1:] > row[:-1]).sum()) if length > 1 else 0
    return spread, rises, max(length - 1, 0)
