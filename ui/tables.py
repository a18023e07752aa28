"""Tables: static while small, a scrolling grid when larger."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import pyarrow as pa
import streamlit as st
from streamlit import dataframe_util

from budget import ByteLRU

SMALL_TABLE = 16  # rows and columns up to which a table is drawn static
# A static table as Arrow, by its content: every run of a page (each of a class's following phones) draws the same
# small tables, and pandas' conversion to Arrow was most of a table's cost (0.85 ms of /heads' entropy table, 0.03
# once converted). A table of 16 x 16 is a few kB.
ARROW_CACHE: ByteLRU[pa.Table] = ByteLRU("tables", 4 << 20)


def _key(df: pd.DataFrame) -> str:
    """The table's content as a key: its labels, types and cells as text (a float's repr is exact, and a NaN equals
    itself there)."""
    return repr((list(df.columns), list(df.index), list(map(str, df.dtypes)), df.to_numpy().tolist()))


def arrow_table(df: pd.DataFrame) -> pa.Table:
    """`df` as Streamlit converts it for the browser (the same bytes go out), converted once per content."""
    key = _key(df)
    table = ARROW_CACHE.get(key)
    if table is None:
        table = dataframe_util.convert_pandas_df_to_arrow_table(df)
        ARROW_CACHE.put(key, table, table.nbytes + 2 * len(key))
    return table


def show_table(df: pd.DataFrame) -> None:
    """A table: static (st.table) while it is small, a scrolling grid (st.dataframe) when larger. The grid is
    the heaviest element a page can load: with it, the first chart of /inputs and /heads came at 1.24x and
    1.23x the minimal app's time; with static tables, 1.12x and 1.15x."""
    if df.shape[0] <= SMALL_TABLE and df.shape[1] <= SMALL_TABLE:
        # the index hidden as Streamlit hides a DataFrame's (a default RangeIndex): given an Arrow table, st.table
        # would convert it back to pandas to find out, on every run (1 ms of a following phone's run of /heads)
        st.table(arrow_table(df), hide_index=dataframe_util.has_range_index(df))
    else:
        st.dataframe(df, width="stretch")


def show_values(values: np.ndarray, rows: Sequence[str], cols: Sequence[str], decimals: int) -> None:
    """A table of numbers with its rows' and columns' labels, rounded to `decimals`: show_table of that DataFrame, the
    same message, but a small one is looked up by its numbers and labels before any DataFrame is built (the entropy
    table of /heads, drawn by each following phone at each of the teacher's moves: building the DataFrame and its key
    was most of the table's cost to the server)."""
    values = np.asarray(values)
    if values.ndim != 2 or values.shape[0] > SMALL_TABLE or values.shape[1] > SMALL_TABLE:
        show_table(_frame(values, rows, cols, decimals))
        return
    key = ("values", values.dtype.str, values.shape, values.tobytes(), tuple(rows), tuple(cols), decimals)
    table = ARROW_CACHE.get(key)
    if table is None:
        table = dataframe_util.convert_pandas_df_to_arrow_table(_frame(values, rows, cols, decimals))
        ARROW_CACHE.put(key, table, table.nbytes + values.nbytes + 2 * len(repr(key[4:])))
    st.table(table, hide_index=False)  # labelled rows: a DataFrame's index that st.table shows


def _frame(values: np.ndarray, rows: Sequence[str], cols: Sequence[str], decimals: int) -> pd.DataFrame:
    return pd.DataFrame(values, index=list(rows), columns=list(cols)).round(decimals)
