"""The lesson overview's handout downloads: print-ready HTML in either language, for students or with the speaker
notes for the teacher (lessons/handout.py builds it; built on click, not on every run)."""

from __future__ import annotations

import streamlit as st

import i18n
import lessons
from lessons.handout import handout_html, handout_name
from ui.context import Context


def handout_buttons(ctx: Context, lesson: lessons.Lesson) -> None:
    tr = ctx.t
    st.subheader(tr("lesson.handout"), anchor=False)
    st.caption(tr("lesson.handout_help"))
    notes = st.toggle(tr("lesson.handout_notes"), key="lesson_handout_notes")
    cols = st.columns(len(i18n.LANGS))
    for col, lang in zip(cols, i18n.LANGS, strict=True):
        # the lesson and the language, not the HTML: a session keeps this callable, and must not keep 1 MB with it
        col.download_button(
            tr("lesson.download", language=i18n.LANG_NAMES[lang]), data=lambda lang=lang: handout_html(
                lesson, lang, notes), file_name=handout_name(lesson, lang, notes), mime="text/html",
            key=f"lesson_handout_{lang}", icon=":material/print:", width="stretch", on_click="ignore",
        )  # fmt: skip
