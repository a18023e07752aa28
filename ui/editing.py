"""Cell-by-cell editing of a matrix with st.data_editor, kept outside the widget so pages can switch.

The editor is fed the base matrix with the stored edits applied, under a key that changes after each
commit, so its own state only ever holds the newest edits (feeding its output back in loses edits).
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Callable

import numpy as np
import pandas as pd
import streamlit as st

from explorer import LIMITS

_VERSION = "_editor_versions"
_PROBLEMS = "_editor_problems"  # {store_key: [(message key, params)]} of the last commit


def _version(store_key: str) -> int:
    return st.session_state.setdefault(_VERSION, {}).get(store_key, 0)


MAX_CELL_CHARS = 32  # "-10000.000000000001" fits; a 400-digit paste does not


def parse_cell(raw: object) -> float | tuple[str, dict[str, object]]:
    """A typed cell as a float, or (message key, its parameters) saying why it is not usable. The one place
    that decides what a cell of the X and weight editors accepts."""
    if raw is None:
        return "edit.empty", {}
    if isinstance(raw, bool):
        return "edit.not_a_number", {"value": str(raw)}
    if isinstance(raw, (int, float)):
        text, value = f"{raw:g}", float(raw)
    else:
        text = str(raw).strip()
        if not text:
            return "edit.empty", {}
        if len(text) > MAX_CELL_CHARS:
            return "edit.too_long", {"value": text[:12] + "…", "n": len(text),
                                     "limit": f"{LIMITS.max_abs_value:g}"}  # fmt: skip
        if not text.isascii():  # "１２": float() would take full-width digits, the grid would show others
            plain = unicodedata.normalize("NFKC", text)
            return "edit.full_width", {"value": text, "plain": plain if plain.isascii() else "12"}
        if "_" in text:  # float("1_0") is 10.0: not a way anyone writes a number here
            return "edit.not_a_number", {"value": text}
        try:
            value = float(text)
        except ValueError:
            return "edit.not_a_number", {"value": text}
    if not math.isfinite(value):
        return "edit.not_finite", {"value": text}
    if abs(value) > LIMITS.max_abs_value:
        return "edit.too_large", {"value": text, "limit": f"{LIMITS.max_abs_value:g}"}
    return value


def _commit(store_key: str, sig: tuple, editor_key: str, name: str | None, row_labels: list[str]) -> None:
    """Merge the editor's good cells into the store; a bad cell is not stored (the last good value stays) and
    gets a message naming its row, column and what was typed."""
    state = st.session_state.get(editor_key) or {}
    rows = state.get("edited_rows") or {}
    if not rows:
        return
    store = st.session_state.get(store_key) or {}
    edits = dict(store.get("edits", {})) if store.get("sig") == sig else {}
    problems: list[tuple[str, dict[str, object]]] = []
    for row, changes in rows.items():
        for col, raw in changes.items():
            r, c = int(row), int(col)
            value = parse_cell(raw)
            if isinstance(value, tuple):
                label = row_labels[r] if 0 <= r < len(row_labels) else str(r)
                problems.append((value[0], {**value[1], "row": label, "col": c}))
                continue
            edits[(r, c) if name is None else (name, r, c)] = value
    st.session_state[store_key] = {"sig": sig, "edits": edits}
    st.session_state.setdefault(_PROBLEMS, {})[store_key] = problems
    versions = st.session_state.setdefault(_VERSION, {})
    versions[store_key] = versions.get(store_key, 0) + 1


def matrix_editor(
    matrix: np.ndarray, row_labels: list[str], store_key: str, sig: tuple, tr: Callable[..., str],
    name: str | None = None, height: int | None = None,
) -> None:
    """An editable table of `matrix` (already including earlier edits). Edits land in st.session_state[store_key];
    cells that are not usable numbers get a message each, under the table."""
    editor_key = f"editor_{store_key}_{name or ''}_{_version(store_key)}"
    if (st.session_state.get(editor_key) or {}).get("edited_rows"):  # set without a callback (tests)
        _commit(store_key, sig, editor_key, name, row_labels)
        st.rerun()
    # Text cells, parsed by parse_cell: a number column turns "abc", "nan", "１２" or an emptied cell into a
    # bare None before the app sees it, and the message could not say what was typed.
    values = np.asarray(matrix, dtype=float)
    df = pd.DataFrame([[f"{v:.3f}" for v in row] for row in values], columns=[str(j) for j in range(values.shape[1])])
    df.index = row_labels
    st.data_editor(
        df, key=editor_key, width="stretch", height=height or min(36 * (len(df) + 1) + 4, 420), num_rows="fixed",
        column_config={c: st.column_config.TextColumn(c) for c in df.columns},
        on_change=_commit, args=(store_key, sig, editor_key, name, row_labels),
    )  # fmt: skip
    problems = (st.session_state.get(_PROBLEMS) or {}).get(store_key) or []
    for key, params in problems[:6]:
        st.error(cell_message(tr, key, params), icon=":material/error:")


def cell_message(tr: Callable[..., str], key: str, params: dict[str, object]) -> str:
    """"Row 3:cat, column 5: “abc” is not a number ..." in the user's language."""
    rest = {k: v for k, v in params.items() if k not in ("row", "col")}
    return tr("edit.cell", row=params.get("row", "?"), col=params.get("col", "?"), problem=tr(key, **rest))


def clear_edits(store_key: str) -> None:
    st.session_state[store_key] = {}
    st.session_state.setdefault(_PROBLEMS, {}).pop(store_key, None)
    versions = st.session_state.setdefault(_VERSION, {})
    versions[store_key] = versions.get(store_key, 0) + 1
