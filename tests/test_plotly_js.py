"""ui/plotly_js.Preload: the app's HTML page starts loading plotly.js in its <head> (issue 38); nothing else changes.
The middleware against a stand-in ASGI app, then against the real server (serve.py) in Chromium: plotly.js is asked for
once, by the page's head, and the chart is drawn with it."""

from __future__ import annotations

import asyncio
import gzip

import pytest

from ui import plotly_js

PAGE = b"<!DOCTYPE html>\n<html lang='en'>\n  <head>\n    <title>Streamlit</title>\n  </head><body></body></html>"


NAVIGATION = b"text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"  # what Chromium asks a page with


def call(path: str, body: bytes = PAGE, kind: bytes = b"text/html; charset=utf-8", method: str = "GET",
         status: int = 200, chunks: int = 1, encoding: bool = True,
         accept: bytes = NAVIGATION) -> tuple[dict, bytes, list]:  # fmt: skip
    """One request through Preload to a stand-in app that answers `body` (gzipped when the request accepts gzip and
    `encoding`, as Streamlit's own middleware does); (the answer's headers, its body, the headers the app saw)."""
    seen: list = []

    async def app(scope, receive, send):
        seen.extend(scope["headers"])
        gz = encoding and any(k == b"accept-encoding" and b"gzip" in v for k, v in scope["headers"])
        data = gzip.compress(body) if gz else body
        headers = [(b"content-type", kind), (b"content-length", str(len(data)).encode()), (b"etag", b'"abc"')]
        if gz:
            headers.append((b"content-encoding", b"gzip"))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        step = max(1, len(data) // chunks)
        parts = [data[i : i + step] for i in range(0, len(data), step)] or [b""]
        for n, part in enumerate(parts):
            await send({"type": "http.response.body", "body": part, "more_body": n < len(parts) - 1})

    sent: list[dict] = []

    async def send(message):
        sent.append(message)

    async def receive():
        return {"type": "http.request"}

    scope = {"type": "http", "method": method, "path": path,
             "headers": [(b"host", b"classroom.lan:8080"), (b"accept", accept),
                         (b"accept-encoding", b"gzip, deflate")]}  # fmt: skip
    asyncio.run(plotly_js.Preload(app)(scope, receive, send))
    headers = dict(sent[0]["headers"])
    return headers, b"".join(m.get("body", b"") for m in sent[1:]), seen


@pytest.fixture(autouse=True)
def served(monkeypatch):
    monkeypatch.setattr(plotly_js, "served", lambda: True)


@pytest.mark.parametrize("path", ["/", "/heads", "/mha/steps", "/console"])
@pytest.mark.parametrize("chunks", [1, 3])
def test_a_page_starts_loading_plotly_js_in_its_head(path, chunks):
    headers, body, seen = call(path, chunks=chunks)
    assert body.startswith(b"<!DOCTYPE html>") and body.count(plotly_js.TAG) == 1
    assert body.index(plotly_js.TAG) == body.index(b"<head>") + len(b"<head>")  # first in the head
    assert body.replace(plotly_js.TAG, b"") == PAGE  # and nothing else changed
    assert int(headers[b"content-length"]) == len(body)
    assert b"etag" not in headers and b"content-encoding" not in headers
    assert b"accept-encoding" not in dict(seen)  # asked for uncompressed


def test_the_script_names_the_served_bundle_relative_to_the_page():
    assert f"'./app/static/{plotly_js.STATIC_NAME}'" in plotly_js.SCRIPT and plotly_js.PLOTLY_JS.is_file()
    assert "window.__mhaPlotlyLoad=" in plotly_js.SCRIPT  # the promise ui/plot.js waits on
    assert "window.__mhaPlotlyLoad" in (plotly_js.ROOT / "ui" / "plot.js").read_text(encoding="utf-8")


@pytest.mark.parametrize(("path", "method", "kind", "status"), [
    ("/static/js/index.js", "GET", b"application/javascript", 200),  # a file
    ("/app/static/x.min.js", "GET", b"application/javascript", 200),
    ("/_stcore/health", "GET", b"text/html; charset=utf-8", 200),  # Streamlit's API
    ("/heads", "POST", b"text/html; charset=utf-8", 200),  # not a GET
    ("/heads", "GET", b"application/json", 200),  # not HTML
    ("/heads", "GET", b"text/html; charset=utf-8", 404),  # not a page
])  # fmt: skip
def test_every_other_answer_goes_through_unchanged(path, method, kind, status):
    headers, body, _ = call(path, method=method, kind=kind, status=status, encoding=False)
    assert body == PAGE and headers[b"etag"] == b'"abc"'


def test_a_request_that_does_not_ask_for_html_is_passed_on_as_it_came():
    """A following phone's poll of the room's version (fetch: Accept */*), twice a second each: not even looked at."""
    _, body, seen = call("/live/version", accept=b"*/*")
    assert gzip.decompress(body) == PAGE and (b"accept-encoding", b"gzip, deflate") in seen


def test_nothing_changes_when_plotly_js_is_not_served(monkeypatch):
    monkeypatch.setattr(plotly_js, "served", lambda: False)
    headers, body, _ = call("/heads")
    assert gzip.decompress(body) == PAGE and headers[b"content-encoding"] == b"gzip"


@pytest.mark.browser
@pytest.mark.timeout(180)
def test_the_real_page_asks_for_plotly_js_once_from_its_head_and_draws_with_it():
    from playwright.sync_api import sync_playwright

    from tests.browser import CHART, CHROMIUM, CHROMIUM_ARGS, streamlit_server, wait_idle

    with streamlit_server() as local, sync_playwright() as pw:
        port = local.rsplit(":", 1)[1]
        url = f"http://classroom.lan:{port}"  # a school's name for the server: Chromium maps it here, no lookup
        rules = "--host-resolver-rules=MAP classroom.lan 127.0.0.1"
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, rules])
        page = browser.new_page()
        asked: list[str] = []
        page.on("request", lambda r: asked.append(r.url) if plotly_js.STATIC_NAME in r.url else None)
        for path in ("/heads", "/steps"):  # a first page (its first screen first), then another in the same session
            page.goto(url + path)
            wait_idle(page)
            page.locator(CHART).first.wait_for(state="visible")
            assert page.evaluate("() => document.head.innerHTML.includes('__mhaPlotlyLoad=')")
            assert page.evaluate("() => document.querySelectorAll('script[src*=\"plotly-cartesian\"]').length") == 1
        assert len(asked) == 2, asked  # once per page load, never twice in one
        assert all(u.startswith(url + "/app/static/") for u in asked), asked
        browser.close()
