"""The teacher's console of a live class: everything the class must not see (classroom/console.py)."""

import streamlit as st

from classroom.console import page
from frame import outside_frame
from ui.context import get_context

if outside_frame():
    st.stop()
ctx = get_context()
tr = ctx.t
st.title(tr("console.title"))
page(ctx)
