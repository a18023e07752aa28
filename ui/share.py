"""The student link: the teacher's setting and step, the teacher's language pinned, no presentation settings.

A student's phone must not open a 770 px projector heatmap (present/large dropped), nor switch to the phone's
own language when the teacher's is English (lang is always written), and it opens at the step on the screen.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import streamlit as st

from explorer import Settings
from explorer.links import link as student_link
from explorer.links import link_query as student_query  # the query of a link that opens the setting (pure: testable)

__all__ = ["student_link", "student_link_panel", "student_query"]


def student_link_panel(tr, settings: Settings, lang: str) -> None:
    """Inside the share expander: the link as copyable text (st.code has a copy button; no clipboard permission)."""
    url = st.context.url or ""
    on_steps = urlsplit(url).path.rstrip("/").endswith("/steps")
    step = None
    if on_steps and "step_index" in st.session_state:
        step = int(st.session_state["step_index"]) + 1
    elif on_steps and str(st.query_params.get("step", "")).isdecimal():
        step = int(st.query_params["step"])
    st.markdown(f"**{tr('share.student_link')}**", help=tr("share.student_link_help"))
    st.code(student_link(url, settings, lang, step), language=None, wrap_lines=True)
