"""Cell-by-cell editing of a matrix with st.data_editor, kept outside the widget so pages can switch.

The editor is fed the base matrix with the stored edits applied, under a key that changes after each
commit, so its own state only ever holds the newest edits (feeding its output back in loses edits).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

_VERSION = "_editor_versions"


def _version(store_key: str) -> int:
    return st.session_state.setdefault(_VERSION, {}).get(store_key, 0)


def _commit(store_key: str, sig: tuple, editor_key: str, name: str | None) -> None:
    """Merge the editor's edited cells into the store; True if anything was new."""
    state = st.session_state.get(editor_key) or {}
    rows = state.get("edited_rows") or {}
    if not rows:
        return
    store = st.session_state.get(store_key) or {}
    edits = dict(store.get("edits", {})) if store.get("sig") == sig else {}
    for row, changes in rows.items():
        for col, value in changes.items():
            cell = (int(row), int(col))
            edits[cell if name is None else (name, *cell)] = value
    st.session_state[store_key] = {"sig": sig, "edits": edits}
    versions = st.session_state.setdefault(_VERSION, {})
    versions[store_key] = versions.get(store_key, 0) + 1


def matrix_editor(
    matrix: np.ndarray, row_labels: list[str], store_key: str, sig: tuple, name: str | None = None,
    height: int | None = None,
) -> None:
    """An editable table of `matrix` (already including earlier edits). Edits land in st.session_state[store_key]."""
    editor_key = f"editor_{store_key}_{name or ''}_{_version(store_key)}"
    if (st.session_state.get(editor_key) or {}).get("edited_rows"):  # set without a callback (tests)
        _commit(store_key, sig, editor_key, name)
        st.rerun()
    df = pd.DataFrame(np.asarray(matrix, dtype=float), columns=[str(j) for j in range(matrix.shape[1])])
    df.index = row_labels
    st.data_editor(
        df, key=editor_key, width="stretch", height=height or min(36 * (len(df) + 1) + 4, 420), num_rows="fixed",
        column_config={c: st.column_config.NumberColumn(c, format="%.3f") for c in df.columns},
        on_change=_commit, args=(store_key, sig, editor_key, name),
    )  # fmt: skip


def clear_edits(store_key: str) -> None:
    st.session_state[store_key] = {}
    versions = st.session_state.setdefault(_VERSION, {})
    versions[store_key] = versions.get(store_key, 0) + 1
