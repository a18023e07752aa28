"""The server: `python3 -m ui.streamlit_guard run serve.py` (or `streamlit run serve.py`). It serves the app
(app.py, the same Streamlit script `streamlit run app.py` runs) and one route of its own beside it: the room's
version that a following phone polls (liveclass/http.py), so that idle phones cost the server a small HTTP answer
instead of a Streamlit run each. `streamlit run app.py` still works; its phones then ask Streamlit itself on a timer
(classroom/watch.js falls back to that when the route is not there).

The App's lifespan also warms the server up for its first visitor (ui/warmup.py: the imports, then the first pages
in both languages over its own websocket), and its middleware tells the warm-up when a visitor asks something, so
that it never runs while a visitor is served. Plain `streamlit run app.py` has no warm-up. And it opens the room
store at once, which deletes the live classes past their retention then and every few minutes (liveclass/privacy.py),
whether or not anyone uses the live class.

With `MHA_ALLOWED_HOSTS` set, a request or websocket whose Host names another host is refused first (network/hosts.py).
"""

import contextlib
import threading

import streamlit as st
from streamlit import config

from classroom.session import BEAT, VERSION_AGE, follower_view, rooms
from liveclass import LiveError
from liveclass.http import PATH, shortcut, version_route
from network import hosts
from ui import page_head, warmup


def _import_frame() -> None:
    """What every page's run imports (the warm-up does it in its own thread, after the server answers)."""
    import frame  # noqa: F401


def _open_store() -> None:
    with contextlib.suppress(LiveError):  # the store is down: the first use of the live class opens it
        rooms()


def _lifespan(app: object) -> contextlib.AbstractAsyncContextManager[None]:
    """The warm-up's lifespan, and the room store opened (and swept) beside the server's start."""
    warm = warmup.lifespan(_import_frame)

    @contextlib.asynccontextmanager
    async def run(_app: object):
        threading.Thread(target=_open_store, name="mha-live-open", daemon=True).start()
        async with warm(_app):
            yield

    return run(app)


BASE = str(config.get_option("server.baseUrlPath") or "").strip("/")  # the app served under /BASE/: so is the route
ROUTE = version_route(rooms, max_age=VERSION_AGE, beat=BEAT, view=follower_view,
                      path=f"/{BASE}{PATH}" if BASE else PATH)
# a host name the server does not answer to first (MHA_ALLOWED_HOSTS: nothing runs for it); then the phones' polls,
# straight to their route; then the warm-up's watch of visitors and the page's head
HEALTH = f"/{BASE}{hosts.HEALTH}" if BASE else hosts.HEALTH  # a probe's Host is the pod's address: any Host
app = st.App("app.py", routes=[ROUTE], lifespan=_lifespan,
             middleware=[*hosts.middleware(HEALTH), *shortcut(ROUTE), *warmup.middleware(),
                         *page_head.middleware()])  # fmt: skip
