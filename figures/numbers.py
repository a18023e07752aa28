"""Numbers written the way a student writes them by hand: the decimal shown, rounded half up.

Python's f"{0.145:.2f}" gives 0.14 (the float is 0.14499999...), a student writes 0.15. `by_hand` rounds the
shortest decimal of the float (its repr, what the student reads) half up. The by-hand softmax then carries
the rounded digits from step to step, as a student with a calculator does.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal

import numpy as np


def hand_decimal(v: float, digits: int) -> Decimal:
    """v rounded half up (away from zero on a tie) to `digits` decimals, as a Decimal."""
    return Decimal(repr(float(v))).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)


def by_hand(v: float, digits: int) -> str:
    """v as a student writes it with `digits` decimals; −0.00 is written 0, infinities as LaTeX."""
    if not math.isfinite(v):
        return r"-\infty" if v < 0 else r"\infty"
    d = hand_decimal(v, digits)
    return "0" if d == 0 else f"{d:.{digits}f}"


def hand_matrix(m: np.ndarray, digits: int = 2) -> str:
    """A matrix as a LaTeX bmatrix with entries rounded by hand."""
    m = np.atleast_2d(np.asarray(m, dtype=float))
    rows = [" & ".join(by_hand(v, digits) for v in row) for row in m.tolist()]
    return r"\begin{bmatrix}" + r" \\ ".join(rows) + r"\end{bmatrix}"


def softmax_as_shown(scores: np.ndarray, digits: int) -> tuple[list[Decimal], list[Decimal], list[Decimal], Decimal]:
    """One row's softmax as a student does it with `digits` decimals at every step: (the scores as read, e^score
    of the read score rounded, the weights e / Σ rounded, Σ of the rounded e)."""
    read = [hand_decimal(s, digits) for s in np.asarray(scores, dtype=float).tolist()]
    exps = [hand_decimal(math.exp(float(s)), digits) for s in read]
    total = sum(exps, Decimal(0))
    weights = [(e / total).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP) for e in exps]
    return read, exps, weights, total
