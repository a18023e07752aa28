"""How the console leads the class: its sidebar's settings and its choices (`plan`: the page, the step, the stop) are
the class's state, published to the room whenever they change (`publish`, run by the frame on every run of a
console). When another screen moved the class (the projector's clicker, a second console), the console takes the
room's state (`adopt`): its choices at once, its settings into the widgets before they are drawn (`before_settings`),
and it publishes nothing until its widgets show them (a browser's older values can come back once or twice)."""

from __future__ import annotations

import json
from typing import Any

import streamlit as st

import lessons
from classroom import plan
from classroom.session import (
    CODE,
    CONSOLE,
    DOWN,
    accepted,
    error,
    leave,
    rooms,
    screen_pass,
    state_json,
    state_settings,
)
from liveclass import LiveError, StoreUnavailable
from ui.context import Context
from ui.export import apply_to_widgets
from ui.present import pressed

CLASS = "_live_class"  # what the class shows (plan's state without settings and language)
PUBLISHED = "_live_published"  # the state JSON last published, or taken from the room
PENDING = "_live_pending"  # a state whose settings go into the widgets before they are drawn
RETRIES = "_live_retries"  # runs that did not yet show the pending settings (the browser's older values)
LAST_PRESS = "_live_last_press"
KEYS = "live_console_keys"
CLASS_KEYS = ("page", "step", "present", "lesson", "stop", "stop_at", "started", "join")
MAX_RETRIES = 5


def adopt(state: dict[str, Any]) -> None:
    """The room's state becomes this console's: the class keys now, the settings before the widgets are drawn."""
    ss = st.session_state
    ss[CLASS] = {k: state.get(k) for k in CLASS_KEYS if k in state}
    ss[PUBLISHED] = state_json(state)
    if state.get("settings"):
        ss[PENDING], ss[RETRIES] = state, 0


def before_settings() -> None:
    """Start of a console's run: settings to show (a stop, another screen's change) go into the widgets."""
    pending = st.session_state.get(PENDING)
    if pending:
        settings = state_settings(pending)
        if settings is not None:
            apply_to_widgets(settings)


def class_state(ctx: Context) -> dict[str, Any]:
    """What the class shows now: this console's choices and its sidebar's settings."""
    from explorer.settings_io import settings_to_json

    return {**st.session_state.get(CLASS, {}), "settings": settings_to_json(ctx.settings, "en"), "lang": ctx.lang}


def same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """The same class state, the settings compared as settings (their JSON text may differ in form)."""
    if {k: v for k, v in a.items() if k != "settings"} != {k: v for k, v in b.items() if k != "settings"}:
        return False
    return a.get("settings") == b.get("settings") or state_settings(a) == state_settings(b)


def publish(ctx: Context) -> None:
    """Every run of an accepted console: the class's state goes to the room when it changed, made on the state it was
    made from (another screen's move meanwhile is taken, not overwritten)."""
    ss = st.session_state
    if not accepted(CONSOLE):
        return
    state = class_state(ctx)
    pending = ss.get(PENDING)
    if pending is not None:
        if state_settings(state) != state_settings(pending) and ss.get(RETRIES, 0) < MAX_RETRIES:
            ss[RETRIES] = ss.get(RETRIES, 0) + 1  # the widgets still show older values: once more
            st.rerun(scope="app")
        ss.pop(PENDING, None)
    base = json.loads(ss[PUBLISHED]) if ss.get(PUBLISHED) else None
    if base is not None and same(state, base):
        return
    try:
        rooms().lead(ss[CODE], screen_pass(), state, base=base)
        ss[PUBLISHED] = state_json(state)
        ss[DOWN] = False
    except StoreUnavailable:
        ss[DOWN] = True
    except LiveError as err:
        if err.code == "moved":  # another screen moved the class at the same moment: its move wins, this one is dropped
            adopt(rooms().room(ss[CODE]).state)
            st.rerun(scope="app")
        leave()  # the room ended, or this console was closed by another
        error(err)


def set_class(**changes: Any) -> None:
    ss = st.session_state
    ss[CLASS] = {**ss.get(CLASS, {}), **changes}


def move(presses: list[int]) -> None:
    """Next/Previous (buttons or clicker keys): the lesson's stops, or /steps's steps."""
    ss = st.session_state
    ctx: Context = ss["_ctx"]
    state = class_state(ctx)
    moved = plan.move(state, presses)
    if moved.get("stop") != state.get("stop") and moved.get("settings") != state.get("settings"):
        ss[PENDING], ss[RETRIES] = moved, 0
    ss[CLASS] = {k: moved.get(k) for k in CLASS_KEYS if k in moved}


def on_presses() -> None:
    ss = st.session_state
    new = [(n, d) for n, d in pressed(KEYS) if n > ss.get(LAST_PRESS, 0)]
    if new:
        move([d for _, d in new])
        ss[LAST_PRESS] = new[-1][0]


def go_to(index: int) -> None:
    ss = st.session_state
    state = class_state(ss["_ctx"])
    lesson = plan.lesson_of(state)
    if lesson is not None:
        moved = plan.at_stop(state, lesson, index)
        ss[PENDING], ss[RETRIES] = moved, 0
        ss[CLASS] = {k: moved.get(k) for k in CLASS_KEYS if k in moved}


def pick_lesson() -> None:
    ss = st.session_state
    lesson = lessons.catalog().get(str(ss.get("console_lesson_now") or ""))
    state = class_state(ss["_ctx"])
    if lesson is None:
        set_class(lesson="", stop=0)
        return
    moved = plan.at_stop(state, lesson, 0)
    ss[PENDING], ss[RETRIES] = moved, 0
    ss[CLASS] = {k: moved.get(k) for k in CLASS_KEYS if k in moved}
