"""The class's route: what the console publishes and the clicker moves through. With a lesson (the `lessons` model),
its stops; without one, the page the teacher picks, and on /steps its nine steps. Plain values, no Streamlit.

The state the class follows is a dict: `page` (a url path), `settings` (the settings file's JSON), `step` (0-based,
the step /steps shows), `present` (one step at a time), and what only the teacher's screens read: `lesson` (its id
or ''), `stop` (0-based), `stop_at` and `started` (when the stop and the class began, seconds since the epoch),
`join` (the join screen on the projector), `lang` (the projector's language).
"""

from __future__ import annotations

import time
from typing import Any

import lessons
from explorer import Settings
from explorer.settings_io import settings_to_json
from lessons import Lesson, Stop

STEPS_PAGE = "steps"


def lesson_of(state: dict[str, Any]) -> Lesson | None:
    """The lesson a state walks (None: the teacher picks the pages)."""
    lesson_id = state.get("lesson")
    return lessons.catalog().get(lesson_id) if isinstance(lesson_id, str) and lesson_id else None


def stop_of(state: dict[str, Any]) -> Stop | None:
    lesson = lesson_of(state)
    return None if lesson is None else lesson.stop(lessons.clamp(lesson, state.get("stop", 0)))


def at_stop(state: dict[str, Any], lesson: Lesson, index: int, now: float | None = None) -> dict[str, Any]:
    """`state` moved to stop `index` of `lesson` (clamped): its page, settings and step, the clock of the stop."""
    stop = lesson.stop(lessons.clamp(lesson, index))
    return {**state, "lesson": lesson.id, "stop": stop.index, "page": stop.page,
            "settings": settings_to_json(stop.settings, "en"), "step": (stop.step or 1) - 1, "present": True,
            "stop_at": time.time() if now is None else now}  # fmt: skip


def start(lesson: Lesson | None, settings: Settings, lang: str, now: float | None = None) -> dict[str, Any]:
    """A new class's state: the lesson's first stop, or (no lesson) the home page at `settings`."""
    now = time.time() if now is None else now
    base = {"page": "home", "settings": settings_to_json(settings, "en"), "step": 0, "present": True, "lesson": "",
            "stop": 0, "stop_at": now, "started": now, "join": True, "lang": lang}  # fmt: skip
    return base if lesson is None else at_stop(base, lesson, 0, now)


def move(state: dict[str, Any], presses: list[int], now: float | None = None) -> dict[str, Any]:
    """`state` after clicker presses in order (+1 next, -1 previous): a lesson's stops, or the steps of /steps
    (clamped at both ends, press by press: three presses are three moves, a press at the end stays at the end)."""
    lesson = lesson_of(state)
    if lesson is not None:
        index = lessons.clamp(lesson, state.get("stop", 0))
        for press in presses:
            index = min(max(index + press, 0), len(lesson.stops) - 1)
        return state if index == state.get("stop") else at_stop(state, lesson, index, now)
    if state.get("page") != STEPS_PAGE:
        return state
    step = state.get("step", 0) if isinstance(state.get("step"), int) else 0
    for press in presses:
        step = min(max(step + press, 0), lessons.N_STEPS - 1)
    return {**state, "step": step}


def minutes_spent(state: dict[str, Any], now: float | None = None) -> tuple[float, float]:
    """(minutes on this stop, minutes since the class began)."""
    now = time.time() if now is None else now
    return max(0.0, now - float(state.get("stop_at", now))) / 60, max(0.0, now - float(state.get("started", now))) / 60
