"""mha_core: multi-head attention with every intermediate exposed. Plain PyTorch, no UI."""

from .analysis import (
    ParameterCount,
    StepCost,
    contribution_similarity,
    head_similarity,
    operation_counts,
    parameter_count,
    score_rank,
    softmax_entropy,
)
from .attention import (
    AttentionTrace,
    MultiHeadAttention,
    causal_mask,
    merge_heads,
    merge_weight_columns,
    split_heads,
    split_weight_columns,
)
from .config import AttentionConfig, nearest_valid_d_model, nearest_valid_heads, validate_sizes
from .errors import AttentionError
from .positional import positional_similarity, sinusoidal_positional_encoding, wavelengths
from .text import embed_tokens, token_labels, tokenize

__all__ = [
    "AttentionConfig",
    "AttentionError",
    "AttentionTrace",
    "MultiHeadAttention",
    "ParameterCount",
    "StepCost",
    "causal_mask",
    "contribution_similarity",
    "embed_tokens",
    "head_similarity",
    "merge_heads",
    "merge_weight_columns",
    "nearest_valid_d_model",
    "nearest_valid_heads",
    "operation_counts",
    "parameter_count",
    "positional_similarity",
    "score_rank",
    "sinusoidal_positional_encoding",
    "softmax_entropy",
    "split_heads",
    "split_weight_columns",
    "token_labels",
    "tokenize",
    "validate_sizes",
    "wavelengths",
]
