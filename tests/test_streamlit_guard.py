"""A refused websocket makes no request leave the machine (ui/streamlit_offline.py).

Streamlit 1.67, as shipped, asks checkip.amazonaws.com for the machine's external address each time it refuses a
websocket whose Origin is not the page's own (shown here in-process, with the request blocked before it is sent).
With the replacement the same origins get the same answers and nothing is asked. For real: servers started as the
Docker image starts them (`python3 -m ui.streamlit_offline run app.py`, no page run yet) and as the README does
(`streamlit run app.py`, after its first page run), each with an audit hook that writes down and blocks every
lookup or connection to another machine (tests/browser.outbound_watch), refuse a foreign Origin and ask nothing.
The same servers keep the same-origin check: a matching Host/Origin pair of a school address gets 101.
"""

from __future__ import annotations

import socket
import sys

import pytest
import streamlit
from streamlit import net_util
from streamlit.web.server import server_util

from tests.browser import CHROMIUM, CHROMIUM_ARGS, outbound_watch, streamlit_server, wait_idle, websocket_upgrade
from ui import streamlit_offline

pytestmark = pytest.mark.skipif(streamlit.__version__ != streamlit_offline.STREAMLIT_VERSION,
                                reason="the replacement applies to one Streamlit version only")  # fmt: skip

_asked: list[str] | None = None  # while a test watches: what this process tried to reach outside


def _outbound(event: str, args: tuple) -> None:
    """Audit hook (installed once, for the whole test process; it acts only while a test watches)."""
    if _asked is None:
        return
    if event == "socket.getaddrinfo":
        host = args[0].decode() if isinstance(args[0], bytes) else str(args[0])
    elif event == "socket.connect" and args[0].family in (socket.AF_INET, socket.AF_INET6) \
            and args[0].type == socket.SOCK_STREAM:  # fmt: skip
        host = str(args[1][0])
    else:
        return
    if host not in {"localhost", "127.0.0.1", "::1"}:
        _asked.append(host)
        raise OSError(f"blocked by the test: {host}")  # before anything is sent


sys.addaudithook(_outbound)


def _allowed(check_origin, origin: str) -> tuple[bool, list[str]]:
    """Streamlit's allowed-origin answer for `origin` with `check_origin` as its external-address lookup."""
    global _asked
    saved, saved_ip = net_util.get_external_ip, net_util._external_ip
    net_util.get_external_ip, net_util._external_ip, _asked = check_origin, None, []
    try:
        return server_util.is_url_from_allowed_origins(origin), _asked
    finally:
        net_util.get_external_ip, net_util._external_ip = saved, saved_ip
        _asked = None


def _streamlit_own() -> object:
    streamlit_offline.install()
    return streamlit_offline.ORIGINAL["get_external_ip"]


def test_streamlit_as_shipped_asks_the_internet_when_it_refuses_an_origin():
    allowed, asked = _allowed(_streamlit_own(), "http://evil.example:8080")
    assert allowed is False
    assert "checkip.amazonaws.com" in asked  # http, then https: both blocked here, before any byte left


@pytest.mark.parametrize("origin", ["http://evil.example:8080", "http://10.1.2.3:8080", "http://localhost:3000",
                                    "http://127.0.0.1:8501", "https://0.0.0.0", f"http://{net_util.get_internal_ip()}:1"])
def test_the_replacement_gives_streamlits_answer_and_asks_nothing(origin):
    theirs, _ = _allowed(_streamlit_own(), origin)
    ours, asked = _allowed(streamlit_offline.get_external_ip, origin)
    assert ours == theirs and asked == []


def test_install_puts_it_where_streamlit_looks_it_up_once():
    assert streamlit_offline.install() and streamlit_offline.install()
    assert net_util.get_external_ip is streamlit_offline.get_external_ip
    assert streamlit_offline.ORIGINAL["get_external_ip"].__module__ == "streamlit.net_util"
    global _asked
    _asked = []
    try:  # as the server calls it: the module's own name, looked up at each check
        assert server_util.is_url_from_allowed_origins("http://evil.example") is False and _asked == []
    finally:
        _asked = None


SCHOOL = "classroom.lan:8080"


def test_a_fresh_server_started_as_the_image_starts_it_asks_nothing_when_it_refuses():
    with outbound_watch() as (env, log), streamlit_server(entry="ui.streamlit_offline", env=env) as url:
        assert websocket_upgrade(url, SCHOOL, "http://evil.example:8080") == 403  # before any page has run
        assert websocket_upgrade(url, SCHOOL, f"http://{SCHOOL}") == 101
        assert websocket_upgrade(url, "10.1.2.3:8080", "http://10.1.2.3:8080") == 101
        assert websocket_upgrade(url, SCHOOL, "http://evil.example:8080") == 403
        assert log.read_text(encoding="utf-8") == ""


@pytest.mark.browser
def test_a_server_started_with_streamlit_run_asks_nothing_once_a_page_has_run():
    from playwright.sync_api import sync_playwright

    with outbound_watch() as (env, log), streamlit_server(env=env) as url:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page()
            page.goto(url)
            wait_idle(page)
            browser.close()
        for origin in ["http://evil.example:8080", "http://10.1.2.3:8080", "null"]:
            assert websocket_upgrade(url, SCHOOL, origin) == 403
        assert log.read_text(encoding="utf-8") == ""  # nothing at start, for the page, nor for the refusals
