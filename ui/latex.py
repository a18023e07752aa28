"""Numbers as LaTeX."""

from __future__ import annotations

import numpy as np


def latex_matrix(m: np.ndarray, digits: int = 2, max_cells: int = 160) -> str | None:
    """A numeric matrix as a LaTeX bmatrix, or None when it is too large to read."""
    m = np.atleast_2d(m)
    if m.size > max_cells:
        return None
    fmt = f"{{:.{digits}f}}"

    def cell(v: float) -> str:
        if not np.isfinite(v):
            return r"-\infty" if v < 0 else r"\infty"
        s = fmt.format(v)
        return "0" if s in ("-0." + "0" * digits, "0." + "0" * digits) else s

    rows = [" & ".join(cell(v) for v in row) for row in m]
    return r"\begin{bmatrix}" + r" \\ ".join(rows) + r"\end{bmatrix}"
