"""Attention sizes of well-known models (note 004's h vs d_k trade-off), from their papers and model cards.

Only the published sizes are data; d_k and the parameter count of one attention layer are computed.
"""

from __future__ import annotations

from dataclasses import dataclass

from mha_core import parameter_count


@dataclass(frozen=True)
class ModelSize:
    name: str
    d_model: int
    n_heads: int
    layers: int


REAL_MODELS: tuple[ModelSize, ...] = (
    ModelSize("Transformer base (2017)", 512, 8, 6),  # Vaswani et al., Table 3
    ModelSize("Transformer big (2017)", 1024, 16, 6),
    ModelSize("BERT-base (2018)", 768, 12, 12),  # Devlin et al.
    ModelSize("BERT-large (2018)", 1024, 16, 24),
    ModelSize("all-MiniLM-L6-v2", 384, 12, 6),  # the model on the "real model" page
    ModelSize("GPT-3 175B (2020)", 12288, 96, 96),  # Brown et al., Table 2.1
)


def model_rows(models: tuple[ModelSize, ...] = REAL_MODELS) -> list[tuple[str, int, int, int, int, int]]:
    """(name, d_model, h, d_k, layers, parameters of one attention layer with biases) per model."""
    return [
        (m.name, m.d_model, m.n_heads, m.d_model // m.n_heads, m.layers, parameter_count(m.d_model, m.n_heads).total)
        for m in models
    ]
