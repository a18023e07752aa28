"""A folded "the notes are wrong here" box that links a page to the errata page (entries from one list)."""

from __future__ import annotations

import streamlit as st

from explorer.errata import for_page
from ui.context import Context
from ui.nav import page_icon


def errata_links(ctx: Context, url: str) -> None:
    """The titles of the errata this page demonstrates, and a link to all of them."""
    ids = for_page(url)
    if not ids:
        return
    tr = ctx.t
    # drawn only while open (a rerun opens it): every run of the page, each following phone's, skips its link and list
    box = st.expander(tr("errata.here", n=len(ids)), icon=":material/rule:", key=f"errata_open_{url}",
                      on_change="rerun")  # fmt: skip
    if not box.open:
        return
    with box:
        st.markdown("\n".join(f"- {tr(f'errata.{i}.title')}" for i in ids))
        st.page_link("app_pages/errata.py", label=tr("page.errata"), icon=page_icon("errata"))
