"""How a following phone learns that its class moved (classroom/watch.js): its page polls the server's version route
(liveclass/http.py, mounted by serve.py), which is also the student's heartbeat, and reruns the student's bar only
when the version moved, the seat was given back, the server asked for a run, or the page's run ended without the mark
of what it should show (a run cut short: follower.mark_drawn). When what the class's page shows moved (the route's
`view`: page, settings, step), it asks for the whole page at once (page_watch), not for the bar, which would then ask
for the page: one run instead of two for each phone at each of the teacher's moves. An idle phone costs the server
one small HTTP answer every POLL_STUDENT seconds instead of a Streamlit run of the bar (3-4 ms of a core each: 200
idle phones kept more than a core busy)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlencode

import streamlit as st
from streamlit import config

from classroom.session import POLL_STUDENT
from liveclass.http import PATH

DRAWN_MARK = "mha-drawn"  # the class of the mark at the end of a followed page (follower.mark_drawn)

KEY = "live_watch"
PAGE_KEY = "live_watch_page"  # the page's own element, outside the bar (page_watch)


@st.cache_resource(show_spinner=False)
def _component():
    js = Path(__file__).with_name("watch.js").read_text(encoding="utf-8")
    return st.components.v2.component("mha_watch", js=js, isolate_styles=False)


def route(code: str, seat: str = "", following: bool = False) -> str:
    """The version route of room `code` (with a seat: also that student's heartbeat), under the server's base path
    (server.baseUrlPath, if any)."""
    base = str(config.get_option("server.baseUrlPath") or "").strip("/")
    query = urlencode({"room": code, **({"seat": seat, "following": int(following)} if seat else {})})
    return f"{'/' + base if base else ''}{PATH}?{query}"


def watch(code: str, seat: str, following: bool, seen: int | None, now: bool, want: str = "") -> None:
    """In the student's bar (a fragment): the element that asks for the bar's next run. `seen` is the room's version
    this run read; `now` asks for a run at once (the page just changed); `want`, for a following phone, the digest of
    what the page should show: when the page's run ended without the mark of it at its end (a run cut short), the
    watch asks again (follower.mark_drawn)."""
    data = {"url": route(code, seat, following), "seen": seen, "poll": int(POLL_STUDENT * 1000), "now": bool(now),
            "want": want, "mark": DRAWN_MARK, "run": st.session_state.get("_live_watch_runs", 0)}  # fmt: skip
    st.session_state["_live_watch_runs"] = data["run"] + 1  # every run's data differs: the watch starts afresh
    _component()(data=data, key=KEY, on_tick_change=lambda: None)


def page_watch(on_go: Callable[[], None]) -> None:
    """Outside the bar's fragment, on a student's page: the element whose trigger runs the whole page (`on_go` first).
    The watch asks for it when the route's `view` is not what the page shows (`want`)."""
    _component()(data={"page": True}, key=PAGE_KEY, on_go_change=on_go)
