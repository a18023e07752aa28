"""Configuration of one multi-head attention layer."""

from __future__ import annotations

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
    """Sizes and switches of one layer: d_k = d_v = d_model / n_heads."""

    d_model: int = 64
    n_heads: int = 8
    bias: bool = True
    scale: bool = True
    seed: int = 0

    def __post_init__(self) -> None:
        validate_sizes(self.d_model, self.n_heads)
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise AttentionError(
                "bad_seed", f"seed must be a whole number >= 0, got {self.seed!r}", value=self.seed
            )

    @property
    def d_k(self) -> int:
        """Width of one head's query/key/value (= d_v)."""
        return self.d_model // self.n_heads
