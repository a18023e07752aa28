"""The self-paced lesson around a page: a bar on top (the lesson, the stop, what to look at, Previous/Next) and the
stop's checkpoint question under the page. The page itself is the app's own page at the stop's setting.

Why around the page and not inside /lesson: each stop then shows exactly what the class would see on that page
(every chart, widget and explanation, at the stop's setting), nothing is drawn twice, and a student may explore
the page and come back. The frame calls, in order: before_settings() (a stop being entered puts its settings into
the sidebar's widgets), on_page() (goes to the stop's page, draws the bar), after_page() (the checkpoint).
"""

from __future__ import annotations

import streamlit as st

import lessons
from explorer.quiz_llm import OWN_SIZES
from lessons.pages import page_files, page_title_keys
from ui import lesson_state
from ui.context import Context
from ui.export import apply_to_widgets
from ui.quiz_view import md, question_card

LESSON_PAGE = "lesson"


def before_settings() -> None:
    """Start of a run, before the settings widgets: a stop being entered puts its settings into them."""
    got = lesson_state.active()
    index = lesson_state.pending()
    if got is None or index is None or index == lesson_state.OVERVIEW:
        return
    _, lesson = got
    apply_to_widgets(lesson.stop(index).settings)


def lesson_step(url: str) -> int | None:
    """On /steps during a lesson stop with a step: the 0-based step to show alone; else None."""
    got = lesson_state.active()
    if got is None:
        return None
    p, lesson = got
    stop = lesson.stop(p.stop)
    return stop.step - 1 if stop.page == url and stop.step is not None else None


def on_page(ctx: Context, url: str) -> None:
    """After the navigation is known, before the page: go to the stop's page, keep the link, draw the bar."""
    p = lesson_state.progress()
    index = lesson_state.pending()
    if index == lesson_state.OVERVIEW and p is not None:
        lesson_state.landed()
        if url != LESSON_PAGE:
            st.switch_page(page_files()[LESSON_PAGE], query_params=lesson_state.params(p, ctx.lang))
    got = lesson_state.active()
    if got is None:
        return
    p, lesson = got
    stop = lesson.stop(p.stop)
    if index is not None:  # a stop being entered: on its page (switch_page ends this run and starts that page's)
        if url != stop.page:
            st.switch_page(page_files()[stop.page], query_params=lesson_state.params(p, ctx.lang))
        lesson_state.landed()
    if url == LESSON_PAGE:
        return  # the lesson page shows the overview (the lesson pauses there) and writes the link itself
    lesson_state.write_url(p, ctx.lang)
    _top(ctx, p, lesson, stop, url)


def _nav(ctx: Context, lesson: lessons.Lesson, stop: lessons.Stop, where: str) -> None:
    """Previous / Next (Finish on the last stop) and the way out to the lesson's overview."""
    tr, last = ctx.t, len(lesson.stops) - 1
    prev_col, next_col, out_col = st.columns([1, 1, 1.2], vertical_alignment="center")
    prev_col.button(tr("lesson.prev"), key=f"lesson_prev_{where}", on_click=lesson_state.start,
                    args=(lesson.id, stop.index - 1), disabled=stop.index == 0, icon=":material/arrow_back:",
                    width="stretch")  # fmt: skip
    if stop.index < last:
        next_col.button(tr("lesson.next"), key=f"lesson_next_{where}", on_click=lesson_state.start,
                        args=(lesson.id, stop.index + 1), icon=":material/arrow_forward:", type="primary",
                        width="stretch")  # fmt: skip
    else:
        next_col.button(tr("lesson.finish"), key=f"lesson_finish_{where}", on_click=lesson_state.finish,
                        icon=":material/flag:", type="primary", width="stretch")  # fmt: skip
    p = lesson_state.progress()
    out_col.page_link(page_files()[LESSON_PAGE], label=tr("lesson.outline"), icon=":material/list:",
                      query_params=lesson_state.params(p, ctx.lang) if p else None)  # fmt: skip


def _top(ctx: Context, p: lesson_state.Progress, lesson: lessons.Lesson, stop: lessons.Stop, url: str) -> None:
    tr, lang, total = ctx.t, ctx.lang, len(lesson.stops)
    with st.container(border=True, key="lesson_bar"):
        with st.container(key=lesson_state.STOP_HEADING):  # where the focus goes on entering a stop
            st.caption(f":material/school: {md(lesson.title(lang))} · "
                       + tr("lesson.stop_of", n=stop.number, total=total, minutes=f"{stop.minutes:g}"))  # fmt: skip
            st.progress(stop.number / total)
            st.markdown(f"**{md(stop.title(lang))}**")
        if url != stop.page:
            page = tr(page_title_keys()[stop.page])
            st.info(tr("lesson.elsewhere", page=page), icon=":material/explore:")
            st.button(tr("lesson.back_to_stop", page=page), key="lesson_back", on_click=lesson_state.start,
                      args=(lesson.id, stop.index), icon=":material/undo:")  # fmt: skip
        else:
            st.markdown(stop.task(lang))
            if ctx.settings != stop.settings:
                st.warning(tr("lesson.changed"), icon=":material/tune:")
                st.button(tr("lesson.restore"), key="lesson_restore", on_click=lesson_state.start,
                          args=(lesson.id, stop.index), icon=":material/restart_alt:")  # fmt: skip
            if stop.checkpoint is not None:
                st.caption(tr("lesson.checkpoint_below"))
        _nav(ctx, lesson, stop, "top")


def after_page(ctx: Context, url: str) -> None:
    """After the page: the stop's checkpoint question (on the stop's page), and Previous / Next again."""
    if url == LESSON_PAGE:
        return
    got = lesson_state.active()
    if got is None:
        return
    p, lesson = got
    stop = lesson.stop(p.stop)
    tr, lang = ctx.t, ctx.lang
    st.divider()
    q = lessons.question(stop, lang) if url == stop.page else None
    if q is not None:
        st.subheader(tr("lesson.checkpoint"), anchor="checkpoint")
        st.caption(tr("lesson.checkpoint_own_sizes") if q.kind in OWN_SIZES else tr(
            "lesson.checkpoint_setting", d=stop.settings.d_model, h=stop.settings.n_heads,
            mask=tr(f"mask.{stop.settings.mask}")))  # fmt: skip
        number = lesson.checkpoints.index(stop) + 1
        question_card(q, f"lesson_{lesson.id}_{q.ident}", p.answers.get(q.ident, {}), p.answers, ctx.t, lang,
                      tr("lesson.checkpoint_n", n=number, total=len(lesson.checkpoints)))  # fmt: skip
    _nav(ctx, lesson, stop, "bottom")
