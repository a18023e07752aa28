"""A tiny transformer built on mha_core.MultiHeadAttention, small enough to train on a CPU in seconds.

tokens -> embedding + sinusoidal positional encoding -> n_layers x [x + MHA(LN(x))] -> LN -> linear -> logits.
No MLP: every token-to-token move the model makes is an attention head, so the heads are what it learns.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import Tensor, nn

from mha_core import AttentionConfig, AttentionTrace, MultiHeadAttention, causal_mask, sinusoidal_positional_encoding


@dataclass(frozen=True)
class ModelConfig:
    vocab_size: int
    seq_len: int
    d_model: int = 32
    n_heads: int = 4
    n_layers: int = 1
    causal: bool = False
    see_self: bool = True
    seed: int = 0

    def attention_mask(self) -> Tensor:
        """(L, L) bool, True = may not attend: later keys when causal, the query's own key unless see_self."""
        length = self.seq_len
        blocked = torch.zeros(length, length, dtype=torch.bool)
        if self.causal:
            blocked |= torch.isneginf(causal_mask(length))  # key j > query i
        if not self.see_self:
            blocked |= torch.eye(length, dtype=torch.bool)
        return blocked


@dataclass(frozen=True)
class ModelOutput:
    """logits (B, L, vocab) and one AttentionTrace per layer (weights (B, h, L, L), head_outputs, ...)."""

    logits: Tensor
    traces: tuple[AttentionTrace, ...]

    @property
    def weights(self) -> Tensor:
        """(n_layers, B, h, L, L): every head's attention weights."""
        return torch.stack([t.weights for t in self.traces])


class TinyTransformer(nn.Module):
    def __init__(self, config: ModelConfig) -> None:
        super().__init__()
        self.config = config
        d = config.d_model
        with torch.random.fork_rng(devices=[]):  # seeded init that leaves the global RNG alone
            torch.manual_seed(config.seed)
            self.embed = nn.Embedding(config.vocab_size, d)
            self.norms = nn.ModuleList(nn.LayerNorm(d) for _ in range(config.n_layers))
            self.final_norm = nn.LayerNorm(d)
            self.unembed = nn.Linear(d, config.vocab_size)
        self.attention = nn.ModuleList(
            MultiHeadAttention(AttentionConfig(d_model=d, n_heads=config.n_heads, seed=config.seed * 16 + i))
            for i in range(config.n_layers)
        )
        self.register_buffer("pe", sinusoidal_positional_encoding(config.seq_len, d), persistent=False)
        self.register_buffer("mask", config.attention_mask(), persistent=False)

    def forward(self, tokens: Tensor) -> ModelOutput:
        """tokens (B, L) int64 -> ModelOutput."""
        L = tokens.shape[1]
        x = self.embed(tokens) + self.pe[:L]  # (B, L, d_model)
        traces = []
        for norm, mha in zip(self.norms, self.attention, strict=True):
            trace = mha(norm(x), attn_mask=self.mask[:L, :L])
            x = x + trace.output  # residual: each layer adds what its heads read
            traces.append(trace)
        return ModelOutput(self.unembed(self.final_norm(x)), tuple(traces))
