"""ui/page_head.PageHead: the app's HTML page starts loading plotly.js in its <head> (a chartless page only prefetches
it) and tells Streamlit's frontend the server's base address (issue 38); nothing else changes. The middleware against a
stand-in ASGI app, then against the real server (serve.py) in Chromium: plotly.js is asked for once, by the page's
head, and the chart is drawn with it; the home page only fetches it, and the next page runs it from the cache; the
frontend pings the server once, at its base address, on a page's path and under a base path."""

from __future__ import annotations

import asyncio
import gzip
import json

import pytest

from ui import page_head, plotly_js

PAGE = b"<!DOCTYPE html>\n<html lang='en'>\n  <head>\n    <title>Streamlit</title>\n  </head><body></body></html>"


NAVIGATION = b"text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"  # what Chromium asks a page with


def call(path: str, body: bytes = PAGE, kind: bytes = b"text/html; charset=utf-8", method: str = "GET",
         status: int = 200, chunks: int = 1, encoding: bool = True,
         accept: bytes = NAVIGATION, query: str = "") -> tuple[dict, bytes, list]:  # fmt: skip
    """One request through PageHead to a stand-in app that answers `body` (gzipped when the request accepts gzip and
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

    scope = {"type": "http", "method": method, "path": path, "query_string": query.encode(),
             "headers": [(b"host", b"classroom.lan:8080"), (b"accept", accept),
                         (b"accept-encoding", b"gzip, deflate")]}  # fmt: skip
    asyncio.run(page_head.PageHead(app)(scope, receive, send))
    headers = dict(sent[0]["headers"])
    return headers, b"".join(m.get("body", b"") for m in sent[1:]), seen


@pytest.fixture(autouse=True)
def served(monkeypatch):
    monkeypatch.setattr(plotly_js, "served", lambda: True)


@pytest.mark.parametrize(("path", "query", "early"), [
    ("/heads", "", True), ("/mha/steps", "lang=zh", True), ("/positional", "", True),
    ("/", "", False), ("/", "lesson=mha45&stop=1", False), ("/console", "room=ABCD", True), ("/console", "", False),
    ("/worked", "", False), ("/", "join=ABCD", True), ("/", "join=ABCD&me=x", True), ("/home", "", False),
])  # fmt: skip
@pytest.mark.parametrize("chunks", [1, 3])
def test_a_page_starts_loading_plotly_js_in_its_head_or_only_prefetches_it_when_it_draws_no_plotly_chart(
    path, query, early, chunks
):
    """A chartless page (ui/nav.CHARTLESS) prefetches plotly.js, every other one asks for it at once; so does any
    page a live class's link opens (the class may be on a chart page)."""
    headers, body, seen = call(path, chunks=chunks, query=query)
    head = page_head.head(path, query)
    tag = plotly_js.TAG if early else plotly_js.PREFETCH
    assert head.startswith(tag) and (b"BACKEND_BASE_URL" in head) == (path != "/")
    assert body.startswith(b"<!DOCTYPE html>") and body.count(tag) == 1
    assert body.count(plotly_js.TAG + plotly_js.PREFETCH) == 0 and body.count(b"plotly-cartesian") == 1
    assert body.index(tag) == body.index(b"<head>") + len(b"<head>")  # first in the head
    assert body.replace(head, b"") == PAGE  # and nothing else changed
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


def test_nothing_changes_on_the_home_page_when_plotly_js_is_not_served(monkeypatch):
    monkeypatch.setattr(plotly_js, "served", lambda: False)
    headers, body, _ = call("/")
    assert gzip.decompress(body) == PAGE and headers[b"content-encoding"] == b"gzip"
    _, body, _ = call("/heads")  # another page still says where the server is
    assert body == PAGE.replace(b"<head>", b"<head>" + page_head.base_script("heads"))


@pytest.mark.parametrize(("base", "path", "page"), [
    ("", "/heads", "heads"), ("", "/heads/", "heads"), ("", "/", ""), ("", "/mha/steps", "mha/steps"),
    ("mha", "/mha/heads", "heads"), ("mha", "/mha/", ""), ("mha", "/mha", ""), ("mha", "/mhax/heads", "mhax/heads"),
])  # fmt: skip
def test_the_page_path_is_the_requests_after_the_servers_base_path(base, path, page):
    from streamlit import config

    before = config.get_option("server.baseUrlPath")
    try:
        config.set_option("server.baseUrlPath", base)
        assert page_head.page_path(path) == page
    finally:
        config.set_option("server.baseUrlPath", before)


@pytest.mark.parametrize(("base", "path", "name"), [
    ("", "/", "home"), ("", "", "home"), ("", "/home", "home"), ("", "/heads/", "heads"), ("mha", "/mha", "home"),
    ("mha", "/mha/", "home"), ("mha", "/mha/steps", "steps"),
])  # fmt: skip
def test_the_page_name_is_the_last_segment_after_the_base_path_and_home_for_none(base, path, name):
    """page_head.page_name, which the head (draws_plotly_first) and the first screen (ui/first_screen) both use."""
    from streamlit import config

    before = config.get_option("server.baseUrlPath")
    try:
        config.set_option("server.baseUrlPath", base)
        assert page_head.page_name(path) == name
    finally:
        config.set_option("server.baseUrlPath", before)


def test_the_base_script_says_only_a_plain_paths_base_and_cannot_be_broken_out_of():
    script = page_head.base_script("heads").decode()
    assert script.startswith("<script>") and script.endswith("</script>") and '"/heads"' in script
    assert "BACKEND_BASE_URL:location.origin+" in script  # the page's own origin: nothing outside the machine
    for path in ("", "a.b", "x</script><script>alert(1)", "%3C", "he ads", "../x", "a//b"):
        assert page_head.base_script(path) == b""


