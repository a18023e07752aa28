"""The frame: page config, language, the shared settings sidebar, and navigation over the pages."""

import streamlit as st

from ui.sidebar import build_context

st.set_page_config(page_title="Multi-head attention explorer · 多头注意力", page_icon="🔍", layout="wide")

ctx = build_context()
tr = ctx.t
pages = [
    st.Page("pages/page_inputs.py", title=tr("page.inputs"), icon="🔤", url_path="inputs", default=True),
    st.Page("pages/page_steps.py", title=tr("page.steps"), icon="🪜", url_path="steps"),
    st.Page("pages/page_heads.py", title=tr("page.heads"), icon="🧠", url_path="heads"),
    st.Page("pages/page_positional.py", title=tr("page.positional"), icon="〰️", url_path="positional-encoding"),
]
if ctx.large:  # projector: bigger text everywhere, not only in figures
    st.html("<style>html, body, [class*='st-'] { font-size: 1.2rem; } h1 { font-size: 2.6rem; }</style>")
st.navigation(pages, position="sidebar").run()
