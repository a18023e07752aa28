"""mha_core: multi-head attention with every intermediate exposed. Plain PyTorch, no UI.

Beyond the notes (today's decoders; a stable API, see docs/ARCHITECTURE.md "The core for today's LLMs"):
AttentionConfig(n_kv_heads=g, rope=True, rope_base=10000.0, alibi=True), forward(..., causal=True, window=w,
cache=KVCache(), start=s), MultiHeadAttention.from_llama, share_kv, apply_rope, rope_angles, alibi_slopes,
alibi_bias, tiled_attention / TiledAttention, mean_pool_kv, and the counts kv_cache_bytes, decode_step_flops,
window_reach, window_receptive_field, score_memory.
"""

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
    share_kv,
    split_heads,
    split_weight_columns,
)
from .cache import KVCache
from .config import AttentionConfig, nearest_valid_d_model, nearest_valid_heads, validate_sizes
from .errors import AttentionError
from .llm import (
    ScoreMemory,
    StepFlops,
    decode_step_flops,
    kv_cache_bytes,
    mean_pool_kv,
    score_memory,
    window_reach,
    window_receptive_field,
)
from .positional import (
    alibi_bias,
    alibi_slopes,
    apply_rope,
    positional_similarity,
    rope_angles,
    sinusoidal_positional_encoding,
    wavelengths,
)
from .text import embed_tokens, token_labels, tokenize
from .tiled import TiledAttention, tiled_attention

__all__ = [
    "AttentionConfig",
    "AttentionError",
    "AttentionTrace",
    "KVCache",
    "MultiHeadAttention",
    "ParameterCount",
    "ScoreMemory",
    "StepCost",
    "StepFlops",
    "TiledAttention",
    "alibi_bias",
    "alibi_slopes",
    "apply_rope",
    "causal_mask",
    "contribution_similarity",
    "decode_step_flops",
    "embed_tokens",
    "head_similarity",
    "kv_cache_bytes",
    "mean_pool_kv",
    "merge_heads",
    "merge_weight_columns",
    "nearest_valid_d_model",
    "nearest_valid_heads",
    "operation_counts",
    "parameter_count",
    "positional_similarity",
    "rope_angles",
    "score_memory",
    "score_rank",
    "share_kv",
    "sinusoidal_positional_encoding",
    "softmax_entropy",
    "split_heads",
    "split_weight_columns",
    "tiled_attention",
    "token_labels",
    "tokenize",
    "validate_sizes",
    "wavelengths",
    "window_reach",
    "window_receptive_field",
]
