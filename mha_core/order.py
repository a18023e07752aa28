"""Does attention see the order of the tokens? Swap two tokens and compare, three ways (note 003's reason for
positional encoding): without positions the layer is permutation-equivariant (the two output rows trade places,
nothing else changes); with positions added, or with a causal mask, it is not."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
from torch import Tensor

from .attention import MultiHeadAttention
from .errors import AttentionError

CASES = ("plain", "pe", "causal")  # no positions and no mask; X + P; a causal mask without positions


@dataclass(frozen=True)
class SwapEffects:
    """Tokens a and b swapped. change[c, i]: max |Y'[pi(i)] - Y[i]| for case c of CASES, where Y is the output of
    the original order and Y' of the swapped one, pi(i) the new place of the token that was at i. 0 means the
    token's output row is the same wherever it stands; scale: max |Y| over the three cases."""

    a: int
    b: int
    change: np.ndarray  # (3, L)
    scale: float


def swap_effects(mha: MultiHeadAttention, x: Tensor, p: Tensor, a: int, b: int) -> SwapEffects:
    """x (L, d_model) token embeddings, p (L, d_model) positional encoding; a != b positions."""
    length = x.shape[0]
    if not (0 <= a < length and 0 <= b < length) or a == b:
        raise AttentionError("bad_input", f"a and b must be two different positions below {length}, got {a}, {b}")
    perm = list(range(length))
    perm[a], perm[b] = b, a  # pi: token at i moves to perm[i] (a swap is its own inverse)
    swapped = x[perm]  # (L, d_model): row i holds the token that was at perm[i]
    rows, scale = [], 0.0
    with torch.no_grad():
        for case in CASES:
            pos = p if case == "pe" else torch.zeros_like(p)
            causal = case == "causal"
            y = mha(x + pos, causal=causal).output  # (L, d_model)
            y_swapped = mha(swapped + pos, causal=causal).output
            rows.append((y_swapped[perm] - y).abs().amax(dim=-1).double().numpy())
            scale = max(scale, float(y.abs().max()))
    return SwapEffects(a, b, np.stack(rows), scale)
