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


def sinusoidal_positional_encoding(length: int, d_model: int, base: float = 10000.0) -> Tensor:
    """P of shape (length, d_model): P[i, 2j] = sin(i / base^(2j/d)), P[i, 2j+1] = cos(i / base^(2j/d)).

    An odd d_model works: the last column is a sine without its cosine partner.
    """
    _check_arguments(base, length=length, d_model=d_model)
    positions = torch.arange(length, dtype=torch.float64).unsqueeze(1)  # (L, 1)
    two_j = torch.arange(0, d_model, 2, dtype=torch.float64)  # (ceil(d/2),)
    angles = positions / torch.pow(torch.tensor(float(base), dtype=torch.float64), two_j / d_model)
    p = torch.zeros(length, d_model, dtype=torch.float64)
    p[:, 0::2] = torch.sin(angles)
    p[:, 1::2] = torch.cos(angles[:, : d_model // 2])
    return p.to(torch.get_default_dtype())


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
