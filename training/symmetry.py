"""Symmetry breaking, shown (note 004: heads start from different random points and drift apart). Give every
head of a layer the same initial weights, train, and the heads stay exactly the same: each receives the same
gradient at every step. Only a difference at the start (random initialisation) lets them specialise."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

import numpy as np
import torch

from .trainer import TrainConfig, Trainer


def tie_heads(model: torch.nn.Module) -> None:
    """Copy head 1's W_1^Q, W_1^K, W_1^V (columns, and biases) and W^O_1 (rows) into every other head, in place."""
    with torch.no_grad():
        for mha in model.attention:
            h, d = mha.n_heads, mha.config.d_model
            dk = d // h
            w = mha.in_proj_weight.view(d, 3, h, dk)  # [W^Q | W^K | W^V], each cut into h column blocks
            w.copy_(w[:, :, :1].clone().expand_as(w))
            if mha.in_proj_bias is not None:
                b = mha.in_proj_bias.view(3, h, dk)
                b.copy_(b[:, :1].clone().expand_as(b))
            wo = mha.out_proj_weight.view(h, dk, d)  # W^O cut into h row blocks W^O_i
            wo.copy_(wo[:1].clone().expand_as(wo))


def head_gap(model: torch.nn.Module) -> float:
    """The largest difference between head 1 and any other head, over W_i^Q, W_i^K, W_i^V, their biases and W^O_i."""
    gap = 0.0
    for mha in model.attention:
        h, d = mha.n_heads, mha.config.d_model
        dk = d // h
        parts = [mha.in_proj_weight.detach().view(d, 3, h, dk).transpose(0, 2),  # (h, 3, d, d_k)
                 mha.out_proj_weight.detach().view(h, dk, d)]  # fmt: skip
        if mha.in_proj_bias is not None:
            parts.append(mha.in_proj_bias.detach().view(3, h, dk).transpose(0, 1))
        for p in parts:
            gap = max(gap, float((p - p[:1]).abs().max()))
    return gap


@dataclass(frozen=True)
class SymmetryResult:
    """Two runs of the same training, one with tied initial heads. steps: where the gap was measured; gap_*: the
    largest difference between head 1 and the others at those steps; pattern_*: each head's final pattern score
    (n_layers, h); accuracy_*: final held-out accuracy."""

    steps: tuple[int, ...]
    gap_tied: tuple[float, ...]
    gap_random: tuple[float, ...]
    pattern_tied: np.ndarray
    pattern_random: np.ndarray
    accuracy_tied: float
    accuracy_random: float


def symmetry_breaking(config: TrainConfig, checkpoints: int = 6) -> SymmetryResult:
    """Train `config` twice, from its random initial heads and from tied ones (tie_heads), on the same batches."""
    runs = {}
    marks = sorted({round(config.steps * i / checkpoints) for i in range(checkpoints + 1)})
    for tied in (True, False):
        trainer = Trainer(config)
        if tied:
            tie_heads(trainer.model)
        gaps = [head_gap(trainer.model)]
        for a, b in pairwise(marks):
            trainer.run(b - a)
            gaps.append(head_gap(trainer.model))
        trainer.stop()  # evaluates at the last step
        runs[tied] = (tuple(gaps), trainer.history.pattern[-1], trainer.history.accuracy[-1])
    (gt, pt, at), (gr, pr, ar) = runs[True], runs[False]
    return SymmetryResult(tuple(marks), gt, gr, pt, pr, at, ar)
