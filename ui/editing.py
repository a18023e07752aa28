"""Cell-by-cell editing of a matrix with st.data_editor, kept outside the widget so pages can switch.

The editor is fed the base matrix with the stored edits applied, under a key that changes after each
commit, so its own state only ever holds the newest edits (feeding its output back in loses edits).
"""

from __future__ import annotations

import logging
import math
import unicodedata
from collections.abc import Callable

import numpy as np
import pandas as pd
import streamlit as st

from explorer import LIMITS

_VERSION = "_editor_versions"
_PROBLEMS = "_editor_problems"  # {problem key: [(message key, params)]} of the last commit, of any editor
_LOG = logging.getLogger(__name__)  # each message at most once per run (ui/streamlit_guard.LOGGERS)
MATRIX_NAMES = {"w_q": "W^Q", "w_k": "W^K", "w_v": "W^V", "w_o": "W^O"}  # as the editors' tabs name them


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
        if not text.isascii():  # float() would take "１２" and "٣", the grid would show others
            return _not_ascii(text)
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


def _not_ascii(text: str) -> tuple[str, dict[str, object]]:
    """Why a cell with characters outside ASCII is not taken: full-width characters ("１２", an East Asian input
    method), digits of another script ("٣"), or not a number at all."""
    plain = unicodedata.normalize("NFKC", text)  # full-width forms -> ASCII; Arabic-Indic digits stay
    if plain.isascii() and plain != text and isinstance(parse_cell(plain), float):
        return "edit.full_width", {"value": text, "plain": plain}
    western = "".join(str(unicodedata.decimal(ch)) if unicodedata.decimal(ch, None) is not None else ch for ch in plain)
    if western.isascii() and isinstance(parse_cell(western), float):
        return "edit.other_digits", {"value": text, "plain": western}
    return "edit.not_a_number", {"value": text}


def _position(raw: object, size: int) -> int | None:
    """A row or column of the grid as the editor sends it ("3"), or None when it cannot be one (only a forged
    message sends "abc", "-1" or 10**6)."""
    text = str(raw)
    if not (text.isascii() and text.isdecimal() and len(text) <= 6):
        return None
    return int(text) if int(text) < size else None


def _commit(store_key: str, sig: tuple, editor_key: str, name: str | None, row_labels: list[str],
            n_cols: int = 0) -> None:  # fmt: skip
    """Merge the editor's good cells into the store; a bad cell is not stored (the last good value stays) and
    gets a message naming its matrix, row, column and what was typed. The messages are those of this commit only:
    an older one, of this editor or another, goes."""
    state = st.session_state.get(editor_key)
    rows = state.get("edited_rows") if isinstance(state, dict) else None
    if not rows or not isinstance(rows, dict):
        return
    store = st.session_state.get(store_key) or {}
    edits = dict(store.get("edits", {})) if store.get("sig") == sig else {}
    problems: list[tuple[str, dict[str, object]]] = []
    malformed = 0
    for row, changes in rows.items():
        r = _position(row, len(row_labels))
        for col, raw in (changes.items() if isinstance(changes, dict) else ()):
            c = _position(col, n_cols or 10**6)
            if r is None or c is None:
                malformed += 1
                continue
            value = parse_cell(raw)
            if isinstance(value, tuple):
                params = {**value[1], "row": row_labels[r], "col": c}
                if name is not None:  # the four weight editors share a store: the message names its matrix
                    params["matrix"] = MATRIX_NAMES.get(name, name)
                problems.append((value[0], params))
                continue
            edits[(r, c) if name is None else (name, r, c)] = value
    if malformed:
        _LOG.warning("Ignored edits of cells outside the grid (a forged message).")
    st.session_state[store_key] = {"sig": sig, "edits": edits}
    st.session_state[_PROBLEMS] = {_problem_key(store_key, name): problems}
    versions = st.session_state.setdefault(_VERSION, {})
    versions[store_key] = versions.get(store_key, 0) + 1


def _problem_key(store_key: str, name: str | None) -> str:
    return store_key if name is None else f"{store_key}:{name}"


def matrix_editor(
    matrix: np.ndarray, row_labels: list[str], store_key: str, sig: tuple, tr: Callable[..., str],
    name: str | None = None, height: int | None = None,
) -> None:
    """An editable table of `matrix` (already including earlier edits). Edits land in st.session_state[store_key];
    cells that are not usable numbers get a message each, under the table."""
    values = np.asarray(matrix, dtype=float)
    editor_key = f"editor_{store_key}_{name or ''}_{_version(store_key)}"
    state = st.session_state.get(editor_key)
    if isinstance(state, dict) and state.get("edited_rows"):  # set without a callback (tests)
        _commit(store_key, sig, editor_key, name, row_labels, values.shape[1])
        st.rerun()
    # Text cells, parsed by parse_cell: a number column turns "abc", "nan", "１２" or an emptied cell into a
    # bare None before the app sees it, and the message could not say what was typed.
    df = pd.DataFrame([[f"{v:.3f}" for v in row] for row in values], columns=[str(j) for j in range(values.shape[1])])
    df.index = row_labels
    options = dict(width="stretch", height=height or min(36 * (len(df) + 1) + 4, 420), num_rows="fixed",
                   column_config={c: st.column_config.TextColumn(c) for c in df.columns}, on_change=_commit,
                   args=(store_key, sig, editor_key, name, row_labels, values.shape[1]))  # fmt: skip
    try:
        st.data_editor(df, key=editor_key, **options)
    except Exception:  # Streamlit could not apply the editor's state, a forged one (rows to delete that do not
        # exist, a column that does not): a fresh editor under a new key; the old state is dropped at the run's end
        _LOG.warning("Could not apply a table editor's state; a fresh editor is drawn (a forged message).")
        versions = st.session_state.setdefault(_VERSION, {})
        versions[store_key] = versions.get(store_key, 0) + 1
        st.data_editor(df, key=f"editor_{store_key}_{name or ''}_{_version(store_key)}", **options)
    problems = (st.session_state.get(_PROBLEMS) or {}).get(_problem_key(store_key, name)) or []
    for key, params in problems[:6]:
        st.error(cell_message(tr, key, params), icon=":material/error:")


def cell_message(tr: Callable[..., str], key: str, params: dict[str, object]) -> str:
    """"Row 3:cat, column 5: “abc” is not a number ..." in the user's language ("W^Q, row 3, ..." in a weight)."""
    rest = {k: v for k, v in params.items() if k not in ("row", "col", "matrix")}
    where = {"row": params.get("row", "?"), "col": params.get("col", "?"), "problem": tr(key, **rest)}
    if "matrix" in params:
        return tr("edit.cell_in", matrix=params["matrix"], **where)
    return tr("edit.cell", **where)


def clear_edits(store_key: str) -> None:
    st.session_state[store_key] = {}
    problems = st.session_state.setdefault(_PROBLEMS, {})
    for key in [k for k in problems if k == store_key or k.startswith(f"{store_key}:")]:
        del problems[key]
    versions = st.session_state.setdefault(_VERSION, {})
    versions[store_key] = versions.get(store_key, 0) + 1
