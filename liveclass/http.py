"""What a follower's browser asks between page runs: the room's version, over plain HTTP.

A following phone used to learn of a change through a Streamlit fragment on a timer: every 0.5 s, each phone's tab
asked the server for a run of the fragment (3-4 ms of a core each), and 200 idle phones kept more than a core busy.
Now the phone's page asks this route instead (classroom/watch.js): one small request, answered from the process's
version memo (`Rooms.version(max_age=...)`, one store read serves every follower of the room), and the page asks
Streamlit for a run only when the version moved (or for the heartbeat, every few seconds).

    GET /live/version?room=CODE   200 {"v": 12}   404 {"error": "ended"}   503 {"error": "store_down"}

It says no more than the version a student's page already shows (no state, no question, no answer). Knows nothing of
Streamlit: serve.py mounts it beside the app.
"""

from __future__ import annotations

from collections.abc import Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from .errors import LiveError, StoreUnavailable
from .rooms import Rooms

PATH = "/live/version"
HEADERS = {"Cache-Control": "no-store"}
MAX_CODE = 32  # characters of the room parameter read (a code is 6; normalise_code refuses what is not one)


def version_route(get_rooms: Callable[[], Rooms], max_age: float, path: str = PATH) -> Route:
    """The route: `get_rooms` gives the process's store (the app's own, so the version memo is shared); asked once,
    then kept (a store that could not be opened is asked for again)."""
    opened: list[Rooms] = []

    async def version(request: Request) -> JSONResponse:
        code = request.query_params.get("room", "")[:MAX_CODE]
        try:
            if not opened:
                opened.append(get_rooms())
            store = opened[0]
            value = store.recent_version(code, max_age)  # most answers: the process's memo, on the event loop
            if value is None:  # a store read (SQLite, or Redis over the network) waits in Starlette's thread pool
                value = await run_in_threadpool(store.version, code, max_age=max_age)
        except StoreUnavailable:
            return JSONResponse({"error": "store_down"}, status_code=503, headers=HEADERS)
        except LiveError as err:  # no such room, ended, expired, not a code
            return JSONResponse({"error": err.code}, status_code=404, headers=HEADERS)
        return JSONResponse({"v": value}, headers=HEADERS)

    return Route(path, version, methods=["GET"])


__all__ = ["PATH", "version_route"]
