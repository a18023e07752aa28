"""What a follower's browser asks between page runs: the room's version, over plain HTTP.

A following phone used to learn of a change through a Streamlit fragment on a timer: every 0.5 s, each phone's tab
asked the server for a run of the fragment (3-4 ms of a core each), and 200 idle phones kept more than a core busy.
Now the phone's page asks this route instead (classroom/watch.js): one small request, answered from the process's
version memo (`Rooms.version(max_age=...)`, one store read serves every follower of the room), and the page asks
Streamlit for a run only when the version moved.

    GET /live/version?room=CODE                       200 {"v": 12}  404 {"error": "ended"}  503 {"error": "store_down"}
    GET /live/version?room=CODE&seat=SID&following=1  200 {"v": 12, "seat": true}
    with `view` given:                                200 {"v": 12, "view": "9c0f...", ...}

With a student's seat, the poll is also the student's heartbeat: the teacher's count of who is connected and
following. A process writes at most one every `beat` seconds per seat, its page's own runs included (Rooms.heartbeat).
`"seat": false` says the seat was given back after a long absence, and the page then asks for a run of its bar, which
joins again. It says no more than a student's page already shows (no state, no question, no answer: a version, and
with `view` a digest of it). Knows nothing of Streamlit: serve.py mounts it beside the app, and puts `Shortcut` first in
its middleware, which takes a poll straight to the route.

With `view` (a digest of what a following page shows of a room's state: classroom.session.follower_view), the answer
also carries that digest of the version it names. A following phone whose page shows another one asks for its whole
page at once; a version that moved for something its page does not show (a question asked, revealed or closed) asks
only for a run of its bar. The digest is read once per version and process (one store read of the room, shared by
every poll: MAX_VIEWS remembered).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from .errors import LiveError, StoreUnavailable
from .rooms import Rooms, normalise_code

PATH = "/live/version"
HEADERS = {"Cache-Control": "no-store"}
MAX_CODE = 32  # characters of the room parameter read (a code is 6; normalise_code refuses what is not one)
MAX_SEAT = 64  # characters of the seat parameter read (valid_id refuses what is not a seat's id)
MAX_VIEWS = 1_000  # (room, version) whose view digest this process remembers (a few dozen bytes each)


def version_route(get_rooms: Callable[[], Rooms], max_age: float, beat: float = 0.0, path: str = PATH,
                  view: Callable[[dict], str] | None = None) -> Route:  # fmt: skip
    """The route: `get_rooms` gives the process's store (the app's own, so the version memo is shared); asked once,
    then kept (a store that could not be opened is asked for again). `beat`: seconds between two heartbeats of a
    seat (0: polls are no heartbeats). `view`: the digest of what a following page shows of a room's state."""
    opened: list[Rooms] = []
    views: dict[tuple[str, int], str] = {}  # (room, version) -> view(state) of that version
    reading: dict[str, asyncio.Future] = {}  # room -> the store read of its state under way (one per room)

    async def view_of(store: Rooms, code: str, value: int) -> tuple[int, str]:
        """(version, view digest): of `value` when known, else of the room as read now (its version may be newer)."""
        known = views.get((code, value))
        if known is not None:
            return value, known
        pending = reading.get(code)
        if pending is None:
            pending = reading[code] = asyncio.ensure_future(run_in_threadpool(store.room, code))
            pending.add_done_callback(lambda _: reading.pop(code, None))
        room = await asyncio.shield(pending)
        if len(views) >= MAX_VIEWS:  # bounded: only a memo
            views.clear()
        views[(code, room.version)] = digest = view(room.state)
        return room.version, digest

    async def heartbeat(store: Rooms, code: str, seat: str, following: bool) -> bool:
        if store.recent_beat(code, seat, following, beat):  # written by this process within the beat: no store
            return True
        try:
            return await run_in_threadpool(store.heartbeat, code, seat, following, beat)
        except StoreUnavailable:
            raise
        except LiveError:  # not a seat's id
            return False

    async def version(request: Request) -> JSONResponse:
        query = request.query_params
        code = query.get("room", "")[:MAX_CODE]
        try:
            if not opened:
                opened.append(get_rooms())
            store = opened[0]
            value = store.recent_version(code, max_age)  # most answers: the process's memo, on the event loop
            if value is None:  # a store read (SQLite, or Redis over the network) waits in Starlette's thread pool
                value = await run_in_threadpool(store.version, code, max_age=max_age)
            room = normalise_code(code)  # a room the store answered for: the code is one
            answer: dict = {"v": value}
            if view is not None:
                answer["v"], answer["view"] = await view_of(store, room, value)
            seat = query.get("seat", "")[:MAX_SEAT]
            if seat and beat > 0:
                answer["seat"] = await heartbeat(store, room, seat, query.get("following") == "1")
        except StoreUnavailable:
            return JSONResponse({"error": "store_down"}, status_code=503, headers=HEADERS)
        except LiveError as err:  # no such room, ended, expired, not a code
            return JSONResponse({"error": err.code}, status_code=404, headers=HEADERS)
        return JSONResponse(answer, headers=HEADERS)

    return Route(path, version, methods=["GET"])


class Shortcut:
    """ASGI middleware, the first of the server's (serve.py): a request for the version route goes straight to it,
    not through the middleware after it (Streamlit's path checks, session cookie, gzip and router; the app's warm-up
    watch and page head). A following phone polls twice a second, and an idle lecture hall's polls are most of its
    server's work. Every other request passes on untouched."""

    def __init__(self, app: Callable, route: Route) -> None:
        self.app, self.route = app, route

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope.get("type") == "http" and scope.get("path") == self.route.path:
            await self.route(scope, receive, send)  # a Route is an ASGI app of its own (405 for another method)
            return
        await self.app(scope, receive, send)


def shortcut(route: Route) -> list:
    """`Shortcut` to `route`, as st.App's middleware list takes it (put it first)."""
    from starlette.middleware import Middleware

    return [Middleware(Shortcut, route=route)]


__all__ = ["PATH", "Shortcut", "shortcut", "version_route"]
