"""Joining a live class: by the link's code (`?join=`), or by typing the code in the home page's join box."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from classroom.session import CODE, FOLLOW, ROLE, SENT, SID, error, leave, rooms, say
from liveclass import LiveError


def join(raw_code: object, sid: object = None) -> bool:
    """Join a room as a student; a refusal becomes the one message of the next run."""
    try:
        code, sid = rooms().join(raw_code, sid)
    except LiveError as err:
        error(err)
        return False
    leave()
    st.session_state.update({ROLE: "student", CODE: code, SID: sid, FOLLOW: True, SENT: {}})
    st.query_params["join"], st.query_params["me"] = code, sid
    say("success", "live.joined", room=code)
    return True


def _join_typed() -> None:
    join(st.session_state.get("live_join_code", ""))


def join_box(tr: Callable[..., str]) -> None:
    """Home page: type the code the teacher shows."""
    if st.session_state.get(ROLE):
        return
    with st.container(border=True):
        left, right = st.columns([3, 1], vertical_alignment="bottom")
        left.text_input(tr("live.join_label"), key="live_join_code", max_chars=16, placeholder="ABC234",
                        help=tr("live.join_help"))  # fmt: skip
        right.button(tr("live.join"), key="live_join_btn", on_click=_join_typed, icon=":material/login:",
                     width="stretch")  # fmt: skip
