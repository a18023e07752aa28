"""What a follower's browser asks between page runs: the room's version, over plain HTTP.

A following phone used to learn of a change through a Streamlit fragment on a timer: every 0.5 s, each phone's tab
asked the server for a run of the fragment (3-4 ms of a core each), and 200 idle phones kept more than a core busy.
Now the phone's page asks this route instead (classroom/watch.js): one small request, answered from the process's
version memo (`Rooms.version(max_age=...)`, one store read serves every follower of the room), and the page asks
Streamlit for a run only when the version moved.

    GET /live/version?room=CODE                       200 {"v": 12}  404 {"error": "unknown_room"}
    GET /live/version?room=CODE&seat=SID&following=1  200 {"v": 12, "seat": true}  404 {"error": "ended"}
    the store cannot be reached:                      503 {"error": "store_down"}
    with `view` given:                                200 {"v": 12, "view": "9c0f...", ...}
    too many missed codes from the client's network:  429 {"error": "slow_down", "seconds": 9}  (Retry-After: 9)
    any other method than GET or HEAD:                405 (Allow: GET, HEAD)

A code that names no open room (unknown, ended, expired) answers alike, 404 unknown_room, and is one of the client's
network's missed codes (Rooms.missed: the same count as a join's or a take-back's), unless the poll comes with a seat
of that room: its student is told why (ended, expired). Beyond its missed codes, a network's polls wait (429), its real
codes too, except a poll whose seat this process already knows (a student of a class in progress behind the same school
address). The client's address is read behind the proxies the server trusts (network.addresses, MHA_TRUSTED_PROXIES).
Nothing a client sends puts a traceback in the log.

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
import logging
import os
from collections.abc import Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse
from starlette.routing import Route

from network.addresses import TRUSTED_ENV, scope_address

from .errors import LiveError, StoreUnavailable
from .rooms import CLOSED, Rooms, normalise_code

LOG = logging.getLogger(__name__)

PATH = "/live/version"
HEADERS = {"Cache-Control": "no-store"}
MAX_CODE = 32  # characters of the room parameter read (a code is 6; normalise_code refuses what is not one)
MAX_SEAT = 64  # characters of the seat parameter read (valid_id refuses what is not a seat's id)
MAX_VIEWS = 1_000  # (room, version) whose view digest this process remembers (a few dozen bytes each)
METHODS = ("GET", "HEAD")
KNOWN_SEAT = 60.0  # seconds a seat whose heartbeat this process wrote counts as known (past a network's wait)


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
        seat = query.get("seat", "")[:MAX_SEAT]
        following = query.get("following") == "1"
        try:
            if not opened:
                opened.append(get_rooms())
            store = opened[0]
            room = normalise_code(code)
            net = ""
            if not (seat and store.recent_beat(room, seat, following, KNOWN_SEAT)):  # a student this process knows
                net = store.guard(scope_address(request.scope, os.environ.get(TRUSTED_ENV, "")))
            value = store.recent_version(room, max_age)  # most answers: the process's memo, on the event loop
            if value is None:  # a store read (SQLite, or Redis over the network) waits in Starlette's thread pool
                try:
                    value = await run_in_threadpool(store.version, room, max_age=max_age)
                except LiveError as err:
                    if err.code not in CLOSED:
                        raise
                    if seat and err.code in ("ended", "expired") and await run_in_threadpool(store.holds_seat, room,
                                                                                             seat):  # fmt: skip
                        raise
                    if not net:
                        net = store.guard(scope_address(request.scope, os.environ.get(TRUSTED_ENV, "")))
                    await run_in_threadpool(store.missed, net)
                    raise LiveError("unknown_room") from None
            answer: dict = {"v": value}
            if view is not None:
                answer["v"], answer["view"] = await view_of(store, room, value)
            if seat and beat > 0:
                answer["seat"] = await heartbeat(store, room, seat, following)
        except StoreUnavailable:
            return JSONResponse({"error": "store_down"}, status_code=503, headers=HEADERS)
        except LiveError as err:  # not a code, no open room, or too many missed codes
            if err.code == "slow_down":
                wait = str(err.params.get("seconds", 1))
                return JSONResponse({"error": err.code, "seconds": int(wait)}, status_code=429,
                                    headers={**HEADERS, "Retry-After": wait})  # fmt: skip
            return JSONResponse({"error": err.code}, status_code=404, headers=HEADERS)
        except Exception as exc:  # a poll never puts a traceback in the log: one line, and a 500
            LOG.warning("the version route failed: %s", type(exc).__name__)
            return JSONResponse({"error": "failed"}, status_code=500, headers=HEADERS)
        return JSONResponse(answer, headers=HEADERS)

    return Route(path, version, methods=["GET"])  # HEAD too (Starlette adds it)


class Shortcut:
    """ASGI middleware, the first of the server's (serve.py): a request for the version route goes straight to it,
    not through the middleware after it (Streamlit's path checks, session cookie, gzip and router; the app's warm-up
    watch and page head). A following phone polls twice a second, and an idle lecture hall's polls are most of its
    server's work. Every other request passes on untouched. Another method than GET or HEAD gets its 405 here: the
    route's own refusal is an exception that only Starlette's error handling, behind this middleware, turns into an
    answer (outside it, a 500 and a traceback in the log)."""

    def __init__(self, app: Callable, route: Route) -> None:
        self.app, self.route = app, route

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope.get("type") == "http" and scope.get("path") == self.route.path:
            if scope.get("method") not in METHODS:
                refusal = PlainTextResponse("Method Not Allowed", status_code=405,
                                            headers={"Allow": ", ".join(METHODS)})  # fmt: skip
                await refusal(scope, receive, send)
                return
            await self.route(scope, receive, send)  # a Route is an ASGI app of its own
            return
        await self.app(scope, receive, send)


def shortcut(route: Route) -> list:
    """`Shortcut` to `route`, as st.App's middleware list takes it (put it first)."""
    from starlette.middleware import Middleware

    return [Middleware(Shortcut, route=route)]


__all__ = ["PATH", "Shortcut", "shortcut", "version_route"]
