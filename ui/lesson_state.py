"""Where a student is in a self-paced lesson: the lesson, the stop, the checkpoint answers; in the session and in
the link, so that a reload on any page (a new session) comes back to the same stop with the same answers.

The link carries `lesson=<id>`, `stop=<n>` (1-based) and `la=<answers>` (the checkpoint answers, encoded as the
quiz encodes its own: ui.quiz_state.encode, with a fingerprint of the lesson's questions, so answers made for an
older version of a lesson file are ignored). On any page but /lesson a valid `lesson` and `stop` make the lesson
active: the lesson bar (ui/lesson_bar.py) is drawn around the page; /lesson shows the lesson's overview and pauses
it ("Continue" goes back to the stop). Nothing is kept on the server.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import streamlit as st

import lessons
from explorer.quiz import Question
from ui import quiz_state
from ui.a11y import move_focus_to

LESSON_PARAM, STOP_PARAM, ANSWERS_PARAM = "lesson", "stop", "la"
URL_PARAMS = (LESSON_PARAM, STOP_PARAM, ANSWERS_PARAM)
_STATE = "_lesson"  # the Progress of the lesson in the link (or last left)
_PENDING = "_lesson_pending"  # a stop to enter: its settings go into the widgets, then its page is shown
_READ = "_lesson_url_read"
OVERVIEW = -1  # a pending "stop": the lesson's overview (Finish)
STOP_HEADING = "lesson_stop"  # the bar's "stop n of N" and the stop's title: the focus goes there on entering a stop
OVERVIEW_HEADING = "lesson_head"  # the overview's title: the focus goes there after Finish


@dataclass
class Progress:
    """One student's place in one lesson: the 0-based stop, the checkpoint answers (by question ident), and
    whether the lesson is active (drawn around the pages) or was left (its overview remembers it)."""

    lesson_id: str
    stop: int = 0
    answers: dict[str, dict[str, Any]] = field(default_factory=dict)
    active: bool = True

    @property
    def lesson(self) -> lessons.Lesson | None:
        return lessons.catalog().get(self.lesson_id)


def questions(lesson: lessons.Lesson, lang: str) -> list[Question]:
    """The lesson's checkpoint questions, in stop order (each drawn on its stop's setting)."""
    return [q for q in (lessons.question(s, lang) for s in lesson.checkpoints) if q is not None]


def _from_url() -> Progress | None:
    """The progress the link names, if its lesson exists; a tampered stop is clamped, tampered answers ignored."""
    raw_id = str(st.query_params.get(LESSON_PARAM, ""))[:40]
    lesson = lessons.catalog().get(raw_id) if raw_id else None
    if lesson is None:
        return None
    raw_stop = str(st.query_params.get(STOP_PARAM, ""))
    number = int(raw_stop) if raw_stop.isascii() and raw_stop.isdecimal() and len(raw_stop) <= 3 else None
    answers = quiz_state.decode(str(st.query_params.get(ANSWERS_PARAM, "")), questions(lesson, "en"))
    return Progress(lesson.id, lessons.clamp(lesson, (number or 1) - 1), answers, active=number is not None)


def progress() -> Progress | None:
    """This session's progress (read from the link on the session's first run)."""
    if not st.session_state.get(_READ):
        st.session_state[_READ] = True
        found = _from_url()
        if found is not None:
            st.session_state[_STATE] = found
    return st.session_state.get(_STATE)


def active() -> tuple[Progress, lessons.Lesson] | None:
    """The active lesson and the student's progress in it, or None."""
    p = progress()
    lesson = p.lesson if p is not None else None
    if p is None or lesson is None or not p.active:
        return None
    return p, lesson


def requested_lesson() -> str | None:
    """The lesson id the link names (on /lesson: which overview to show), unchecked."""
    raw = st.query_params.get(LESSON_PARAM)
    return str(raw)[:40] if raw is not None else None


def start(lesson_id: str, index: int) -> None:
    """Enter stop `index` of a lesson (a button's callback): the next run applies its settings and shows its page.
    The answers stay when the same lesson goes on; another lesson starts fresh."""
    p = st.session_state.get(_STATE)
    if p is None or p.lesson_id != lesson_id:
        p = Progress(lesson_id)
    p.stop, p.active = index, True
    st.session_state[_STATE] = p
    st.session_state[_PENDING] = index
    st.session_state[_READ] = True
    move_focus_to(STOP_HEADING)  # a screen reader reads the new stop; Tab goes on to its task and Next


def pause() -> None:
    """The lesson's overview is shown (/lesson): the bar goes, the progress stays for "Continue"."""
    p = st.session_state.get(_STATE)
    if p is not None:
        p.active = False
    st.session_state.pop(_PENDING, None)


def finish() -> None:
    """The last stop's Finish (a callback): the lesson pauses and its overview is shown next."""
    pause()
    st.session_state[_PENDING] = OVERVIEW
    move_focus_to(OVERVIEW_HEADING)


def pending() -> int | None:
    return st.session_state.get(_PENDING)


def landed() -> None:
    st.session_state.pop(_PENDING, None)


def params(p: Progress, lang: str) -> dict[str, str]:
    """The link's parameters for this progress: on a stop's page they make the lesson active, on /lesson they
    name the overview and where "Continue" goes."""
    out = {LESSON_PARAM: p.lesson_id, STOP_PARAM: str(p.stop + 1)}
    lesson = p.lesson
    if lesson is not None:
        qa = quiz_state.encode(questions(lesson, lang), p.answers)
        if qa:
            out[ANSWERS_PARAM] = qa
    return out


def write_url(p: Progress | None, lang: str) -> None:
    """Put the progress into the link (every run while a lesson is active, and on its overview)."""
    wanted = params(p, lang) if p is not None else {}
    for name in URL_PARAMS:
        if name in wanted:
            if st.query_params.get(name) != wanted[name]:
                st.query_params[name] = wanted[name]
        elif name in st.query_params:
            del st.query_params[name]