def test_the_base_script_gives_the_address_without_the_pages_path():
    """The script's own arithmetic, run by node on the addresses a browser shows: the page's path (as the server saw
    it) cut from the end, under any proxy's prefix; a page whose address does not end with it gets nothing."""
    import shutil
    import subprocess

    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    cases = [("heads", "http://classroom.lan:8080/heads", "http://classroom.lan:8080/"),
             ("heads", "http://classroom.lan:8080/heads/", "http://classroom.lan:8080/"),
             ("heads", "https://school.example/mha/heads", "https://school.example/mha/"),
             ("mha/steps", "http://h:1/proxy/mha/steps", "http://h:1/proxy/"),
             ("heads", "http://h:1/steps", None)]  # fmt: skip
    for page, address, want in cases:
        body = page_head.base_script(page).decode().removeprefix("<script>").removesuffix("</script>")
        url = json.dumps(address)
        program = (f"const u=new URL({url});globalThis.location={{pathname:u.pathname,origin:u.origin}};"
                   f"globalThis.window=globalThis;{body};"
                   "console.log(JSON.stringify((window.__streamlit||{}).BACKEND_BASE_URL||null))")  # fmt: skip
        out = subprocess.run([node, "-e", program], capture_output=True, text=True, timeout=30, check=True).stdout
        assert json.loads(out) == want, (page, address, out)


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
        pings: list[str] = []
        page.on("request", lambda r: asked.append(r.url) if plotly_js.STATIC_NAME in r.url else None)
        page.on("request", lambda r: pings.append(r.url) if "/_stcore/health" in r.url else None)
        for path in ("/heads", "/steps"):  # a first page (its first screen first), then another in the same session
            page.goto(url + path)
            wait_idle(page)
            page.locator(CHART).first.wait_for(state="visible")
            assert page.evaluate("() => document.head.innerHTML.includes('__mhaPlotlyLoad=')")
            assert page.evaluate("() => document.querySelectorAll('script[src*=\"plotly-cartesian\"]').length") == 1
        assert len(asked) == 2, asked  # once per page load, never twice in one
        assert all(u.startswith(url + "/app/static/") for u in asked), asked
        assert pings and all(u == url + "/_stcore/health" for u in pings), pings  # the base at once, not /heads/...
        page.get_by_role("link", name="Heads").first.click()  # the navigation keeps the server's base
        page.wait_for_url(url + "/heads")
        wait_idle(page)
        assert page.get_by_test_id("stException").count() == 0
        browser.close()


@pytest.mark.browser
@pytest.mark.timeout(180)
def test_the_home_page_only_prefetches_plotly_js_and_the_next_page_draws_it_from_the_browsers_cache():
    from playwright.sync_api import sync_playwright

    from tests.browser import CHART, CHROMIUM, CHROMIUM_ARGS, streamlit_server, wait_idle

    with streamlit_server() as local, sync_playwright() as pw:
        url = "http://classroom.lan:" + local.rsplit(":", 1)[1]
        rules = "--host-resolver-rules=MAP classroom.lan 127.0.0.1"
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, rules])
        page = browser.new_page()
        asked: list[tuple[str, str]] = []
        page.on("request", lambda r: asked.append((r.url, r.resource_type)) if plotly_js.STATIC_NAME in r.url else None)
        page.goto(url + "/")
        wait_idle(page)
        page.get_by_test_id("stGraphVizChart").locator("svg").first.wait_for(state="visible")
        here = "() => [document.querySelectorAll('script[src*=\"plotly-cartesian\"]').length, typeof window.Plotly]"
        assert page.evaluate(here) == [0, "undefined"]  # fetched, not run
        assert [u for u, _ in asked] == [f"{url}/app/static/{plotly_js.STATIC_NAME}"], asked
        page.get_by_role("link", name="Heads").first.click()
        page.wait_for_url(url + "/heads")
        wait_idle(page)
        page.locator(CHART).first.wait_for(state="visible")
        assert page.evaluate(here) == [1, "object"]
        loads = page.evaluate("() => performance.getEntriesByType('resource').filter(e => e.name.includes("
                              "'plotly-cartesian')).map(e => [e.initiatorType, e.transferSize])")  # fmt: skip
        assert [kind for kind, _ in loads] == ["link", "script"] and loads[0][1] > 100_000 and loads[1][1] == 0, loads
        assert page.get_by_test_id("stException").count() == 0
        browser.close()


@pytest.mark.browser
@pytest.mark.timeout(180)
def test_under_a_base_path_the_frontend_pings_the_server_there_at_once():
    from playwright.sync_api import sync_playwright

    from tests.browser import CHART, CHROMIUM, CHROMIUM_ARGS, streamlit_server, wait_idle

    with streamlit_server(extra=("--server.baseUrlPath", "mha"), base="mha") as local, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page()
        pings: list[str] = []
        page.on("request", lambda r: pings.append(r.url) if "/_stcore/health" in r.url else None)
        asked: list[str] = []
        page.on("request", lambda r: asked.append(r.url) if plotly_js.STATIC_NAME in r.url else None)
        page.goto(local + "/mha/heads")
        wait_idle(page)
        page.locator(CHART).first.wait_for(state="visible")
        assert pings and all(u == local + "/mha/_stcore/health" for u in pings), pings
        page.goto(local + "/mha/")  # the home page prefetches it, under the base path too
        wait_idle(page)
        assert asked == [f"{local}/mha/app/static/{plotly_js.STATIC_NAME}"] * 2, asked
        assert page.get_by_test_id("stException").count() == 0
        browser.close()
