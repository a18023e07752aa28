"""Predict, then reveal: short exercises generated from one Scene. Pure Python, no streamlit, no translation.

Each Question carries plain values only: the page translates `quiz.<kind>.prompt` / `quiz.<kind>.explain`
with `params` / `explain`, and shows the options with `option_text`. Every correct answer is read from the
Scene (the numbers of the core), never recomputed here; options are shuffled with the seed.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .pipeline import Scene

KINDS: tuple[str, ...] = (
    "argmax", "row_sum", "mask_causal", "mask_padding", "d_k", "concat_shape", "params", "qk_mults",
)  # fmt: skip
N_OPTIONS = 4
MAX_ROW_SHOWN = 12  # an explanation lists a whole weights row up to this many keys, else the largest ones
TIE = 1e-3  # an argmax question needs a clear winner: top weight at least this much above the second


@dataclass(frozen=True)
class Question:
    """One multiple-choice question. Options are plain values: str, int, or a tuple of key positions."""

    kind: str
    params: tuple[tuple[str, Any], ...]
    options: tuple[Any, ...]
    answer: int
    explain: tuple[tuple[str, Any], ...] = ()

    @property
    def kwargs(self) -> dict[str, Any]:
        return dict(self.params)

    @property
    def explain_kwargs(self) -> dict[str, Any]:
        return dict(self.explain)

    @property
    def correct(self) -> Any:
        return self.options[self.answer]

    @property
    def ident(self) -> str:
        """A short stable id (widget keys): changes whenever the question or its options change."""
        return hashlib.blake2b(repr(self).encode("utf-8"), digest_size=6).hexdigest()


def shape_text(*dims: int) -> str:
    return " × ".join(str(d) for d in dims)


def keys_text(keys: Sequence[int], labels: Sequence[str]) -> str:
    """A set of key positions as labels; runs of more than three neighbours are shortened to 'first … last'."""
    runs: list[list[int]] = []
    for j in sorted(keys):
        if runs and j == runs[-1][-1] + 1:
            runs[-1].append(j)
        else:
            runs.append([j])
    parts = [f"{labels[r[0]]} … {labels[r[-1]]}" if len(r) > 3 else ", ".join(labels[j] for j in r) for r in runs]
    return ", ".join(parts)


def option_text(value: Any, kv_labels: Sequence[str]) -> str:
    """How an option reads on screen (language-neutral): key sets as labels, integers with separators."""
    if isinstance(value, tuple):
        return keys_text(value, kv_labels)
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def _choice(correct: Any, distractors: Sequence[Any], rng: random.Random) -> tuple[tuple[Any, ...], int] | None:
    """Up to N_OPTIONS distinct options with the correct one at a seeded random place (None: too few)."""
    wrong: list[Any] = []
    for d in distractors:
        if d != correct and d not in wrong:
            wrong.append(d)
    wrong = wrong[: N_OPTIONS - 1]
    if not wrong:
        return None
    options = [correct, *wrong]
    rng.shuffle(options)
    return tuple(options), options.index(correct)


def _row_text(row: np.ndarray, labels: Sequence[str], masked: np.ndarray) -> str:
    """A weights row as 'label weight' pairs; long rows show only the largest weights."""
    order = range(len(row)) if len(row) <= MAX_ROW_SHOWN else sorted(np.argsort(-row, kind="stable")[:5])
    parts = [f"{labels[j]} {'—' if masked[j] else f'{row[j]:.3f}'}" for j in order]
    return ", ".join(parts) + ("" if len(row) <= MAX_ROW_SHOWN else ", …")


def _argmax(sc: Scene, rng: random.Random) -> Question | None:
    candidates = [(h, i) for h in range(sc.n_heads) for i in range(sc.len_q)]
    rng.shuffle(candidates)
    for h, i in candidates[:50]:
        row = sc.weights[h, i]
        order = np.argsort(-row, kind="stable")
        if row[order[0]] <= 0 or (len(row) > 1 and row[order[0]] - row[order[1]] < TIE):
            continue  # a fully masked row, or no clear winner
        best = int(order[0])
        others = [int(j) for j in order[1:3]] + rng.sample(range(sc.len_k), min(sc.len_k, 6))
        picked = _choice(sc.kv_labels[best], [sc.kv_labels[j] for j in others], rng)
        if picked is None:
            return None
        options, answer = picked
        return Question(
            "argmax", (("head", h + 1), ("query", sc.labels[i])), options, answer,
            (("head", h + 1), ("query", sc.labels[i]), ("best", sc.kv_labels[best]), ("weight", f"{row[best]:.3f}"),
             ("row", _row_text(row, sc.kv_labels, sc.mask[h, i]))),
        )  # fmt: skip
    return None


def _row_sum(sc: Scene, rng: random.Random) -> Question | None:
    h, i = rng.randrange(sc.n_heads), rng.randrange(sc.len_q)
    row = sc.weights[h, i]
    total = float(row.sum())
    correct = "1" if total > 0.5 else "0"  # 0 only for a row whose keys are all masked
    lk, dk = sc.len_k, sc.d_k
    wrong = ["0", "1", str(lk), *([f"1/{lk}"] if lk > 1 else []), *([f"{dk**0.5:.2f}", str(dk)] if dk > 1 else [])]
    picked = _choice(correct, wrong, rng)  # no wrong option may equal the answer as a number (1/1, 1.00)
    if picked is None:
        return None
    options, answer = picked
    return Question(
        "row_sum", (("head", h + 1), ("query", sc.labels[i])), options, answer,
        (("head", h + 1), ("query", sc.labels[i]), ("row", _row_text(row, sc.kv_labels, sc.mask[h, i])),
         ("total", f"{total:.3f}")),
    )  # fmt: skip


def _mask(sc: Scene, rng: random.Random, mask: str) -> Question | None:
    s = sc.settings
    if s.mask not in ((mask, "chosen") if mask == "padding" else (mask,)) or not sc.mask.any():
        return None
    lk = sc.len_k
    queries = [i for i in range(sc.len_q) if 0 < i < lk - 1] or list(range(sc.len_q))
    i = rng.choice(queries)
    visible = tuple(j for j in range(lk) if not sc.mask[0, i, j])
    padded = tuple(j for j in range(lk) if sc.mask[0, i, j])
    if mask == "causal":  # the usual slips: forgetting itself, looking ahead, no mask at all
        distractors = [tuple(range(i)), tuple(range(i, lk)), tuple(range(lk)), tuple(range(i + 1, lk)), (i,)]
    else:  # the usual slips: no mask at all, the padded keys themselves, a causal mask
        distractors = [tuple(range(lk)), padded, tuple(range(i + 1)), (i,)]
    picked = _choice(visible, [d for d in distractors if d], rng)
    if picked is None or not visible:
        return None
    options, answer = picked
    return Question(
        f"mask_{mask}", (("query", sc.labels[i]),), options, answer,
        (("query", sc.labels[i]), ("n_visible", len(visible)), ("len_k", lk),
         ("keys", keys_text(visible, sc.kv_labels))),
    )  # fmt: skip


def _d_k(sc: Scene, rng: random.Random) -> Question | None:
    d, h, dk = sc.d_model, sc.n_heads, sc.q.shape[-1]
    distractors = [d, h, d * h, 64, max(dk // 2, 1), dk * 2, dk + 1]
    picked = _choice(dk, distractors, rng)
    if picked is None:
        return None
    options, answer = picked
    return Question("d_k", (("d", d), ("h", h)), options, answer, (("d", d), ("h", h), ("dk", dk)))


def _concat_shape(sc: Scene, rng: random.Random) -> Question | None:
    lq, lk, d, h, dk = sc.len_q, sc.len_k, sc.d_model, sc.n_heads, sc.d_k
    correct = shape_text(*sc.concat.shape)
    distractors = [shape_text(lq, dk), shape_text(h, lq, dk), shape_text(lq, h * d), shape_text(lk, d),
                   shape_text(d, lq), shape_text(lq, lk), shape_text(h, lq, d)]  # fmt: skip
    picked = _choice(correct, distractors, rng)
    if picked is None:
        return None
    options, answer = picked
    return Question(
        "concat_shape", (("L", lq), ("d", d), ("h", h)), options, answer,
        (("L", lq), ("h", h), ("dk", dk), ("d", d), ("shape", correct)),
    )  # fmt: skip


def _params(sc: Scene, rng: random.Random) -> Question | None:
    d, h = sc.d_model, sc.n_heads
    correct = sc.params.weights
    distractors = [3 * d * d, 4 * d * d + 4 * d, 4 * d * sc.d_k, 4 * d * d * h, 3 * d * sc.d_k, 2 * d * d]
    picked = _choice(correct, distractors, rng)
    if picked is None:
        return None
    options, answer = picked
    return Question(
        "params", (("d", d), ("h", h)), options, answer,
        (("d", d), ("h", h), ("dk", sc.d_k), ("per", sc.params.w_q), ("total", correct)),
    )  # fmt: skip


def _qk_mults(sc: Scene, rng: random.Random) -> Question | None:
    lq, lk, d, h, dk = sc.len_q, sc.len_k, sc.d_model, sc.n_heads, sc.d_k
    correct = next(c.mults for c in sc.costs if c.step == "qk")
    distractors = [lq * lk * dk, lq * lk * d * h, lq * lk, lq * lk * (d - 1), lq * lq * d, lk * lk * d, lq * d * d]
    picked = _choice(correct, distractors, rng)
    if picked is None:
        return None
    options, answer = picked
    return Question(
        "qk_mults", (("L", lq), ("Lk", lk), ("d", d), ("h", h)), options, answer,
        (("L", lq), ("Lk", lk), ("d", d), ("h", h), ("dk", dk), ("per_head", lq * lk * dk), ("total", correct)),
    )  # fmt: skip


_MAKERS: dict[str, Callable[[Scene, random.Random], Question | None]] = {
    "argmax": _argmax, "row_sum": _row_sum, "d_k": _d_k,
    "mask_causal": lambda sc, rng: _mask(sc, rng, "causal"),
    "mask_padding": lambda sc, rng: _mask(sc, rng, "padding"),
    "concat_shape": _concat_shape, "params": _params, "qk_mults": _qk_mults,
}  # fmt: skip


def make_questions(scene: Scene, seed: int) -> list[Question]:
    """The questions that fit this setting, in the order of KINDS; the same scene and seed give the same list."""
    questions = []
    for kind in KINDS:
        # the setting is part of the seed, so a kind's answer does not sit at the same place in every setting
        q = _MAKERS[kind](scene, random.Random(f"{seed}:{kind}:{scene.settings!r}"))
        if q is not None:
            questions.append(q)
    return questions


__all__ = ["KINDS", "Question", "keys_text", "make_questions", "option_text", "shape_text"]
