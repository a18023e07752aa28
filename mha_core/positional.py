"""Sinusoidal positional encoding (note 003, Vaswani et al. 2017)."""

from __future__ import annotations

import math

import torch
from torch import Tensor

from .errors import AttentionError


def _check_arguments(base: float, **sizes: int) -> None:
    for name, value in sizes.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise AttentionError("not_positive", f"{name} must be a whole number >= 1, got {value!r}", name=name)
    if isinstance(base, bool) or not (isinstance(base, (int, float)) and math.isfinite(base) and base > 1):
        raise AttentionError("bad_base", f"base must be a finite number > 1, got {base!r}", value=base)


def sinusoidal_positional_encoding(length: int, d_model: int, base: float = 10000.0,
                                   dtype: torch.dtype | None = None) -> Tensor:
    """P of shape (length, d_model): P[i, 2j] = sin(i / base^(2j/d)), P[i, 2j+1] = cos(i / base^(2j/d)).

    An odd d_model works: the last column is a sine without its cosine partner. Computed in float64 and returned
    in `dtype` (default: torch's default dtype).
    """
    _check_arguments(base, length=length, d_model=d_model)
    positions = torch.arange(length, dtype=torch.float64).unsqueeze(1)  # (L, 1)
    two_j = torch.arange(0, d_model, 2, dtype=torch.float64)  # (ceil(d/2),)
    angles = positions / torch.pow(torch.tensor(float(base), dtype=torch.float64), two_j / d_model)
    p = torch.zeros(length, d_model, dtype=torch.float64)
    p[:, 0::2] = torch.sin(angles)
    p[:, 1::2] = torch.cos(angles[:, : d_model // 2])
    return p.to(dtype or torch.get_default_dtype())


def wavelengths(d_model: int, base: float = 10000.0) -> Tensor:
    """Wavelength 2*pi*base^(2j/d) of each dimension pair j (sin/cos columns 2j, 2j+1): (ceil(d/2),)."""
    _check_arguments(base, d_model=d_model)
    two_j = torch.arange(0, d_model, 2, dtype=torch.float64)
    return 2 * math.pi * torch.pow(torch.tensor(float(base), dtype=torch.float64), two_j / d_model)


def positional_similarity(p: Tensor) -> Tensor:
    """Dot products P P^T between the encodings of every pair of positions: (L, L).

    For an even d_model the dot product depends only on the offset i - j (sum_j cos(offset * w_j)),
    which is why it is largest on the diagonal and decays with distance. (An odd d_model adds the lone
    last sine column, whose product sin(i w) sin(j w) also depends on i + j.)
    """
    return p @ p.T


def shift_matrix(offset: int, d_model: int, base: float = 10000.0) -> Tensor:
    """M_k (d_model, d_model) with P[pos + k] = P[pos] M_k for every pos (Vaswani et al. 2017, section 3.5):
    for each pair (2j, 2j+1) the 2 x 2 rotation [[cos kw, -sin kw], [sin kw, cos kw]], w = 1 / base^(2j/d),
    since sin(a + b) = sin a cos b + cos a sin b and cos(a + b) = cos a cos b - sin a sin b. It depends on the
    offset k only, never on pos. An odd d_model's last column (a sine without its cosine) has no such rotation:
    its row and column are NaN."""
    _check_arguments(base, d_model=d_model)
    if isinstance(offset, bool) or not isinstance(offset, int):
        raise AttentionError("not_integer", f"offset must be a whole number, got {offset!r}", name="offset")
    m = torch.zeros(d_model, d_model, dtype=torch.float64)
    for j in range(d_model // 2):
        angle = offset / float(base) ** (2 * j / d_model)
        c, s = math.cos(angle), math.sin(angle)
        m[2 * j: 2 * j + 2, 2 * j: 2 * j + 2] = torch.tensor([[c, -s], [s, c]], dtype=torch.float64)
    if d_model % 2:
        m[-1, :] = float("nan")
        m[:, -1] = float("nan")
    return m


def similarity_by_offset(p: Tensor) -> tuple[float, int, int]:
    """How P P^T behaves along offsets, from P (L, d): (spread, rises, steps). spread: the largest difference
    between two entries with the same offset i - j (0 when the dot product depends on the distance alone, as
    it does for an even d_model); rises: how many of the steps along row 0 (position 0 against 1, 2, ..., L-1)
    go up, i.e. where a farther position is MORE similar than the one before it."""
    sim = (p @ p.T).to(torch.float64)
    length = sim.shape[0]
    spread = 0.0
    for k in range(-(length - 1), length):
        diag = torch.diagonal(sim, offset=k)
        if diag.numel() > 1:
            spread = max(spread, float(diag.max() - diag.min()))
    row = sim[0]
    rises = int((row[1:] > row[:-1]).sum()) if length > 1 else 0
    return spread, rises, max(length - 1, 0)


# ----- positions inside the scores: RoPE and ALiBi (today's decoders; not in the notes) -------------------
def rope_angles(positions: Tensor, d_k: int, base: float = 10000.0) -> Tensor:
    """The angle each coordinate pair is turned by at each position: (L, d_k / 2), float64.

    Pair j is coordinates (j, j + d_k/2) (Llama's rotate-halves pairing, not neighbours 2j, 2j+1) and turns
    by position * base^(-2j/d_k): the first pair fastest (one radian per position), the last slowest.
    """
    _check_arguments(base, d_k=d_k)
    if d_k % 2:
        raise AttentionError("odd_d_k", f"rope rotates pairs of coordinates: d_k = {d_k} must be even", d_k=d_k)
    inv_freq = 1.0 / base ** (torch.arange(0, d_k, 2, dtype=torch.float64) / d_k)  # (d_k/2,)
    return torch.as_tensor(positions, dtype=torch.float64).unsqueeze(-1) * inv_freq  # (L, d_k/2)


def apply_rope(x: Tensor, positions: Tensor, base: float = 10000.0) -> Tensor:
    """x (..., L, d_k) with each pair (x_j, x_{j+d_k/2}) of row p turned by the angle rope_angles(p):
    x cos + rotate_half(x) sin, as Llama's apply_rotary_pos_emb. A turn keeps lengths, and q_m . k_n after
    turning by m and n depends on m - n only: the relative position is in the score."""
    angles = rope_angles(positions, x.shape[-1], base)  # (L, d_k/2)
    cos = torch.cat((angles, angles), dim=-1).cos().to(x.dtype)  # (L, d_k)
    sin = torch.cat((angles, angles), dim=-1).sin().to(x.dtype)  # (L, d_k)
    half = x.shape[-1] // 2
    rotated = torch.cat((-x[..., half:], x[..., :half]), dim=-1)  # (..., L, d_k): (x1, x2) -> (-x2, x1)
    return x * cos + rotated * sin  # (..., L, d_k)


def alibi_slopes(n_heads: int, dtype: torch.dtype | None = None) -> Tensor:
    """The ALiBi paper's slope m_i of each head: (h,), in `dtype` (default: torch's default dtype). For h a power
    of two the geometric sequence 2^(-8/h), 2^(-16/h), ..., 2^(-8); otherwise those of the power of two below h,
    then every other slope of twice that many heads (Press et al. 2022, as BLOOM's build_alibi_tensor). Computed
    in float64 and rounded once to `dtype`."""
    _check_arguments(10000.0, n_heads=n_heads)
    below = 2 ** math.floor(math.log2(n_heads))

    def geometric(n: int) -> list[float]:
        return [2.0 ** (-8.0 * (i + 1) / n) for i in range(n)]

    slopes = geometric(below) + geometric(2 * below)[0::2][: n_heads - below]
    return torch.tensor(slopes, dtype=torch.float64).to(dtype or torch.get_default_dtype())


def alibi_bias(n_heads: int, len_q: int, len_k: int | None = None, past: int = 0,
               dtype: torch.dtype | None = None) -> Tensor:  # fmt: skip
    """ALiBi's bias -m_a (i - j) of head a for query i and key j: (h, Lq, Lk), added to the scores, in `dtype`
    (default: torch's default dtype; computed in float64 and rounded once, so a float64 layer gets it exactly).

    Queries sit at positions past, past + 1, ... (past = tokens already in a KV cache), keys at 0, 1, ...;
    under a causal mask i - j is the distance back to the key, so far keys lose more.
    """
    if isinstance(past, bool) or not isinstance(past, int) or past < 0:
        raise AttentionError("bad_input", f"past must be a whole number >= 0, got {past!r}", name="past")
    len_k = len_q + past if len_k is None else len_k
    _check_arguments(10000.0, len_q=len_q, len_k=len_k)
    distance = past + torch.arange(len_q, dtype=torch.float64).unsqueeze(1) - torch.arange(len_k)  # (Lq, Lk): i - j
    bias = -alibi_slopes(n_heads, torch.float64).view(-1, 1, 1) * distance  # (h, Lq, Lk)
    return bias.to(dtype or torch.get_default_dtype())
