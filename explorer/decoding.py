"""The decoder of the "Decoding step by step" page, and one run of it: a prompt fed one token at a time, then a few
tokens generated greedily, each step with a KV cache (mha_core.KVCache), with what the page draws for every step.

`load_decoder` returns anything with the `Decoder` interface below: the training lab's trained tiny decoder
(training/checkpoint.py: the committed checkpoint, its SHA-256 checked), or, if that file cannot be used, a seeded,
untrained `SeededDecoder` whose vocabulary is the prompt's own tokens (its guesses are arbitrary; its attention and
cache are real).
"""

from __future__ import annotations

import dataclasses
import logging
import math
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import torch
from torch import Tensor, nn

from budget import ByteLRU, array_bytes, memoize
from mha_core import (
    AttentionConfig,
    AttentionTrace,
    KVCache,
    MultiHeadAttention,
    decode_step_flops,
    embed_tokens,
    kv_cache_bytes,
    tokenize,
)
from training.checkpoint import CheckpointError, trained_decoder
from training.heads import HeadReport

MAX_PROMPT = 16  # tokens of the sentence fed as the prompt
MAX_NEW = 8  # tokens generated after it


class Decoder(Protocol):
    """What the decoding page needs from a decoder (a seeded one now, the trained checkpoint later)."""

    name: str  # shown on the page, e.g. "seeded, untrained" or the checkpoint's name
    trained: bool
    n_layers: int
    config: AttentionConfig  # every layer's attention: d_model, n_heads, n_kv_heads, rope

    def encode(self, text: str) -> list[int]:
        """The prompt's token ids."""
        ...

    def token_text(self, token_id: int) -> str:
        """The text of one token id."""
        ...

    def new_caches(self) -> list[KVCache]:
        """One empty KV cache per layer."""
        ...

    def step(self, token_id: int, caches: list[KVCache]) -> tuple[Tensor, tuple[AttentionTrace, ...]]:
        """Feed one token at position len(caches[0]); return the next token's logits (vocab,) and each layer's
        trace of this step (its q: the new query row; its k, v: the cache so far)."""
        ...


class SeededDecoder(nn.Module):
    """An untrained decoder: seeded embeddings (mha_core.embed_tokens) of the vocabulary, n_layers of
    x + MHA(LayerNorm(x)) with shared K/V heads and RoPE, and logits against seeded output embeddings."""

    name = "seeded"
    trained = False

    def __init__(self, vocab: tuple[str, ...], n_layers: int = 2, config: AttentionConfig | None = None) -> None:
        super().__init__()
        self.vocab = vocab
        self.n_layers = n_layers
        self.config = config or AttentionConfig(d_model=32, n_heads=4, n_kv_heads=2, rope=True, bias=False)
        d = self.config.d_model
        self.embedding = embed_tokens(list(vocab), d, 0) / math.sqrt(d) * 4  # (V, d): rows of norm about 4
        self.unembedding = embed_tokens(list(vocab), d, 1)  # (V, d): seeded too, so its guesses are arbitrary
        self.layers = nn.ModuleList(
            MultiHeadAttention(dataclasses.replace(self.config, seed=self.config.seed + i))
            for i in range(n_layers)
        )
        self.norms = nn.ModuleList(nn.LayerNorm(d, elementwise_affine=False) for _ in range(n_layers + 1))

    def encode(self, text: str) -> list[int]:
        return [self.vocab.index(tok) for tok in tokenize(text) if tok in self.vocab]

    def token_text(self, token_id: int) -> str:
        return self.vocab[token_id]

    def new_caches(self) -> list[KVCache]:
        return [KVCache() for _ in range(self.n_layers)]

    @torch.no_grad()
    def step(self, token_id: int, caches: list[KVCache]) -> tuple[Tensor, tuple[AttentionTrace, ...]]:
        x = self.embedding[token_id].view(1, -1)  # (1, d_model): the new token only
        traces = []
        for norm, layer, cache in zip(self.norms[:-1], self.layers, caches, strict=True):
            trace = layer(norm(x), causal=True, cache=cache)  # one query row against every cached key
            x = x + trace.output  # (1, d_model)
            traces.append(trace)
        logits = self.norms[-1](x)[0] @ self.unembedding.T  # (V,)
        return logits, tuple(traces)


