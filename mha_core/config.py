"""Configuration of one multi-head attention layer."""

from __future__ import annotations

import math
from dataclasses import dataclass

from .errors import AttentionError


def nearest_valid_heads(d_model: int, n_heads: int) -> tuple[int, ...]:
    """The divisors of d_model closest to n_heads (one below and/or one above), smallest first."""
    divisors = [h for h in range(1, d_model + 1) if d_model % h == 0]
    below = [h for h in divisors if h < n_heads]
    above = [h for h in divisors if h > n_heads]
    out = ([below[-1]] if below else []) + ([above[0]] if above else [])
    return tuple(out)


def nearest_valid_d_model(d_model: int, n_heads: int) -> tuple[int, ...]:
    """The multiples of n_heads closest to d_model (one below and/or one above), smallest first.

    Like nearest_valid_heads, d_model itself is never suggested (a multiple gets its two neighbours).
    """
    below = ((d_model - 1) // n_heads) * n_heads  # largest multiple < d_model
    above = (d_model // n_heads + 1) * n_heads  # smallest multiple > d_model
    return tuple(m for m in (below, above) if m > 0)


def validate_sizes(d_model: int, n_heads: int) -> None:
    """Raise AttentionError unless both sizes are positive integers and n_heads divides d_model."""
    for name, value in (("d_model", d_model), ("n_heads", n_heads)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise AttentionError(
                "not_integer", f"{name} must be a whole number, got {value!r}", name=name, value=value
            )
        if value <= 0:
            raise AttentionError(
                "not_positive", f"{name} must be at least 1, got {value}", name=name, value=value
            )
    if d_model % n_heads:
        heads = nearest_valid_heads(d_model, n_heads)
        models = nearest_valid_d_model(d_model, n_heads)
        raise AttentionError(
            "not_divisible",
            f"d_model={d_model} is not divisible by n_heads={n_heads}: d_k = d_model / h must be a "
            f"whole number. Try n_heads in {list(heads)} or d_model in {list(models)}.",
            d_model=d_model,
            n_heads=n_heads,
            valid_heads=heads,
            valid_d_model=models,
        )


@dataclass(frozen=True)
class AttentionConfig:
    """Sizes and switches of one layer: d_k = d_v = d_model / n_heads.

    The options of today's language models, all off by default (then the layer is the 2017 one of the notes):
    n_kv_heads  g heads of K and V shared by the h query heads, h / g each (g = h: multi-head, the default;
                g = 1: multi-query; 1 < g < h: grouped-query attention); g must divide h
    rope        rotary position embedding on Q and K (Llama's rotate-halves form), wavelengths from rope_base;
                needs an even d_k
    alibi       ALiBi: a linear penalty -m_a (i - j) added to head a's scores, the paper's slopes m_a
    """

    d_model: int = 64
    n_heads: int = 8
    bias: bool = True
    scale: bool = True
    seed: int = 0
    n_kv_heads: int | None = None
    rope: bool = False
    rope_base: float = 10000.0
    alibi: bool = False

    def __post_init__(self) -> None:
        validate_sizes(self.d_model, self.n_heads)
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise AttentionError(
                "bad_seed", f"seed must be a whole number >= 0, got {self.seed!r}", value=self.seed
            )
        g = self.n_kv_heads
        if g is not None and (isinstance(g, bool) or not isinstance(g, int) or g < 1 or self.n_heads % g):
            valid = [d for d in range(1, self.n_heads + 1) if self.n_heads % d == 0]
            raise AttentionError(
                "bad_kv_heads",
                f"n_kv_heads must be a whole number that divides n_heads={self.n_heads} (each K/V head is "
                f"shared by the same number of query heads), got {g!r}. Try one of {valid}.",
                value=g,
                n_heads=self.n_heads,
                valid=tuple(valid),
            )
        for name in ("rope", "alibi"):
            if not isinstance(getattr(self, name), bool):
                raise AttentionError("bad_option", f"{name} must be True or False", name=name)
        if self.rope and self.alibi:
            raise AttentionError("bad_option", "choose rope or alibi, not both: each puts positions into the scores")
        if self.rope and self.d_k % 2:
            raise AttentionError(
                "odd_d_k", f"rope rotates pairs of coordinates: d_k = {self.d_k} must be even", d_k=self.d_k
            )
        base = self.rope_base
        if isinstance(base, bool) or not (isinstance(base, (int, float)) and math.isfinite(base) and base > 1):
            raise AttentionError("bad_base", f"rope_base must be a finite number > 1, got {base!r}", value=base)

    @property
    def d_k(self) -> int:
        """Width of one head's query/key/value (= d_v)."""
        return self.d_model // self.n_heads

    @property
    def kv_heads(self) -> int:
        """g, the number of K/V heads: n_kv_heads, or n_heads when it is not set."""
        return self.n_heads if self.n_kv_heads is None else self.n_kv_heads
