"""Where the layer's input and weights come from when it is not one seeded sentence: the real model's layer
(all-MiniLM-L6-v2 through `pretrained/`), and the padding batch (the sidebar's sentence and a second one,
the shorter filled with [PAD] that the key padding mask hides). The pipeline calls `batch_inputs`."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
from torch import Tensor

from mha_core import MultiHeadAttention, embed_tokens, sinusoidal_positional_encoding, tokenize

from .settings import LIMITS, Settings

PAD = "[PAD]"
FLAT_RATIO = 3.5  # "flat": mean top weight of a row under 3.5 x uniform (random: 2.3-2.9; MiniLM layers: 4.7-8.6)


@dataclass(frozen=True, eq=False)
class BatchInputs:
    """B sentences padded to one length L. tokens: B rows of L; x (B, L, d) the embeddings (random) or the
    real layer's input; p (L, d) sinusoidal positions; x_in (B, L, d) what the attention reads;
    key_padding (B, L) True at [PAD] (None when nothing is padded); truncated: a sentence was cut."""

    tokens: tuple[tuple[str, ...], ...]
    x: Tensor
    p: Tensor
    x_in: Tensor
    key_padding: Tensor | None
    module: MultiHeadAttention | None  # the real layer's attention (None: the pipeline builds the random one)
    truncated: bool = False


def real_available() -> str | None:
    """None when the real model loads; else "missing", "altered" or "broken" (pretrained.loading.ModelUnavailable)."""
    try:
        from pretrained.loading import ModelUnavailable, load_model
    except ImportError:
        return "missing"
    try:
        load_model()
    except ModelUnavailable as exc:
        return exc.reason
    return None


def _texts(s: Settings) -> tuple[str, ...]:
    return (s.text, s.text_pad) if s.mask == "padding" else (s.text,)


def real_module(layer_attention: MultiHeadAttention, scale: bool) -> MultiHeadAttention:
    """The real layer's attention with the page's scale switch (the model itself divides by sqrt(d_k))."""
    if scale:
        return layer_attention
    a = layer_attention
    b_q, b_k, b_v = a.in_proj_bias.chunk(3)
    return MultiHeadAttention.from_weights(a.n_heads, a.w_q, a.w_k, a.w_v, a.w_o, b_q, b_k, b_v, a.out_proj_bias,
                                           scale=False)  # fmt: skip


def _real(s: Settings) -> BatchInputs:
    from pretrained.encoder import layer_input
    from pretrained.loading import load_model

    model = load_model()
    li = layer_input(model, _texts(s), s.layer, LIMITS.max_tokens)
    length, d = li.x.shape[1], li.x.shape[2]
    padding = li.key_padding_mask if bool(li.key_padding_mask.any()) else None
    return BatchInputs(
        tokens=li.tokens, x=li.x, p=sinusoidal_positional_encoding(length, d, s.pe_base), x_in=li.x,
        key_padding=padding, module=real_module(model.layers[s.layer - 1].attention, s.scale),
        truncated=any(n > LIMITS.max_tokens for n in li.n_wordpieces),
    )  # fmt: skip


def _random_batch(s: Settings, embedding_seed: int) -> BatchInputs:
    rows = [tokenize(text) for text in _texts(s)]
    length = max(len(r) for r in rows)
    tokens = tuple(tuple(r + [PAD] * (length - len(r))) for r in rows)
    x = torch.stack([embed_tokens(list(r), s.d_model, embedding_seed) for r in tokens])  # (B, L, d)
    p = sinusoidal_positional_encoding(length, s.d_model, s.pe_base)
    padding = torch.tensor([[j >= len(r) for j in range(length)] for r in rows])  # (B, L)
    return BatchInputs(tokens=tokens, x=x, p=p, x_in=x + p if s.add_pe else x,
                       key_padding=padding if bool(padding.any()) else None, module=None)  # fmt: skip


def batch_inputs(s: Settings, embedding_seed: int) -> BatchInputs:
    """The inputs of the real layer (B = 1, or 2 with padding), or the random padding batch (B = 2)."""
    return _real(s) if s.real else _random_batch(s, embedding_seed)


def flatness(weights: np.ndarray, mask: np.ndarray) -> tuple[float, float]:
    """(mean over heads and queries of a row's largest weight, the same for uniform weights over the visible
    keys). Close together: the maps are flat."""
    visible = (~np.asarray(mask)).sum(axis=-1)  # (h, Lq)
    rows = visible > 0
    if not rows.any():
        return 0.0, 0.0
    top = np.asarray(weights).max(axis=-1)[rows]
    return float(top.mean()), float((1.0 / visible[rows]).mean())


def is_flat(top: float, uniform: float) -> bool:
    """Whether `flatness`'s two numbers say the maps are flat."""
    return top > 0 and top < FLAT_RATIO * uniform





def real_tokens(text: str) -> list[str]:
    """The real tokenizer's wordpieces of `text` as the pages show them (cut to LIMITS.max_tokens, [SEP] kept,
    as pretrained.encoder.layer_input cuts them)."""
    from pretrained.loading import load_model

    _, tokens = load_model().tokenize(text)
    limit = LIMITS.max_tokens
    return tokens if len(tokens) <= limit else tokens[: limit - 1] + tokens[-1:]


__all__ = ["PAD", "BatchInputs", "batch_inputs", "flatness", "is_flat", "real_available", "real_module", "real_tokens"]
