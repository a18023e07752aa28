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


@dataclass(frozen=True)
class DecoderSize:
    """A decoder's published attention sizes: layers, h query heads, g K/V heads, d_k; context in tokens; the
    sliding window w of a model whose every layer attends to its last w keys only (None: full causal attention)."""

    name: str
    layers: int
    n_heads: int
    n_kv_heads: int
    d_k: int
    d_model: int
    context: int
    source: str
    window: int | None = None

    @property
    def cached_tokens(self) -> int:
        """Tokens whose keys and values one sequence keeps at full context: all of them, or with a sliding window
        only the last w (Mistral's rolling buffer cache of w slots)."""
        return self.context if self.window is None else min(self.context, self.window)


# Published sizes only (papers' tables and the models' config.json); every other number on the page is computed.
LLM_MODELS: tuple[DecoderSize, ...] = (
    DecoderSize("GPT-3 175B (2020)", 96, 96, 96, 128, 12288, 2048, "Brown et al. 2020, Table 2.1 (n_ctx 2048)"),
    DecoderSize("Llama-2-7B (2023)", 32, 32, 32, 128, 4096, 4096,
                "Touvron et al. 2023, Table 1; meta-llama/Llama-2-7b-hf config.json"),
    DecoderSize("Llama-2-70B (2023)", 80, 64, 8, 128, 8192, 4096,
                "Touvron et al. 2023, Table 1 (GQA) and §2.2; meta-llama/Llama-2-70b-hf config.json"),
    DecoderSize("Mistral-7B (2023)", 32, 32, 8, 128, 4096, 8192,
                "Jiang et al. 2023, Table 1 (context_len 8192, window_size 4096)", window=4096),
    DecoderSize("Qwen2-7B (2024)", 28, 28, 4, 128, 3584, 131072,
                "Yang et al. 2024 (Qwen2 report), Table 1; Qwen/Qwen2-7B config.json (max_position_embeddings)"),
    DecoderSize("Qwen2-72B (2024)", 80, 64, 8, 128, 8192, 131072,
                "Yang et al. 2024 (Qwen2 report), Table 1; Qwen/Qwen2-72B config.json (max_position_embeddings)"),
    DecoderSize("Gemma-2B (2024)", 18, 8, 1, 256, 2048, 8192,
                "Gemma Team 2024, Table 1 (multi-query); google/gemma-2b config.json"),
)  # fmt: skip
