"""What the app's HTML page starts with: two small scripts at the top of its <head> (issue 38), put there by ASGI
middleware (serve.py's st.App). Plain `streamlit run app.py` has no middleware, and its pages work without them.

- plotly.js, asked for at once (ui/plotly_js.SCRIPT): the first chart is drawn as soon as its element comes. A page
  that draws no plotly chart (the home page, so the 45-minute lesson's first stop too) only prefetches it
  (ui/plotly_js.PREFETCH): compiling and running 1.5 MB of JavaScript while its own first screen is drawn cost that
  screen 8 % of a second visit and 16 % of a first one at 1x (bench/first_paint.py, the lesson's first stop, four
  pairs), and the next page finds it in the browser's cache. A live class's link asks for it at once: the class may
  be on any page.
- The server's address, for Streamlit's frontend. Before it opens its websocket, the frontend pings the server
  (`_stcore/health`, `_stcore/host-config`) under each base path the page's address could have: on /heads, first
  /heads/_stcore/..., which is not the server, and 100 ms later /_stcore/... (measured in Chromium, a second visit
  of /heads at 1x: the websocket opened 130-150 ms later than on the home page; the minimal app, at "/", never pays
  it). The frontend takes the base from `window.__streamlit.BACKEND_BASE_URL` when a page sets it: here, the page's
  address without the page's own path as the server saw it (after server.baseUrlPath), so the first ping is the
  right one, under any proxy's prefix. Only that setting is added to whatever `window.__streamlit` held.

The middleware changes only an HTML answer to a browser's GET of a page: that answer is asked for uncompressed from
Streamlit (7.9 KB) so that the scripts can go in, and loses its ETag, which names the file without them (Streamlit
answers a page's path in full every time anyway).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from urllib.parse import parse_qs

import streamlit as st

from ui import plotly_js
from ui.nav import CHARTLESS, PAGES

# The page's path as the server saw it: one or more plain segments (a page's url_path; an unknown path answered with
# the page too). Anything else (escapes, dots) gets no base script, and the frontend finds the base by its pings.
_PATH = re.compile(r"[A-Za-z0-9_-]+(/[A-Za-z0-9_-]+)*")


def base_script(page_path: str) -> bytes:
    """The script that tells Streamlit's frontend the server's base address: the page's address without
    `page_path` (its own path after the server's base path, e.g. "heads"); nothing for the home page or a path that is
    not a plain one."""
    if not _PATH.fullmatch(page_path):
        return b""
    part = json.dumps("/" + page_path).replace("<", "\\u003c")
    return (
        "<script>(function(){var p=location.pathname.replace(/\\/+$/,''),s=" + part + ";"
        "if(p.slice(-s.length)===s){window.__streamlit=Object.assign({},window.__streamlit,"
        "{BACKEND_BASE_URL:location.origin+p.slice(0,p.length-s.length)+'/'});}})();</script>"
    ).encode()


def page_path(path: str) -> str:
    """`path` (the request's) without the server's base path (server.baseUrlPath) and the slashes around it."""
    base = str(st.get_option("server.baseUrlPath") or "").strip("/")
    path = path.strip("/")
    if base and (path == base or path.startswith(base + "/")):
        path = path[len(base) :].strip("/")
    return path


def page_name(path: str) -> str:
    """The app page a request's `path` names: its url_path (ui/nav.PAGES), "home" for the home page."""
    return page_path(path).rsplit("/", 1)[-1] or PAGES[0][1]


def draws_plotly_first(path: str, query: str = "") -> bool:
    """Whether the page at `path` may need plotly.js for its first screen: every page but a chartless one
    (ui/nav.CHARTLESS, the home page among them), and any page a live class's link opens (`join`, `room`: the class
    may be on any page, and its screen goes there at once)."""
    live = bool({"join", "room"} & parse_qs(query).keys())
    return live or page_name(path) not in CHARTLESS


def head(path: str, query: str = "") -> bytes:
    """What goes at the top of the <head> of the page at `path` (with `query`, the link's query string)."""
    early = b""
    if plotly_js.served():
        early = plotly_js.TAG if draws_plotly_first(path, query) else plotly_js.PREFETCH
    return early + base_script(page_path(path))


def _is_page(scope: dict) -> bool:
    """A browser's GET of a page (index.html answers it): it asks for HTML. Not a file, Streamlit's API, the
    websocket, nor a following phone's poll of the room's version (twice a second each: passed on untouched)."""
    if scope.get("type") != "http" or scope.get("method") != "GET":
        return False
    path = str(scope.get("path", ""))
    if "." in path.rsplit("/", 1)[-1] or "/_stcore" in path:
        return False
    return any(k.lower() == b"accept" and b"text/html" in v for k, v in scope.get("headers", ()))


class PageHead:
    """ASGI middleware: Streamlit's HTML page with `head(path)` at the top of its <head>."""

    def __init__(self, app: Callable) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        query = bytes(scope.get("query_string", b"")).decode("latin-1")
        tag = head(str(scope.get("path", "")), query) if _is_page(scope) else b""
        if not tag:
            await self.app(scope, receive, send)
            return
        # uncompressed from Streamlit's gzip middleware, so that the scripts can go in
        headers = [(k, v) for k, v in scope.get("headers", ()) if k.lower() != b"accept-encoding"]
        start: dict = {}
        body: list[bytes] = []

        async def send_page(message: dict) -> None:
            if message["type"] == "http.response.start":
                kind = dict((k.lower(), v) for k, v in message.get("headers", ()))
                if message.get("status") == 200 and kind.get(b"content-type", b"").startswith(b"text/html") \
                        and b"content-encoding" not in kind:  # fmt: skip
                    start.update(message)  # held until the whole body is here
                    return
                await send(message)
                return
            if message["type"] == "http.response.body" and start:
                body.append(message.get("body", b""))
                if message.get("more_body"):
                    return
                page = b"".join(body).replace(b"<head>", b"<head>" + tag, 1)
                kept = [(k, v) for k, v in start.get("headers", ()) if k.lower() not in (b"content-length", b"etag")]
                await send({**start, "headers": [*kept, (b"content-length", str(len(page)).encode())]})
                await send({"type": "http.response.body", "body": page})
                return
            await send(message)

        await self.app({**scope, "headers": headers}, receive, send_page)


def middleware() -> list:
    from starlette.middleware import Middleware

    return [Middleware(PageHead)]
