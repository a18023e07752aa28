"""Settings of the explorer: one frozen, hashable dataclass, and the one place that validates it."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from mha_core import nearest_valid_d_model, nearest_valid_heads, tokenize

MASKS: tuple[str, ...] = ("none", "causal", "padding", "chosen")  # padding: a batch of two; chosen: picked keys
WEIGHT_SOURCES: tuple[str, ...] = ("random", "minilm")  # seeded random, or all-MiniLM-L6-v2's layer `layer`
REAL_SIZES = {"d_model": 384, "n_heads": 12, "layers": 6}  # all-MiniLM-L6-v2: fixed while its weights are used
MATRIX_NAMES: tuple[str, ...] = ("w_q", "w_k", "w_v", "w_o")


@dataclass(frozen=True)
class Limits:
    """Sizes that keep every page responsive; the UI shows them as limits."""

    max_chars: int = 2000
    max_tokens: int = 64
    max_d_model: int = 1024
    max_heads: int = 16
    max_seed: int = 2**31 - 1
    max_abs_value: float = 1e4  # an edited cell beyond this makes every downstream number meaningless
    max_edit_weights_d_model: int = 8  # weights are editable cell by cell only up to this size
    max_numbers_cells: int = 160  # show the numbers of a matrix in LaTeX / as text up to this many cells


LIMITS = Limits()


@dataclass(frozen=True)
class Settings:
    """Everything that determines the numbers on screen. Hashable, so results cache on it."""

    preset: str = "en"
    text: str = "The cat sat on the mat because it was tired ."
    cross: bool = False
    text_kv: str = "Le chat était fatigué ."
    d_model: int = 64
    n_heads: int = 8
    seed: int = 0
    scale: bool = True
    mask: str = "none"
    padded: tuple[int, ...] = ()
    add_pe: bool = True
    pe_base: float = 10000.0
    x_edits: tuple[tuple[int, int, float], ...] = field(default=())
    w_edits: tuple[tuple[str, int, int, float], ...] = field(default=())
    weight_source: str = "random"
    layer: int = 1  # 1-based encoder layer of the real model (weight_source "minilm")
    text_pad: str = "The dog slept ."  # the second sentence of the padding batch (mask "padding")

    @property
    def real(self) -> bool:
        return self.weight_source == "minilm"

    @property
    def d_k(self) -> int:
        return self.d_model // self.n_heads


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the settings: a message key (`problem.<code>`) and its parameters."""

    code: str
    params: tuple[tuple[str, Any], ...] = ()

    @property
    def key(self) -> str:
        return f"problem.{self.code}"

    @property
    def kwargs(self) -> dict[str, Any]:
        return dict(self.params)


def _problem(code: str, **params: Any) -> Problem:
    return Problem(code, tuple(params.items()))


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _check_text(text: Any, which: str) -> list[Problem]:
    if not isinstance(text, str):
        return [_problem("empty_text", which=which)]
    if len(text) > LIMITS.max_chars:
        return [_problem("too_many_chars", which=which, n=len(text), limit=LIMITS.max_chars)]
    tokens = tokenize(text)
    if not tokens:
        return [_problem("empty_text", which=which)]
    if len(tokens) > LIMITS.max_tokens:
        return [_problem("too_many_tokens", which=which, n=len(tokens), limit=LIMITS.max_tokens)]
    return []


def _check_source(s: Settings) -> list[Problem]:
    """The real model's weights fix its sizes and serve self-attention on a sentence (not the worked example)."""
    if s.weight_source not in WEIGHT_SOURCES:
        return [_problem("bad_choice", name="weight_source", value=str(s.weight_source)[:20])]
    if not _is_int(s.layer) or not 1 <= s.layer <= REAL_SIZES["layers"]:
        return [_problem("out_of_range", name="layer", value=str(s.layer)[:20], low=1, high=REAL_SIZES["layers"])]
    if s.mask == "padding" and (s.cross or s.preset == "worked"):
        return [_problem("padding_batch")]
    if s.real and ((s.d_model, s.n_heads) != (REAL_SIZES["d_model"], REAL_SIZES["n_heads"]) or s.cross
                   or s.preset == "worked" or s.x_edits or s.w_edits):  # fmt: skip
        return [_problem("real_fixed", d_model=REAL_SIZES["d_model"], n_heads=REAL_SIZES["n_heads"])]
    return []


def validate(s: Settings) -> list[Problem]:
    """Every problem with `s` (empty list: valid). The single place that decides what is allowed."""
    problems: list[Problem] = []
    if s.preset != "worked":
        problems += _check_text(s.text, "query")
        if s.cross:
            problems += _check_text(s.text_kv, "key_value")
        if s.mask == "padding":
            problems += _check_text(s.text_pad, "second")
    sizes_ok = True
    for name, value, hi in (("d_model", s.d_model, LIMITS.max_d_model), ("n_heads", s.n_heads, LIMITS.max_heads)):
        if not _is_int(value) or not 1 <= value <= hi:
            problems.append(_problem("out_of_range", name=name, value=str(value)[:20], low=1, high=hi))
            sizes_ok = False
    if sizes_ok and s.d_model % s.n_heads:
        problems.append(
            _problem(
                "not_divisible",
                d_model=s.d_model,
                n_heads=s.n_heads,
                heads=", ".join(str(h) for h in nearest_valid_heads(s.d_model, s.n_heads) if h <= LIMITS.max_heads),
                d_models=", ".join(
                    str(d) for d in nearest_valid_d_model(s.d_model, s.n_heads) if d <= LIMITS.max_d_model
                ),
            )
        )
    if not _is_int(s.seed) or not 0 <= s.seed <= LIMITS.max_seed:
        problems.append(_problem("out_of_range", name="seed", value=str(s.seed)[:20], low=0, high=LIMITS.max_seed))
    if s.mask not in MASKS:
        problems.append(_problem("bad_choice", name="mask", value=str(s.mask)[:20]))
    if not isinstance(s.pe_base, (int, float)) or not (math.isfinite(s.pe_base) and 1 < s.pe_base <= 1e9):
        problems.append(_problem("out_of_range", name="base", value=str(s.pe_base)[:20], low=2, high="1e9"))
    if not all(_is_int(i) and i >= 0 for i in s.padded):
        problems.append(_problem("bad_choice", name="padded", value=str(s.padded)[:40]))
    for edit in (*s.x_edits, *s.w_edits):
        value = edit[-1]
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            problems.append(_problem("not_a_number", value=str(value)[:20]))
        elif not math.isfinite(value):
            problems.append(_problem("not_finite", value=str(value)[:20]))
        elif abs(value) > LIMITS.max_abs_value:
            problems.append(_problem("too_large_value", value=f"{value:.15g}"[:20], limit=f"{LIMITS.max_abs_value:g}"))
    problems += _check_source(s)
    for edit in s.w_edits:
        if edit[0] not in MATRIX_NAMES:
            problems.append(_problem("bad_choice", name="matrix", value=str(edit[0])[:20]))
    return problems
