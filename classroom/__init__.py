"""The live class: a teacher leads, students follow and answer. One module per screen (console, projector, follower,
join) over the room store `liveclass`, which knows nothing of pages; `session` holds what they share.

The frame calls three hooks on every run: `before_settings` (a join link, a pending state to apply to the settings
widgets), `on_page` (after the navigation is known: the teacher's panel and publication, the student's bar, which may
navigate to the teacher's page) and `after_page` (the page was drawn to the end).
"""

from __future__ import annotations

import time
from typing import Any

import streamlit as st

from classroom import console, follower, projector
from classroom.follower import after_page
from classroom.join import join
from classroom.session import (
    APPLIED,
    BEAT_AT,
    CODE,
    ECHOES,
    FOLLOW,
    MSG,
    MSG_SECONDS,
    OPEN,
    PENDING,
    ROLE,
    SHOWN,
    SID,
    URL_DONE,
    say,
    state_of,
)
from explorer.settings_io import SettingsFileError, settings_from_json
from liveclass import follow
from ui import handover
from ui.context import Context
from ui.export import apply_to_widgets

handover.install()  # Streamlit 1.67 can lose the end of a page with a fragment timer (ui/handover.py)

__all__ = ["after_page", "before_settings", "on_page"]


def before_settings() -> None:
    """Start of every run, before the settings widgets: join from a link (first run), apply a pending state."""
    ss = st.session_state
    if not ss.get(URL_DONE):
        ss[URL_DONE] = True
        raw = st.query_params.get("join")
        if raw is not None and not join(raw, st.query_params.get("me")):
            for name in ("join", "me"):
                if name in st.query_params:
                    del st.query_params[name]
    pending = ss.get(PENDING)  # kept until a run has shown it (on_page): a run cut short applies it again
    if pending:
        try:
            settings, _ = settings_from_json(str(pending.get("settings", "")))
        except SettingsFileError:
            say("warning", "live.err.bad_state")
            return
        apply_to_widgets(settings)
        ss["step_index"] = int(pending.get("step", 0)) if str(pending.get("step", 0)).isdecimal() else 0
        ss["present"] = bool(pending.get("present", False))


def on_page(ctx: Context, page: str, slot: Any) -> None:
    """After the navigation is known, before the page: the sidebar panel (into `slot`), the teacher's
    publication of their state, the student's bar (which may navigate to the teacher's page)."""
    ss, tr = st.session_state, ctx.t
    if ss.get(ROLE) == "teacher":
        console.publish(ctx, page)  # first: a refusal (not the teacher) leaves the room before anything is drawn
    message = ss.get(MSG)
    if message and time.monotonic() - message[3] < MSG_SECONDS:
        kind, key, params, _ = message
        getattr(st, kind)(tr(key, **params), icon=":material/co_present:")
    elif message:
        del ss[MSG]
    role = ss.get(ROLE)
    with slot:
        if role == "teacher":
            console.panel(ctx, page)
        elif role == "student":
            follower.panel(tr)
        else:
            console.start_panel(tr)
    if role == "teacher":
        projector.main(ctx)
    elif role == "student":
        shown = state_of(ctx, page)
        if ss.get(FOLLOW) and ss.get(APPLIED) is not None:
            verdict = follow.decide(shown, ss[APPLIED], ss.get(ECHOES, []), time.monotonic())
            if verdict == follow.AGAIN:  # our own navigation did not land (the browser's older request won): go again
                ss[APPLIED] = None
                ss.pop(PENDING, None)
            elif verdict == follow.EXPLORE:  # the student changed something themselves: exploring
                ss[FOLLOW] = False
                ss[BEAT_AT] = 0.0
                ss.pop(PENDING, None)
            else:
                ss.pop(PENDING, None)
        elif ss.get(APPLIED) is not None:
            ss.pop(PENDING, None)
        ss[SHOWN] = shown
        ss[OPEN] = True  # until after_page: a run cut short after this point never drew the followed state
        if st.query_params.get("join") != ss[CODE] or st.query_params.get("me") != ss[SID]:
            st.query_params["join"], st.query_params["me"] = ss[CODE], ss[SID]
        follower.bar(tr, page)
