"""Lessons: the list of lessons, and one lesson's overview (objectives, outline, Start / Continue, the printable
handout). The stops themselves are the app's pages with the lesson bar around them (ui/lesson_bar.py)."""

import pandas as pd
import streamlit as st

import lessons
from explorer.quiz import check_answer
from frame import outside_frame
from lessons.pages import page_files, page_title_keys
from ui import lesson_state
from ui.context import get_context
from ui.lesson_handout import handout_buttons
from ui.quiz_view import md
from ui.tables import show_table

if outside_frame():
    st.stop()
ctx = get_context()
tr, lang = ctx.t, ctx.lang
catalog = lessons.catalog()
wanted = lesson_state.requested_lesson()
lesson = catalog.get(wanted) if wanted else None


def lesson_list() -> None:
    st.markdown(tr("lesson.intro"))
    if wanted:
        st.warning(tr("lesson.unknown", id=md(wanted)), icon=":material/search_off:")
    for item in catalog.lessons:
        with st.container(border=True):
            st.subheader(item.title(lang), anchor=False)
            st.markdown(md(item.summary(lang)))
            st.caption(tr("lesson.facts", stops=len(item.stops), minutes=f"{item.minutes:g}",
                          questions=len(item.checkpoints)))  # fmt: skip
            st.page_link(page_files()["lesson"], label=tr("lesson.open"), icon=":material/school:",
                         query_params={lesson_state.LESSON_PARAM: item.id})  # fmt: skip
    if catalog.errors:
        with st.expander(tr("lesson.file_errors", n=len(catalog.errors)), icon=":material/error:"):
            for err in catalog.errors:
                st.error(md(err.message(lang)))


def overview(item: lessons.Lesson) -> None:
    p = lesson_state.progress()
    if p is None or p.lesson_id != item.id or not (p.stop or p.answers):
        p = None  # nothing to continue: a first visit (or a link to stop 1 with no answers) just starts
    lesson_state.pause()
    st.markdown(md(item.summary(lang)))
    st.caption(tr("lesson.facts", stops=len(item.stops), minutes=f"{item.minutes:g}",
                  questions=len(item.checkpoints)))  # fmt: skip
    st.subheader(tr("lesson.objectives"), anchor=False)
    st.markdown("\n".join(f"- {md(o)}" for o in item.objectives(lang)))
    questions = {q.ident: q for q in lesson_state.questions(item, lang)}
    answers = p.answers if p else {}
    done = [i for i in questions if answers.get(i, {}).get("r")]
    right = [i for i in done if is_right(questions[i], answers[i].get("a"))]
    if p is not None:
        st.info(tr("lesson.where", n=p.stop + 1, total=len(item.stops), done=len(done), asked=len(questions),
                   right=len(right)), icon=":material/bookmark:")  # fmt: skip
    c1, c2 = st.columns(2)
    c1.button(tr("lesson.start"), key="lesson_start", on_click=lesson_state.start, args=(item.id, 0),
              icon=":material/play_arrow:", type="primary" if p is None else "secondary", width="stretch")  # fmt: skip
    if p is not None:
        c2.button(tr("lesson.continue", n=p.stop + 1), key="lesson_continue", on_click=lesson_state.start,
                  args=(item.id, p.stop), icon=":material/resume:", type="primary", width="stretch")  # fmt: skip
    st.subheader(tr("lesson.outline"), anchor=False)
    titles = page_title_keys()
    rows = [{
        "#": s.number, tr("lesson.col.stop"): s.title(lang), tr("lesson.col.page"): tr(titles[s.page]),
        tr("lesson.col.minutes"): f"{s.minutes:g}",
        tr("lesson.col.checkpoint"): checkpoint_mark(lessons.question(s, lang), answers),
    } for s in item.stops]  # fmt: skip
    show_table(pd.DataFrame(rows).set_index("#"))
    jump = st.selectbox(tr("lesson.jump"), range(len(item.stops)), key="lesson_jump",
                        format_func=lambda i: f"{i + 1}. {item.stops[i].title(lang)}")  # fmt: skip
    st.button(tr("lesson.go"), key="lesson_go", on_click=lesson_state.start, args=(item.id, jump),
              icon=":material/arrow_forward:")  # fmt: skip
    handout_buttons(ctx, item)
    if p is not None:
        lesson_state.write_url(p, lang)
    st.page_link(page_files()["lesson"], label=tr("lesson.all"), icon=":material/arrow_back:")


def is_right(q, given) -> bool:
    return given not in (None, "") and check_answer(q, given)


def checkpoint_mark(q, answers: dict) -> str:
    """The outline's checkpoint column: none, open, revealed, or answered right (words, not only a colour)."""
    if q is None:
        return ""
    entry = answers.get(q.ident, {})
    if not entry.get("r"):
        return tr("lesson.mark.open")
    return tr("lesson.mark.right") if is_right(q, entry.get("a")) else tr("lesson.mark.revealed")


with st.container(key=lesson_state.OVERVIEW_HEADING):  # where the focus goes after a lesson's Finish
    st.title(tr("lesson.title_of", title=lesson.title(lang)) if lesson else tr("lesson.title"))
if lesson is None:
    lesson_list()
else:
    overview(lesson)
