"""What every classroom screen shares: the room store, this session's classroom keys, messages, links and QR codes,
the state the class follows, question texts in the reader's language. The rooms themselves live in `liveclass` (a
SQLite file or Redis), which knows nothing of pages."""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
import urllib.parse
from collections.abc import Callable
from typing import Any

import segno
import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from classroom import identity
from explorer.settings_io import SettingsFileError, settings_from_json
from liveclass import LIMIT_ENV, LiveError, Pass, Room, Rooms, open_rooms
from ui.nav import PAGES

POLL_STUDENT = 0.5  # seconds between a follower's checks of the room's version (phones and the projector)
POLL_TEACHER = 2.0  # seconds between refreshes of the console's counts and answers
VERSION_AGE = 0.1  # seconds a version read by this process serves its other followers (Rooms.version)
BEAT = 5.0  # seconds between heartbeats (presence counts a student or a screen for 15 s)

STUDENT, CONSOLE, PROJECTOR = "student", "console", "projector"  # this session's role in a room
ROLE, CODE, SID, KEY = "_live_role", "_live_code", "_live_sid", "_live_key"
ROOM, SEEN, DOWN, MSG, BEAT_AT = "_live_room", "_live_seen", "_live_down", "_live_msg", "_live_beat"
STATUS = "_live_status"  # a console's or projector's: accepted, or waiting for an open console
INVITE_KEY = "_live_invite"  # a console's private link token for the projector window
FOLLOW, REDRAWS, SENT = "_live_follow", "_live_redraws", "_live_sent"
# the student's bar's first line ("Following class ..." / "You are exploring ..."): the focus goes there after joining,
# "Explore on my own" and "Back to the teacher" (Tab then reaches the way back or out, then the class's question)
STATUS_LINE = "live_status_line"
MAX_REDRAWS = 20  # full reruns asked for one state whose page was never drawn to the end
MSG_SECONDS = 10.0  # a message stays through the reruns of a page's opening, then goes
# what a follower's page shows, from the class's state (the console also publishes the lesson, the stop, when the
# stop began, the join screen and the class's language, which do not change a phone's page)
FOLLOWED = ("page", "settings", "step", "present")


@st.cache_resource(show_spinner=False)
def _open(redis_url: str, db_path: str, limits: str) -> Rooms:
    """One store per server process and configuration (the arguments only key the cache)."""
    return open_rooms()


def rooms() -> Rooms:
    """The room store; StoreUnavailable when it cannot even be opened (a failed open is not cached)."""
    env = os.environ
    limits = "|".join(env.get(k, "") for k in LIMIT_ENV)
    return _open(env.get("MHA_REDIS_URL", ""), env.get("MHA_LIVE_DB", ""), limits)


def role() -> str | None:
    return st.session_state.get(ROLE)


def accepted(as_role: str) -> bool:
    """True when this session is an accepted screen (console or projector) of its room."""
    from liveclass import ACCEPTED

    return st.session_state.get(ROLE) == as_role and st.session_state.get(STATUS) == ACCEPTED


def screen_pass() -> Pass:
    """This console's or projector's pass (its screen id and browser)."""
    return Pass(st.session_state[SID], identity.browser_id())


# ---------------------------------------------------------------- text
def md(text: object) -> str:
    """User and token text inside markdown: every markdown, LaTeX and HTML character literal."""
    return re.sub(r"([\\`*_{}\[\]()#+\-!|$<>~&])", r"\\\1", str(text))


def say(kind: str, key: str, **params: Any) -> None:
    """The one message of the next runs (a refusal, a confirmation): shown by `show_message`."""
    st.session_state[MSG] = (kind, key, params, time.monotonic())


def error(err: LiveError) -> None:
    say("warning", f"live.err.{err.code}", **err.params)


def show_message(tr: Callable[..., str]) -> None:
    message = st.session_state.get(MSG)
    if message and time.monotonic() - message[3] < MSG_SECONDS:
        kind, key, params, _ = message
        getattr(st, kind)(tr(key, **params), icon=":material/co_present:")
    elif message:
        del st.session_state[MSG]