def load_decoder(prompt: str) -> Decoder:
    """The trained tiny decoder (it ignores `prompt`); if its checkpoint cannot be used (missing, other bytes than
    the pinned ones, unreadable), a seeded decoder whose vocabulary is the prompt's first MAX_PROMPT tokens."""
    try:
        return trained_decoder()
    except CheckpointError as exc:
        logging.getLogger(__name__).warning("trained decoder refused, showing a seeded one: %s", exc)
    vocab = tuple(dict.fromkeys(tokenize(prompt)[:MAX_PROMPT]))
    return SeededDecoder(vocab)


@dataclass(frozen=True)
class DecodeStep:
    """One step: the token fed at `position` and what it computed."""

    position: int  # t, 0-based; the cache holds t + 1 tokens after the step
    token: str
    generated: bool  # the decoder's own guess of the step before (after the prompt)
    next_token: str  # the argmax of the logits: the guess for position t + 1
    weights: np.ndarray  # (n_layers, h, t + 1): the new query row of every head, over every key so far
    flops_cached: int  # matrix FLOPs of the step, all layers: with the cache
    flops_recompute: int  # the same token without a cache: the whole forward again over t + 1 tokens
    cache_bytes: int  # bytes the caches hold after the step (measured: KVCache.nbytes over the layers)


@dataclass(frozen=True)
class Decoding:
    """A prompt decoded one token at a time. keys, values: every layer's cache at the end (n_layers, g, T, d_k):
    the cache after step t is their first t + 1 rows, as appending never changes a stored row."""

    name: str
    trained: bool
    n_layers: int
    config: AttentionConfig
    tokens: tuple[str, ...]
    steps: tuple[DecodeStep, ...]
    keys: np.ndarray
    values: np.ndarray
    bytes_per_number: int
    heads: HeadReport | None = None  # a trained decoder's measured heads (training/heads.py)

    def weights_until(self, t: int, layer: int) -> np.ndarray:
        """(h, t + 1, t + 1): the rows of steps 0..t of one layer; NaN where the causal mask hid a key."""
        h = self.config.n_heads
        out = np.full((h, t + 1, t + 1), np.nan)
        for s in range(t + 1):
            out[:, s, : s + 1] = self.steps[s].weights[layer]
        return out

    def cache_formula(self, t: int) -> int:
        """2 x layers x g x d_k x L x bytes at L = t + 1 tokens (equal to the measured steps[t].cache_bytes)."""
        c = self.config
        return kv_cache_bytes(t + 1, c.kv_heads, c.d_k, self.n_layers, self.bytes_per_number)


DECODING_CACHE = ByteLRU("decoding", 8 << 20)


def _decoding_bytes(run: Decoding) -> int:
    return array_bytes((run.keys, run.values, *(s.weights for s in run.steps))) + 2000 * len(run.steps)


@memoize(DECODING_CACHE, _decoding_bytes)
def run_decoding(prompt: str, n_new: int) -> Decoding:
    """Feed the prompt's tokens one at a time (at most MAX_PROMPT), then generate n_new tokens greedily."""
    n_new = max(0, min(int(n_new), MAX_NEW))
    decoder = load_decoder(prompt)
    ids = decoder.encode(prompt)[:MAX_PROMPT]
    caches, steps, fed = decoder.new_caches(), [], list(ids)
    c = decoder.config
    t = 0
    while t < len(fed) and t < len(ids) + n_new:
        logits, traces = decoder.step(fed[t], caches)
        guess = int(torch.argmax(logits))
        if t + 1 == len(fed) and t + 1 < len(ids) + n_new:
            fed.append(guess)  # after the prompt: the guess is fed back in
        flops = [decode_step_flops(t + 1, c.d_model, c.n_heads, c.kv_heads, cached=k) for k in (True, False)]
        steps.append(DecodeStep(
            t, decoder.token_text(fed[t]), t >= len(ids), decoder.token_text(guess),
            np.stack([tr.weights[:, 0].numpy() for tr in traces]),  # (n_layers, h, t + 1)
            decoder.n_layers * flops[0].total, decoder.n_layers * flops[1].total, sum(ca.nbytes for ca in caches),
        ))  # fmt: skip
        t += 1
    keys = np.stack([ca.k[0].numpy() for ca in caches]) if steps else np.zeros((0,))
    values = np.stack([ca.v[0].numpy() for ca in caches]) if steps else np.zeros((0,))
    itemsize = caches[0].k.element_size() if steps else 4
    return Decoding(decoder.name, decoder.trained, decoder.n_layers, c, tuple(s.token for s in steps), tuple(steps),
                    keys, values, itemsize, getattr(decoder, "heads", None))  # fmt: skip
