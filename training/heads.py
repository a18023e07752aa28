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

from mha_core import AttentionTrace, apply_rope, share_kv
from mha_core.attention import split_heads

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
class Composition:
    """How a later layer's induction scores depend on one earlier head (Olsson et al. 2022's K- and Q-composition):
    the scores of every head of `reader` (h,) as the model computes them, with the `writer` head's contribution to the
    residual stream taken out of the input of the reader's keys only, and of its queries only. A reader whose score
    falls when the writer is taken out of its keys reads, through its keys, what the writer wrote."""

    writer: tuple[int, int]  # (layer, head), 0-based
    reader: int  # layer, 0-based
    before: np.ndarray
    keys_without: np.ndarray
    queries_without: np.ndarray


@dataclass(frozen=True)
class HeadReport:
    """Both measures for every head, trained and untrained, (n_layers, h) each, and the uniform reference values;
    `composition`: the induction heads' dependence on the previous-token head (None if either is missing)."""

    trained: dict[str, np.ndarray]
    untrained: dict[str, np.ndarray]
    uniform: dict[str, float]
    induction_n: int  # tokens in the random run that is read twice
    composition: Composition | None = None

    def labels(self) -> tuple[HeadLabel, ...]:
        """The heads that pass a measure (LABEL_AT, and RATIO_OVER_UNTRAINED x the untrained model's best head)."""
        out = []
        for measure in MEASURES:
            best = float(self.untrained[measure].max())
            for (layer, head), score in np.ndenumerate(self.trained[measure]):
                if score >= LABEL_AT and score >= RATIO_OVER_UNTRAINED * best:
                    out.append(HeadLabel(layer, head, measure, float(score), best))
        return tuple(out)


def _reader_weights(model: nn.Module, tokens: Tensor, writer: tuple[int, int], reader: int, without: str) -> Tensor:
    """(B, h, L, L): layer `reader`'s weights with head `writer`'s contribution head_i W^O_i taken out of the
    stream that feeds its queries ("q"), its keys ("k") or neither (""). The decoder's own block, written out: an
    attention-only stack x + MHA(LN(x)) with RoPE and shared K/V heads (TinyDecoder with d_ff = 0)."""
    assert not model.config.d_ff, "the stream is a plain sum only without MLPs"
    w_layer, w_head = writer
    with torch.no_grad():
        x = model.embed(tokens)  # (B, L, d_model)
        removed = torch.zeros_like(x)
        for i in range(reader):
            trace = model.attention[i](model.norms[i](x), causal=True)
            if i == w_layer:  # what the writer head adds: head_i W^O_i
                removed = trace.head_outputs[:, w_head] @ model.attention[i].w_o_heads[w_head]  # (B, L, d_model)
            x = x + trace.output
        layer = model.attention[reader]
        c = layer.config
        w_q, w_k, _ = layer.w_q, layer.w_k, layer.w_v
        b_q, b_k, _ = layer.qkv_biases()
        x_q = model.norms[reader](x - removed if without == "q" else x)
        x_k = model.norms[reader](x - removed if without == "k" else x)
        pos = torch.arange(tokens.shape[1])
        q = split_heads(x_q @ w_q + (0 if b_q is None else b_q), c.n_heads)  # (B, h, L, d_k)
        k = split_heads(x_k @ w_k + (0 if b_k is None else b_k), c.kv_heads)  # (B, g, L, d_k)
        if c.rope:
            q, k = apply_rope(q, pos, c.rope_base), apply_rope(k, pos, c.rope_base)
        scores = q @ share_kv(k, c.n_heads).transpose(-2, -1) / c.d_k**0.5  # (B, h, L, L)
        future = torch.ones(len(pos), len(pos), dtype=torch.bool).triu(1)
        return scores.masked_fill(future, float("-inf")).softmax(-1)


def composition(model: nn.Module, tokens: Tensor, writer: tuple[int, int], reader: int) -> Composition:
    """Induction scores of layer `reader`'s heads on `tokens` (B, 2n, a run read twice), as computed and with the
    writer head taken out of their keys, then of their queries."""
    n = tokens.shape[1] // 2
    queries = torch.arange(n, 2 * n)

    def score(without: str) -> np.ndarray:
        w = _reader_weights(model, tokens, writer, reader, without)
        return w[..., queries, queries - n + 1].mean(dim=(0, 2)).numpy()  # (h,)

    return Composition(writer, reader, score(""), score("k"), score("q"))


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
    report = HeadReport(scores["trained"], scores["untrained"], uniform, n)
    labels = report.labels()
    previous = [lab for lab in labels if lab.measure == "previous"]
    later = [lab for lab in labels if lab.measure == "induction" and previous and lab.layer > previous[0].layer]
    if not later or getattr(trained.config, "d_ff", 1):
        return report
    writer = max(previous, key=lambda lab: lab.score)
    found = composition(trained, repeated, (writer.layer, writer.head), later[0].layer)
    return HeadReport(report.trained, report.untrained, uniform, n, found)
