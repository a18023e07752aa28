"""Which heads of a trained decoder have a job: two measures, each beside the same measure on the untrained model.

previous-token score of a head: the mean weight a query puts on the token just before it (query i on key i - 1),
    over held-out text (queries 1..L-1). A head that only looks back one token scores 1.
induction score of a head: on a random sequence of n distinct tokens fed twice in a row, the mean weight a query in
    the second copy (position n + j) puts on the token that followed its earlier occurrence (position j + 1).
    A head that finds "the last time this token came, and what came next" scores 1.
A head is labelled when its score is at least LABEL_AT and at least RATIO_OVER_UNTRAINED times the largest score of
any head of the untrained model (same architecture and seed, before training): the baseline a label must beat.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
from torch import Tensor, nn

from mha_core import AttentionTrace

LABEL_AT = 0.3
RATIO_OVER_UNTRAINED = 3.0
MEASURES = ("previous", "induction")


def _weights(model: nn.Module, tokens: Tensor) -> Tensor:
    """(n_layers, B, h, L, L): every head's weights on a batch of sequences (B, L)."""
    with torch.no_grad():
        traces: tuple[AttentionTrace, ...] = model(tokens).traces
    return torch.stack([t.weights for t in traces])


def previous_token_score(model: nn.Module, tokens: Tensor) -> np.ndarray:
    """(n_layers, h): mean weight of query i on key i - 1, over the batch (B, L) and every query i >= 1."""
    w = _weights(model, tokens)  # (n_layers, B, h, L, L)
    return w.diagonal(offset=-1, dim1=-2, dim2=-1).mean(dim=(1, 3)).numpy()  # diagonal (n_layers, B, h, L - 1)


def repeated_random(n_seqs: int, n: int, vocab_size: int, generator: torch.Generator) -> Tensor:
    """(n_seqs, 2n) int64: n distinct tokens drawn from ids 1..vocab_size-1 (never UNK, id 0), then the same again."""
    first = torch.stack([torch.randperm(vocab_size - 1, generator=generator)[:n] + 1 for _ in range(n_seqs)])
    return torch.cat([first, first], dim=1)  # (n_seqs, 2n)


def induction_score(model: nn.Module, tokens: Tensor) -> np.ndarray:
    """(n_layers, h): on sequences (B, 2n) made of a half repeated, the mean weight of query n + j on key j + 1."""
    n = tokens.shape[1] // 2
    w = _weights(model, tokens)  # (n_layers, B, h, 2n, 2n)
    queries = torch.arange(n, 2 * n)  # the second copy
    return w[..., queries, queries - n + 1].mean(dim=(1, 3)).numpy()  # (n_layers, B, h, n) -> (n_layers, h)


def uniform_previous(length: int) -> float:
    """The previous-token score of a head that spreads its weight evenly over the keys it may see."""
    return float(np.mean([1 / (i + 1) for i in range(1, length)]))


def uniform_induction(n: int) -> float:
    """The induction score of a head that spreads its weight evenly (query n + j sees n + j + 1 keys)."""
    return float(np.mean([1 / (n + j + 1) for j in range(n)]))


@dataclass(frozen=True)
class HeadLabel:
    """One labelled head: layer and head counted from 0, the measure, its score and the untrained model's best."""

    layer: int
    head: int
    measure: str  # "previous" or "induction"
    score: float
    untrained_best: float


@dataclass(frozen=True)
class HeadReport:
    """Both measures for every head, trained and untrained, (n_layers, h) each, and the uniform reference values."""

    trained: dict[str, np.ndarray]
    untrained: dict[str, np.ndarray]
    uniform: dict[str, float]
    induction_n: int  # tokens in the random run that is read twice

    def labels(self) -> tuple[HeadLabel, ...]:
        """The heads that pass a measure (LABEL_AT, and RATIO_OVER_UNTRAINED x the untrained model's best head)."""
        out = []
        for measure in MEASURES:
            best = float(self.untrained[measure].max())
            for (layer, head), score in np.ndenumerate(self.trained[measure]):
                if score >= LABEL_AT and score >= RATIO_OVER_UNTRAINED * best:
                    out.append(HeadLabel(layer, head, measure, float(score), best))
        return tuple(out)


def measure_heads(
    trained: nn.Module, untrained: nn.Module, text: Tensor, vocab_size: int, n: int = 24, seed: int = 0
) -> HeadReport:
    """Both measures on both models: `text` (B, L) held-out windows; induction on 32 random sequences of n tokens
    twice (drawn from `seed`)."""
    repeated = repeated_random(32, n, vocab_size, torch.Generator().manual_seed(seed))  # (32, 2n)
    scores = {
        name: {"previous": previous_token_score(m, text), "induction": induction_score(m, repeated)}
        for name, m in (("trained", trained), ("untrained", untrained))
    }
    uniform = {"previous": uniform_previous(text.shape[1]), "induction": uniform_induction(n)}
    return HeadReport(scores["trained"], scores["untrained"], uniform, n)
