"""A tiny language-model decoder built on mha_core.MultiHeadAttention: the lab's model, made causal and fed text.

tokens -> embedding -> n_layers x [x + MHA(LN(x), causal) (+ MLP(LN(x)) when d_ff > 0)] -> LN -> linear -> logits.
Positions go into the scores with RoPE (as in Llama), or are added to the input as the notes' sinusoids when
rope=False; the K/V heads may be shared (grouped-query attention, n_kv_heads). The attention of every layer is the
core's own forward, so every head's weights are an AttentionTrace the pages can draw.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import Tensor, nn

from mha_core import AttentionConfig, AttentionTrace, KVCache, MultiHeadAttention, sinusoidal_positional_encoding

from .model import ModelOutput


@dataclass(frozen=True)
class DecoderConfig:
    """Sizes and switches of the decoder; plain values, so a checkpoint stores it as JSON."""

    vocab_size: int
    d_model: int = 64
    n_heads: int = 4
    n_kv_heads: int | None = None  # g K/V heads shared by h / g query heads each (None: g = h)
    n_layers: int = 2
    rope: bool = True  # RoPE in the scores; False: sinusoidal positions added to the input
    bias: bool = False  # biases on Q, K, V and the output (Qwen2 has them on Q, K, V; Llama has none)
    d_ff: int = 0  # width of each layer's MLP; 0: attention only, every token-to-token move is a head
    max_len: int = 128  # the longest sequence (sinusoidal positions are tabulated up to it)
    qk_bias_init: float = 0.0  # std of the initial b^Q and b^K (needs bias); 0: zeros, as torch
    seed: int = 0

    def attention(self, layer: int) -> AttentionConfig:
        """The core's config of one layer (seeded per layer)."""
        return AttentionConfig(
            d_model=self.d_model, n_heads=self.n_heads, n_kv_heads=self.n_kv_heads, rope=self.rope, bias=self.bias,
            seed=self.seed * 16 + layer,
        )  # fmt: skip


class TinyDecoder(nn.Module):
    """The decoder; `forward` reads whole sequences (training), `step` one token with a KV cache (the page)."""

    def __init__(self, config: DecoderConfig) -> None:
        super().__init__()
        self.config = config
        d, n = config.d_model, config.n_layers
        with torch.random.fork_rng(devices=[]):  # seeded init that leaves the global RNG alone
            torch.manual_seed(config.seed)
            self.embed = nn.Embedding(config.vocab_size, d)
            self.norms = nn.ModuleList(nn.LayerNorm(d) for _ in range(n))
            self.mlp_norms = nn.ModuleList(nn.LayerNorm(d) for _ in range(n if config.d_ff else 0))
            self.mlps = nn.ModuleList(
                nn.Sequential(nn.Linear(d, config.d_ff), nn.GELU(), nn.Linear(config.d_ff, d))
                for _ in range(n if config.d_ff else 0)
            )
            self.final_norm = nn.LayerNorm(d)
            self.unembed = nn.Linear(d, config.vocab_size)
        self.attention = nn.ModuleList(MultiHeadAttention(config.attention(i)) for i in range(n))
        if config.bias and config.qk_bias_init:  # b^Q and b^K both zero: RoPE's positional scores start at a saddle
            g = torch.Generator().manual_seed(config.seed)
            for attention in self.attention:
                b_q, b_k, _ = attention.qkv_biases()  # views of the layer's [b^Q | b^K | b^V]
                with torch.no_grad():
                    for b in (b_q, b_k):
                        b.normal_(0.0, config.qk_bias_init, generator=g)
        pe = torch.zeros(0, d) if config.rope else sinusoidal_positional_encoding(config.max_len, d)
        self.register_buffer("pe", pe, persistent=False)  # (max_len, d_model), or empty: RoPE is in the scores

    def _block(self, i: int, x: Tensor, **attend: object) -> tuple[Tensor, AttentionTrace]:
        trace = self.attention[i](self.norms[i](x), causal=True, **attend)
        x = x + trace.output  # (B, L, d_model): the residual stream gains what the heads read
        if self.config.d_ff:
            x = x + self.mlps[i](self.mlp_norms[i](x))  # (B, L, d_model)
        return x, trace

    def hidden(self, tokens: Tensor) -> tuple[Tensor, tuple[AttentionTrace, ...]]:
        """tokens (B, L) int64, L <= max_len -> the last layer's normed stream (B, L, d_model) and one trace per
        layer: the logits before the output embedding (training unembeds only the positions it has targets for)."""
        x = self.embed(tokens)  # (B, L, d_model)
        if not self.config.rope:
            x = x + self.pe[: tokens.shape[1]]  # the notes' sinusoidal positions
        traces = []
        for i in range(self.config.n_layers):
            x, trace = self._block(i, x)
            traces.append(trace)
        return self.final_norm(x), tuple(traces)

    def forward(self, tokens: Tensor) -> ModelOutput:
        """tokens (B, L) int64, L <= max_len -> logits (B, L, vocab) and one trace per layer."""
        x, traces = self.hidden(tokens)  # (B, L, d_model)
        return ModelOutput(self.unembed(x), traces)

    def new_caches(self) -> list[KVCache]:
        """One empty KV cache per layer."""
        return [KVCache() for _ in range(self.config.n_layers)]

    @torch.no_grad()
    def step(self, token_id: int, caches: list[KVCache]) -> tuple[Tensor, tuple[AttentionTrace, ...]]:
        """Feed one token at position len(caches[0]): the next token's logits (vocab,) and each layer's trace of
        this step, unbatched (q (h, 1, d_k): the new query row; weights (h, 1, t + 1); k, v: the cache so far)."""
        x = self.embed.weight[token_id].view(1, -1)  # (1, d_model): the new token only, unbatched
        if not self.config.rope:
            x = x + self.pe[len(caches[0])]  # its position t = the tokens already cached
        traces = []
        for i, cache in enumerate(caches):
            x, trace = self._block(i, x, cache=cache)
            traces.append(trace)
        return self.unembed(self.final_norm(x))[0], tuple(traces)
