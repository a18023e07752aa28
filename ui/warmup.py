"""A fresh server's first visitor should not pay for what every visitor needs: the imports (torch alone takes about
1.7 s), the default setting's scene and the figures of the first pages. The server does that itself as it starts.

The server (`python3 -m ui.streamlit_guard run serve.py`) serves the st.App that serve.py makes (Streamlit's way to
run code when the server starts), and its lifespan calls `start()`: a thread waits until the server answers its own
health check (so the check is never held up), imports what every page needs (a visitor's first run would wait for
those imports anyway), then opens the first pages over the server's websocket exactly as a browser does (`PAGES`, in
both languages), one after the other. Plain `streamlit run app.py` serves no App and so has no warm-up.
Nothing is built twice: the pages fill the caches they use (figures, scenes, Streamlit's cached resources), and a
visitor who arrives meanwhile waits for the same build (the caches' flights) instead of starting another.

A visitor goes first. While a visitor's page runs (the frame tells: `visitor()`) and until `QUIET` seconds after a
visitor's last request (the App's middleware tells: `VisitorRequests`; health checks do not count), no warm-up page
starts, and one that is running is stopped and tried again later. A browser loads a page's scripts from this server
for seconds before its first run; a warm-up page that ran meanwhile slowed that visitor's run, whose elements then
reached the browser one by one (a redraw of the page for each: 2-4x the main-thread time, measured). While it imports
or runs a page (and only then: `quick_switch`), the interpreter lock changes hands every `SWITCH` seconds (Python's
default is 5 ms): a visitor's scripts are served by the server's event loop, which waited up to 5 ms for the lock at
every step of every file. Not while it waits for a quiet moment: a class that came at once would have kept the short
interval for all of GIVE_UP, and 60 students' runs handing the lock over ten times as often cost a third more CPU per
follow (bench/live_class.py).
A failed warm-up only means a slower first visit: it is logged, never raised. MHA_WARMUP=0 turns it off.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
import urllib.request
from collections.abc import AsyncIterator, Callable, Iterator

from streamlit.logger import get_logger

# The first pages of a class, most asked first: the home page (the lesson's first stop), heads, steps.
PAGES = ("", "heads", "steps")
LANGS = ("en", "zh")
PARAM = "mha_warmup"  # in the link of the warm-up's own page runs: they do not hold it up (visitor())
QUIET = 5.0  # seconds after a visitor's last request or run before the next warm-up page
HEADER = "x-mha-warmup"  # on the warm-up's own websocket: not a visitor's request
GIVE_UP = 600.0  # seconds: a server busy with visitors all along is warm by then anyway
TRIES = 5  # times a page is started again after a visitor stopped it
SWITCH = 0.0005  # seconds: sys.setswitchinterval while the warm-up works
_SESSION_FLAG = "_mha_warmup_session"
_visitors = {"running": 0, "last": 0.0}
_visitors_lock = threading.Lock()
_LOG = get_logger(__name__)  # Streamlit's logging setup: the one line of the warm-up shows in the server's log
done = threading.Event()  # set when the warm-up has finished (tests, benchmarks)
report: dict[str, float] = {}  # page?lang -> seconds its run took


def enabled() -> bool:
    return os.environ.get("MHA_WARMUP", "1") != "0"


def lifespan(prepare: Callable[[], object]) -> Callable[[object], contextlib.AbstractAsyncContextManager[None]]:
    """st.App's lifespan: start the warm-up beside the server (it never delays the server's start). `prepare` imports
    what every page needs (serve.py gives the frame's import: the frame imports this module, not the other way
    round)."""

    @contextlib.asynccontextmanager
    async def run(_app: object) -> AsyncIterator[None]:
        start(prepare)
        yield

    return run


def start(prepare: Callable[[], object] | None = None) -> threading.Thread | None:
    if not enabled():
        done.set()
        return None
    thread = threading.Thread(target=warm_up, kwargs={"prepare": prepare}, name="mha-warmup", daemon=True)
    thread.start()
    return thread


def server_url() -> str:
    """This server's own address, as seen from inside the machine."""
    from streamlit import config

    address = str(config.get_option("server.address") or "127.0.0.1")
    if address in ("0.0.0.0", "::", "localhost"):  # listening everywhere: loopback reaches it
        address = "127.0.0.1"
    host = f"[{address}]" if ":" in address else address
    base = str(config.get_option("server.baseUrlPath") or "").strip("/")
    return f"{host}:{config.get_option('server.port')}" + (f"/{base}" if base else "")


@contextlib.contextmanager
def visitor() -> Iterator[None]:
    """Around every page run (the frame): a visitor's run holds the warm-up's next page back; its own runs do not."""
    import streamlit as st

    ours = bool(st.session_state.get(_SESSION_FLAG))
    if not ours and PARAM in st.query_params:
        st.session_state[_SESSION_FLAG] = ours = True  # the session's later runs too (its link may lose the param)
    if ours:
        yield
        return
    with _visitors_lock:
        _visitors["running"] += 1
    try:
        yield
    finally:
        with _visitors_lock:
            _visitors["running"] -= 1
            _visitors["last"] = time.monotonic()


class VisitorRequests:
    """ASGI middleware (st.App's `middleware`): every request but a health check and the warm-up's own websocket is a
    visitor's, and holds the warm-up's next page back for `QUIET` seconds."""

    def __init__(self, app: Callable) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope.get("type") in ("http", "websocket") and not _ours(scope):
            with _visitors_lock:
                _visitors["last"] = time.monotonic()
        await self.app(scope, receive, send)


