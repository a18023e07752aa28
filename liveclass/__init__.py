"""Live classroom rooms: a teacher leads, students follow and answer. Knows nothing of pages or Streamlit.

    rooms = open_rooms()                              # SQLite file by default, Redis when MHA_REDIS_URL is set
    ticket = rooms.create(Client(browser_id, addr))   # ticket.code for the students, ticket.key for the teacher only
    code, console = rooms.open_screen(ticket.code, "console", browser_id)   # the teacher's console, accepted
    rooms.lead(code, Pass(console.sid, browser_id), {"page": "heads", "settings": "...", "step": 0})
    code, sid = rooms.join(code, client=Client(student_browser_id, addr))  # a student's seat
    rooms.version(code)                               # what a follower polls (cheap)
"""

from __future__ import annotations

import dataclasses
import os

from .errors import LiveError, StoreUnavailable
from .privacy import start_sweeper
from .rooms import (
    ACCEPTED,
    ALPHABET,
    CLOSED,
    CODE_LEN,
    CONSOLE,
    PROJECTOR,
    REFUSED,
    WAITING,
    Answer,
    Asked,
    Client,
    Limits,
    Pass,
    Presence,
    Room,
    Rooms,
    Screen,
    Seat,
    Ticket,
    clean_nickname,
    normalise_code,
    valid_id,
)

REDIS_ENV = "MHA_REDIS_URL"
# limits a deployment may set (docs/deploy.md, "Limits that stop a script, never a class")
LIMIT_ENV = {"MHA_LIVE_MAX_ROOMS": "max_rooms", "MHA_LIVE_MAX_STUDENTS": "max_students",
             "MHA_LIVE_JOIN_BURST": "join_burst", "MHA_LIVE_JOINS_PER_MINUTE": "joins_per_minute",
             "MHA_LIVE_START_BURST": "start_burst", "MHA_LIVE_STARTS_PER_HOUR": "starts_per_hour",
             "MHA_LIVE_MISS_BURST": "miss_burst", "MHA_LIVE_MISSES_PER_HOUR": "misses_per_hour"}  # fmt: skip


def limits_from_env() -> Limits:
    """The default limits, with the ones the environment sets (a whole number from 1 each; anything else is
    ignored)."""
    values = {}
    for env, name in LIMIT_ENV.items():
        raw = os.environ.get(env, "").strip()
        if raw.isascii() and raw.isdecimal() and len(raw) <= 6 and int(raw) >= 1:
            values[name] = int(raw)
    return dataclasses.replace(Limits(), **values)


def open_rooms(limits: Limits | None = None) -> Rooms:
    """The store this server uses: Redis at `MHA_REDIS_URL` when it is set, else the SQLite file
    (`MHA_LIVE_DB`, default in the temporary folder). The limits come from the environment (`LIMIT_ENV`). Rooms past
    their retention are swept away now and every few minutes (liveclass/privacy.py)."""
    limits = limits or limits_from_env()
    url = os.environ.get(REDIS_ENV, "").strip()
    if url:
        from .redis_backend import RedisBackend

        rooms = Rooms(RedisBackend(url), limits)
    else:
        from .sqlite_backend import SqliteBackend

        rooms = Rooms(SqliteBackend(), limits)
    start_sweeper(rooms)
    return rooms


__all__ = [
    "ACCEPTED", "ALPHABET", "CLOSED", "CODE_LEN", "CONSOLE", "LIMIT_ENV", "PROJECTOR", "REDIS_ENV", "REFUSED",
    "WAITING", "Answer", "Asked", "Client", "Limits", "LiveError", "Pass", "Presence", "Room", "Rooms", "Screen",
    "Seat", "StoreUnavailable", "Ticket", "clean_nickname", "limits_from_env", "normalise_code", "open_rooms",
    "valid_id",
]  # fmt: skip
