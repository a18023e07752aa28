"""The KV cache of a decoder: the keys and values of every token so far, one cache per attention layer.

A decoder generates one token at a time, and token t attends to tokens 0..t. Their keys and values do not
change when a later token arrives (causal attention: an earlier row never sees a later one), so they are kept
instead of being computed again: each step projects only the new token and appends its K and V rows.

    cache = KVCache()
    for x_t in tokens:                      # x_t (1, d_model)
        trace = mha(x_t, causal=True, cache=cache)   # trace.q: the new query row; trace.k: every key so far
"""

from __future__ import annotations

import torch
from torch import Tensor

from .errors import AttentionError


class KVCache:
    """K and V of the tokens seen so far by one layer: k, v (B, g, L, d_k), after RoPE when the layer uses it.

    Empty at first (k, v None, length 0); MultiHeadAttention.forward(..., cache=cache) appends the new tokens'
    rows with `append` and attends over all of them. Rows already stored are never changed.
    """

    def __init__(self) -> None:
        self.k: Tensor | None = None
        self.v: Tensor | None = None

    def __len__(self) -> int:
        return 0 if self.k is None else self.k.shape[-2]

    @property
    def length(self) -> int:
        """L, the number of tokens whose K and V rows are kept."""
        return len(self)

    @property
    def nbytes(self) -> int:
        """Bytes the cache holds: 2 (K and V) x B x g x L x d_k x bytes per number."""
        return 0 if self.k is None or self.v is None else self.k.nbytes + self.v.nbytes

    def check(self, batch: int, n_kv_heads: int, d_k: int, dtype: torch.dtype) -> None:
        """Raise AttentionError unless this cache was filled by a layer of the same shapes, dtype and batch size."""
        if self.k is None:
            return
        if (self.k.shape[0], self.k.shape[1], self.k.shape[-1]) != (batch, n_kv_heads, d_k) or self.k.dtype != dtype:
            raise AttentionError(
                "bad_cache",
                f"this cache holds K and V of shape (B, g, L, d_k) = {tuple(self.k.shape)}, but the layer makes "
                f"B={batch}, g={n_kv_heads}, d_k={d_k} ({dtype}): use one cache per layer and per batch",
                shape=tuple(self.k.shape),
            )

    def append(self, k_new: Tensor, v_new: Tensor) -> tuple[Tensor, Tensor]:
        """Append the new tokens' rows (B, g, L_new, d_k) and return every row so far, each (B, g, L, d_k)."""
        self.check(k_new.shape[0], k_new.shape[1], k_new.shape[-1], k_new.dtype)
        self.k = k_new if self.k is None else torch.cat((self.k, k_new), dim=-2)  # (B, g, L + L_new, d_k)
        self.v = v_new if self.v is None else torch.cat((self.v, v_new), dim=-2)  # (B, g, L + L_new, d_k)
        return self.k, self.v
