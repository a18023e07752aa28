"""Where the notes are wrong: every entry of the one errata list, with the note's words, what is true, and the
live number on the current setting that shows it."""

import streamlit as st

from explorer.errata import BY_ID, ERRATA, NOTES, evidence
from frame import outside_frame
from ui.context import get_context
from ui.nav import PAGES, page_icon

if outside_frame():
    st.stop()
ctx = get_context()
tr, sc = ctx.t, ctx.scene
files = {url: path for path, url, *_ in PAGES}
titles = {url: title for _, url, title, *_ in PAGES}

st.title(tr("page.errata"))
st.markdown(tr("errata.intro"))
chosen = st.pills(tr("errata.filter"), NOTES, selection_mode="multi", default=list(NOTES), key="errata_notes",
                  format_func=lambda n: tr("errata.note_n", n=n))  # fmt: skip
live = evidence(sc)
linked = BY_ID.get(str(st.query_params.get("erratum", "")))  # a text that cites an erratum links here: it comes first
shown = [e for e in ERRATA if e["note"] in (chosen or NOTES)]
if linked is not None:
    shown = [linked] + [e for e in shown if e is not linked]
st.caption(tr("errata.count", n=len(shown)))
for e in shown:
    with st.container(border=True):
        if e is linked:
            st.caption(tr("errata.linked"))
        eid = e["id"]
        st.subheader(f"{tr('errata.note_n', n=e['note'])} · {tr(f'errata.{eid}.title')}", anchor=eid)
        if e.get("kind") == "clarification":
            st.caption(tr("errata.clarification"))
        st.caption(tr("errata.the_note", line=e["line"]))
        st.code(e["quote"], language=None, wrap_lines=True)
        st.markdown(f"**{tr('errata.what_is_true')}** " + tr(f"errata.{eid}.true"))
        if eid in live:
            st.markdown(f"**{tr('errata.live')}** " + tr(f"errata.{eid}.evidence", **live[eid]))
        if e["page"]:
            st.page_link(files[e["page"]], label=f"{tr('errata.see')} {tr(titles[e['page']])}",
                         icon=page_icon(e["page"]))  # fmt: skip
