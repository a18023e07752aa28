"""What every classroom screen shares: the room store, this session's classroom keys, messages, the join link,
question texts in the reader's language. The rooms themselves live in `liveclass` (a SQLite file or Redis)."""

from __future__ import annotations

import os
import re
import time
import urllib.parse
from collections.abc import Callable
from typing import Any

import segno
import streamlit as st

from explorer.settings_io import settings_to_json
from liveclass import LiveError, Rooms, open_rooms
from ui.context import Context
from ui.nav import PAGES

POLL_STUDENT = 0.5  # seconds between a student's checks of the room's version
POLL_TEACHER = 2.0  # seconds between refreshes of the teacher's counts and answers
VERSION_AGE = 0.1  # seconds a version read by this process serves its other students (Rooms.version)
BEAT = 5.0  # seconds between a student's heartbeats (presence counts a student for 15 s)

ROLE, CODE, KEY, SID = "_live_role", "_live_code", "_live_key", "_live_sid"
FOLLOW, APPLIED, PENDING, SEEN, ROOM = "_live_follow", "_live_applied", "_live_pending", "_live_seen", "_live_room"
MSG, PUBLISHED, KEY_SHOWN, BEAT_AT, DOWN = "_live_msg", "_live_published", "_live_key_shown", "_live_beat", "_live_down"
SENT, URL_DONE, ECHOES, SHOWN = "_live_sent", "_live_url_done", "_live_echoes", "_live_shown"
OPEN, REDRAWS = "_live_open", "_live_redraws"
MAX_REDRAWS = 20  # full reruns asked for one teacher's state whose page was never drawn to the end


MSG_SECONDS = 10.0  # a message stays through the reruns of a page's opening, then goes


@st.cache_resource(show_spinner=False)
def _open(redis_url: str, db_path: str) -> Rooms:
    """One store per server process and configuration (the arguments only key the cache)."""
    return open_rooms()


def rooms() -> Rooms:
    """The room store; StoreUnavailable when it cannot even be opened (a failed open is not cached)."""
    return _open(os.environ.get("MHA_REDIS_URL", ""), os.environ.get("MHA_LIVE_DB", ""))


def md(text: object) -> str:
    """User and token text inside markdown: every markdown, LaTeX and HTML character literal."""
    return re.sub(r"([\\`*_{}\[\]()#+\-!|$<>~&])", r"\\\1", str(text))


def say(kind: str, key: str, **params: Any) -> None:
    st.session_state[MSG] = (kind, key, params, time.monotonic())


def error(err: LiveError) -> None:
    say("warning", f"live.err.{err.code}", **err.params)


def state_of(ctx: Context, page: str) -> dict[str, Any]:
    """What a student follows: the page, the settings (language-neutral JSON), the step, presentation mode."""
    step = int(st.session_state.get("step_index", 0) or 0)
    return {"page": page, "settings": settings_to_json(ctx.settings, "en"), "step": step, "present": bool(ctx.present)}


def join_link(code: str) -> str:
    """`<app address>/?join=CODE`, the address as the browser sees it (behind a proxy too)."""
    base = ""
    try:
        base = st.context.url or ""
    except Exception:  # no browser context (AppTest)
        base = ""
    parts = urllib.parse.urlsplit(base or "http://localhost:8501/")
    path = parts.path.rstrip("/")
    last = path.rsplit("/", 1)[-1]
    if last in {p[1] for p in PAGES}:
        path = path[: -len(last) - 1]
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, f"{path}/", f"join={code}", ""))


def qr_svg(text: str) -> str:
    """A QR code of `text` as SVG (drawn on the server, no network), scaled to fill its box."""
    return segno.make(text, error="m").svg_inline(scale=10, border=2, omitsize=True)


def leave() -> None:
    for key in (ROLE, CODE, KEY, SID, FOLLOW, APPLIED, PENDING, SEEN, ROOM, PUBLISHED, KEY_SHOWN, BEAT_AT, DOWN,
                ECHOES, SHOWN, OPEN, REDRAWS):  # fmt: skip
        st.session_state.pop(key, None)
    for name in ("join", "me"):
        if name in st.query_params:
            del st.query_params[name]


def fragment_only() -> bool:
    """True in a run of the fragment alone (its timer), False when the fragment is drawn by a full run."""
    try:
        from streamlit.runtime.scriptrunner import get_script_run_ctx

        return bool(getattr(get_script_run_ctx(), "fragment_ids_this_run", None))
    except Exception:  # no script run context: not a fragment run
        return False


def text(tr: Callable[..., str], part: object, markdown: bool = True) -> str:
    """A question's text in this student's language: a plain string (token labels: user text), or a message
    {"key", "params"} (an empty key: a literal in params["text"]). With `markdown`, user text is escaped."""
    esc = md if markdown else str
    if not isinstance(part, dict):
        return esc(part)
    params = part.get("params") or {}
    if not part.get("key"):
        return esc(params.get("text", ""))
    return tr(part["key"], **{k: f"{v:,}" if isinstance(v, int) and not isinstance(v, bool)
                              else esc(v) if isinstance(v, str) else v for k, v in params.items()})  # fmt: skip


def prompt(tr: Callable[..., str], part: object) -> str:
    return text(tr, part)


def bars(tr: Callable[..., str], options: list[str], counts: list[int], correct: int | None) -> None:
    """The class's answers as a histogram of bars (text, so it reads on a phone and a projector alike)."""
    total = max(sum(counts), 1)
    for i, (label, n) in enumerate(zip(options, counts, strict=False)):
        mark = " ✓" if i == correct else ""
        st.progress(n / total, text=f"{label}{mark} — {n}")
