"""Glossary: the app's vocabulary (i18n/glossary.py), English and Chinese with d2l-zh's words, and the symbols."""

import pandas as pd
import streamlit as st

from frame import outside_frame
from i18n.glossary import GLOSSARY, NOTATION
from ui.context import get_context

if outside_frame():
    st.stop()
ctx = get_context()
tr, zh = ctx.t, ctx.lang == "zh"

st.title(tr("glossary.title"))
st.markdown(tr("glossary.intro"))
query = st.text_input(tr("glossary.search"), key="glossary_q", max_chars=40).strip().lower()
shown = [term for term in GLOSSARY if not query or any(
    query in cell.lower() for cell in (term.en, term.zh, term.d2l, *term.avoid, term.note, term.note_zh))]
if not shown:
    st.info(tr("glossary.none", q=query))
else:  # two narrow tables rather than one wide one: both stay readable on a phone
    words = [(term.en, term.zh, term.d2l or "—") for term in shown]
    st.table(pd.DataFrame(words, columns=[tr(f"glossary.col_{c}") for c in ("en", "zh", "d2l")])
             .set_index(tr("glossary.col_en")))  # fmt: skip
    notes = [(term.zh, "、".join(term.avoid) or "—", (term.note_zh if zh else term.note) or "—")
             for term in shown if term.avoid or term.note]  # fmt: skip
    if notes:
        st.subheader(tr("glossary.variants"))
        st.table(pd.DataFrame(notes, columns=[tr(f"glossary.col_{c}") for c in ("zh", "avoid", "note")])
                 .set_index(tr("glossary.col_zh")))  # fmt: skip

st.header(tr("glossary.notation"))
st.markdown(tr("glossary.notation_text"))
st.table(pd.DataFrame([(f"${tex}$", zh_text if zh else en) for tex, en, zh_text in NOTATION],
                      columns=[tr("glossary.col_symbol"), tr("glossary.col_meaning")]))  # fmt: skip