def _ours(scope: dict) -> bool:
    if str(scope.get("path", "")).endswith("/_stcore/health"):
        return True  # the container's and the tests' health checks, and the warm-up's own
    return any(name.decode("latin-1").lower() == HEADER for name, _ in scope.get("headers", ()))


def middleware() -> list:
    from starlette.middleware import Middleware

    return [Middleware(VisitorRequests)]


def wait_for_quiet(quiet: float = QUIET, give_up: float = GIVE_UP, poll: float = 0.05) -> bool:
    """Until no visitor's run is going and none has asked anything for `quiet` seconds; False after `give_up`
    seconds of visitors."""
    deadline = time.monotonic() + give_up
    while time.monotonic() < deadline:
        with _visitors_lock:
            idle = _visitors["running"] == 0 and time.monotonic() - _visitors["last"] >= quiet
        if idle:
            return True
        time.sleep(poll)
    return False


class Yielded(Exception):
    """A visitor arrived while a warm-up page ran: the page was stopped."""


def visitor_since(t0: float) -> bool:
    """True when a visitor's run is going or a visitor asked something after `t0` (time.monotonic)."""
    with _visitors_lock:
        return _visitors["running"] > 0 or _visitors["last"] > t0


def warm_up(visit: Callable[..., float] | None = None, wait: float = 120.0,
            prepare: Callable[[], object] | None = None) -> None:
    """Wait for the server to be healthy, import (`prepare`), then visit PAGES in LANGS whenever no visitor is being
    served. `visit(server, page, lang)` returns the seconds the page's run took and raises Yielded when a visitor came
    (default: a websocket session, `visit_page`)."""
    visit = visit or visit_page
    started = time.perf_counter()
    try:
        server = server_url()
        deadline = time.monotonic() + wait
        while not _healthy(server):
            if time.monotonic() > deadline:
                raise TimeoutError("the server never answered its health check")
            time.sleep(0.05)
        t0 = time.perf_counter()
        if prepare is not None:  # torch, plotly, pandas, the app's packages: every run needs them, a visitor's too
            with quick_switch():
                prepare()

        report["imports"] = time.perf_counter() - t0
        for lang in LANGS:
            for page in PAGES:
                for _ in range(TRIES):
                    if not wait_for_quiet():
                        raise TimeoutError("visitors all along: the pages are warm by their own runs")
                    with contextlib.suppress(Yielded), quick_switch():
                        report[f"{page or 'home'}?{lang}"] = visit(server, page, lang)
                        break
        _LOG.info("warm-up: %d pages in %.1f s (%s)", len(report) - 1, time.perf_counter() - started,
                  ", ".join(f"{k} {v:.1f} s" for k, v in report.items()))  # fmt: skip
    except Exception as exc:  # a slower first visit, nothing worse
        _LOG.warning("warm-up stopped: %s: %s", type(exc).__name__, exc)
    finally:
        done.set()


@contextlib.contextmanager
def quick_switch() -> Iterator[None]:
    """While the warm-up works: the interpreter lock changes hands every SWITCH seconds, then as before."""
    switch = sys.getswitchinterval()
    sys.setswitchinterval(SWITCH)
    try:
        yield
    finally:
        sys.setswitchinterval(switch)


def _healthy(server: str) -> bool:
    try:
        with urllib.request.urlopen(f"http://{server}/_stcore/health", timeout=1) as r:
            return r.read().strip() == b"ok"
    except OSError:
        return False


def visit_page(server: str, page: str, lang: str, timeout: float = 120.0) -> float:
    """Open `page` in `lang` over the server's websocket as a browser does (its first run), wait until the run has
    finished, close the session. Returns the seconds the run took; an error shown on the page raises, and a visitor
    who arrives meanwhile stops the run (Yielded)."""
    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
    from websockets.sync.client import connect

    msg = BackMsg()
    msg.rerun_script.page_name = page
    msg.rerun_script.query_string = f"{PARAM}=1"
    msg.rerun_script.context_info.locale = "zh-CN" if lang == "zh" else "en-US"  # the page's language follows it
    t0, since = time.perf_counter(), time.monotonic()
    with connect(f"ws://{server}/_stcore/stream", subprotocols=["streamlit"], max_size=None, open_timeout=timeout,
                 close_timeout=1, additional_headers={HEADER: "1"}) as ws:  # fmt: skip
        ws.send(msg.SerializeToString())
        deadline = time.monotonic() + timeout
        while True:
            if visitor_since(since):
                ws.send(BackMsg(stop_script=True).SerializeToString())
                raise Yielded(page)
            if time.monotonic() > deadline:
                raise TimeoutError(f"/{page} ({lang}) did not finish in {timeout:.0f} s")
            try:
                raw = ws.recv(timeout=0.05)
            except TimeoutError:
                continue
            fm = ForwardMsg.FromString(raw if isinstance(raw, bytes) else raw.encode())
            kind = fm.WhichOneof("type")
            if kind == "delta" and fm.delta.new_element.WhichOneof("type") == "exception":
                raise RuntimeError(f"/{page} ({lang}) showed an error: {fm.delta.new_element.exception.message}")
            if kind == "script_finished":
                return time.perf_counter() - t0
