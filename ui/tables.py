"""Tables: static while small, a scrolling grid when larger."""

from __future__ import annotations

import pandas as pd
import streamlit as st

SMALL_TABLE = 16  # rows and columns up to which a table is drawn static


def show_table(df: pd.DataFrame) -> None:
    """A table: static (st.table) while it is small, a scrolling grid (st.dataframe) when larger. The grid is
    the heaviest element a page can load: with it, the first chart of /inputs and /heads came at 1.24x and
    1.23x the minimal app's time; with static tables, 1.12x and 1.15x."""
    if df.shape[0] <= SMALL_TABLE and df.shape[1] <= SMALL_TABLE:
        st.table(df)
    else:
        st.dataframe(df, width="stretch")
