"""Glossary: the app's vocabulary (i18n/glossary.py), English and Chinese with d2l-zh's words, and the symbols."""

import pandas as pd
import streamlit as st

from i18n.glossary import GLOSSARY, NOTATION
from ui.context import get_context
from ui.frame import outside_frame

if outside_frame():
    st.stop()
ctx = get_context()
tr, zh = ctx.t, ctx.lang == "zh"

st.title(tr("glossary.title"))
st.markdown(tr("glossary.intro"))
query = st.text_input(tr("glossary.search"), key="glossary_q", max_chars=40).strip().lower()
rows = [(term.en, term.zh, term.d2l or "—", "、".join(term.avoid) or "—", (term.note_zh if zh else term.note) or "")
        for term in GLOSSARY]  # fmt: skip
shown = [r for r in rows if not query or any(query in cell.lower() for cell in r)]
if shown:
    st.table(pd.DataFrame(shown, columns=[tr(f"glossary.col_{c}") for c in ("en", "zh", "d2l", "avoid", "note")])
             .set_index(tr("glossary.col_en")))  # fmt: skip
else:
    st.info(tr("glossary.none", q=query))

st.header(tr("glossary.notation"))
st.markdown(tr("glossary.notation_text"))
st.table(pd.DataFrame([(f"${tex}$", zh_text if zh else en) for tex, en, zh_text in NOTATION],
                      columns=[tr("glossary.col_symbol"), tr("glossary.col_meaning")]))  # fmt: skip
