"""Live classroom rooms: a teacher leads, students follow and answer. Knows nothing of pages or Streamlit.

    rooms = open_rooms()                      # SQLite file by default, Redis when MHA_REDIS_URL is set
    ticket = rooms.create()                   # ticket.code for the students, ticket.key for the teacher only
    rooms.lead(ticket.code, ticket.key, {"page": "heads", "settings": "...", "step": 0})
    code, sid = rooms.join(ticket.code)       # a student
    rooms.version(code)                       # what a follower polls (cheap)
"""

from __future__ import annotations

import os

from .errors import LiveError, StoreUnavailable
from .rooms import (
    ALPHABET,
    CODE_LEN,
    Answer,
    Limits,
    Presence,
    Room,
    Rooms,
    Ticket,
    clean_nickname,
    normalise_code,
)

REDIS_ENV = "MHA_REDIS_URL"


def open_rooms(limits: Limits | None = None) -> Rooms:
    """The store this server uses: Redis at `MHA_REDIS_URL` when it is set, else the SQLite file
    (`MHA_LIVE_DB`, default in the temporary folder). `MHA_LIVE_MAX_ROOMS` caps the open rooms."""
    if limits is None:
        raw = os.environ.get("MHA_LIVE_MAX_ROOMS", "")
        limits = Limits(max_rooms=int(raw)) if raw.isascii() and raw.isdecimal() else Limits()
    url = os.environ.get(REDIS_ENV, "").strip()
    if url:
        from .redis_backend import RedisBackend

        return Rooms(RedisBackend(url), limits)
    from .sqlite_backend import SqliteBackend

    return Rooms(SqliteBackend(), limits)


__all__ = [
    "ALPHABET", "CODE_LEN", "REDIS_ENV", "Answer", "Limits", "LiveError", "Presence", "Room", "Rooms",
    "StoreUnavailable", "Ticket", "clean_nickname", "normalise_code", "open_rooms",
]  # fmt: skip