def text(tr: Callable[..., str], part: object, markdown: bool = True) -> str:
    """A question's text in this reader's language: a plain string (token labels: user text), or a message
    {"key", "params"} (an empty key: a literal in params["text"]). With `markdown`, user text is escaped."""
    esc = md if markdown else str
    if not isinstance(part, dict):
        return esc(part)
    params = part.get("params") or {}
    if not part.get("key"):
        return esc(params.get("text", ""))
    return tr(part["key"], **{k: f"{v:,}" if isinstance(v, int) and not isinstance(v, bool)
                              else esc(v) if isinstance(v, str) else v for k, v in params.items()})  # fmt: skip


# ---------------------------------------------------------------- links
def app_base() -> tuple[str, str, str]:
    """(scheme, host, path of the app) as the browser sees it (behind a proxy too)."""
    try:
        base = st.context.url or ""
    except Exception:  # no browser context (AppTest)
        base = ""
    parts = urllib.parse.urlsplit(base or "http://localhost:8501/")
    path = parts.path.rstrip("/")
    last = path.rsplit("/", 1)[-1]
    if last in {p[1] for p in PAGES} or last in ("console", "class"):
        path = path[: -len(last) - 1]
    return parts.scheme, parts.netloc, path


def link(page: str = "", **query: str) -> str:
    """An absolute link to a page of this app (`page` a url path, '' the home page) with `query`."""
    scheme, host, path = app_base()
    page = "" if page == PAGES[0][1] else page  # the home page is at "/" (its url path is no address of its own)
    return urllib.parse.urlunsplit((scheme, host, f"{path}/{page}", urllib.parse.urlencode(query), ""))


def join_link(code: str) -> str:
    """`<app address>/?join=CODE`: what the class scans."""
    return link(join=code)


def qr_svg(text: str) -> str:
    """A QR code of `text` as SVG (drawn on the server, no network), scaled to fill its box."""
    return segno.make(text, error="m").svg_inline(scale=10, border=2, omitsize=True)


# ---------------------------------------------------------------- the state the class follows
def followed(state: dict[str, Any] | None, projector: bool = False) -> dict[str, Any]:
    """The part of the class's state that decides what a follower's page shows (the projector's also depends on the
    class's language)."""
    return {k: (state or {}).get(k) for k in (*FOLLOWED, "lang") if projector or k != "lang"}


def state_settings(state: dict[str, Any]) -> Any:
    """The settings of a published state (explorer.Settings), or None when they cannot be read."""
    try:
        settings, _ = settings_from_json(str(state.get("settings", "")))
    except SettingsFileError:
        return None
    return settings


def state_step(state: dict[str, Any]) -> int:
    raw = state.get("step", 0)
    return int(raw) if isinstance(raw, int) and not isinstance(raw, bool) and 0 <= raw < 64 else 0


def read_room(store: Rooms, code: str) -> Room:
    """The room, read now, kept in the session with the version it had."""
    room = store.room(code)
    st.session_state[ROOM], st.session_state[SEEN] = room, room.version
    return room


def state_json(state: dict[str, Any]) -> str:
    return json.dumps(state, sort_keys=True, ensure_ascii=False)


def digest(state: dict[str, Any] | None) -> str:
    """A short digest of a state (or of a part of it, such as `followed`)."""
    return hashlib.blake2b(state_json(state or {}).encode(), digest_size=12).hexdigest()


def follower_view(state: dict[str, Any] | None) -> str:
    """The digest of what a following phone's page shows of the class's state: the version route tells it to the
    phone's watch, which asks for the whole page at once when it moved (liveclass/http.py, classroom/watch.js)."""
    return digest(followed(state))


# ---------------------------------------------------------------- leaving
PARAMS = ("join", "me", "room", "screen", "invite", "as")  # the URL parameters of the live class


def session_id() -> str:
    """This session's id ('' outside a script run)."""
    ctx = get_script_run_ctx(suppress_warning=True)
    return ctx.session_id if ctx is not None else ""


def leave(keep: tuple[str, ...] = ()) -> None:
    """This session is no longer in a room (its browser id stays, and the keys in `keep`)."""
    for key in list(st.session_state.keys()):
        if str(key).startswith("_live_") and key != identity.BROWSER and key not in keep:
            st.session_state.pop(key, None)
    for name in PARAMS:
        if name in st.query_params:
            del st.query_params[name]


def fragment_only() -> bool:
    """True in a run of a fragment alone (its timer or one of its widgets), False in a full run."""
    try:
        from streamlit.runtime.scriptrunner import get_script_run_ctx

        return bool(getattr(get_script_run_ctx(), "fragment_ids_this_run", None))
    except Exception:  # no script run context: not a fragment run
        return False
